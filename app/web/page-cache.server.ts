import { createHash } from "node:crypto";
import ipaddr from "ipaddr.js";
import { namedCache } from "~/caches.server";
import type { DeclaredQueryValues } from "~/urls/page-query";

/**
 * The page cache (docs/rendering.md). A page every visitor sees alike, given its data, is kept as
 * written and served again without rendering while its data is unchanged. What keeps this safe:
 *
 * - **The key is everything the page is written from** and nothing a visitor chooses beyond it:
 *   its path, the query parameters its routes declare they read, and the data Remix hands the
 *   browser, which is what the render reads (the browser hydrates the same markup from the same
 *   data, so a render that read anything else would already break). A seat taken or a price
 *   changed is new data, so a new key: nothing kept is stale. A page is written only from the
 *   declared parameters (app/urls/page-query.ts), so an address with others is served the page
 *   kept for it without them; but a page asked for with others is never kept, so random query
 *   strings can neither fill the cache nor be written into another visitor's page. Nor is a page
 *   asked for with a declared parameter whose value its route does not accept as written
 *   (their route module's `keptQuery`), or with one twice: junk values are answered, not kept.
 * - **Each response's own secrets are written in.** The CSP nonce and the masked CSRF value are
 *   cut out of the kept HTML by exact match (both are long random strings, fresh per response) and
 *   this response's are put in their place. The data is keyed with the CSRF value cut out too; a
 *   request whose data carries no CSRF value of the right shape is not kept.
 * - **A page is kept only once it has been asked for twice**, so pages asked for once (a crawler's
 *   walk, an attacker's variations) never push out the ones a crowd is reading; and **it joins
 *   the crowd's pages only once a second address has asked for it**. Until then it is kept in
 *   `pages-new`, which one client asking for each of its variations twice can churn, but which
 *   never pushes anything out of `pages`.
 * - **Bounded in bytes**: the HTML as kept and the keys (fixed-length digests), in `pages` and
 *   `pages-new`; the digests asked for once and who asked, in `pages-asked-once`.
 */

/** The places in a kept page where this response's nonce (0) and CSRF value (1) go. */
type Part = string | 0 | 1;

interface KeptPage {
  parts: Part[];
  bytes: number;
  /** The network it was kept for (`askerNetwork`): it joins the crowd's pages when another asks for it. */
  keptFor: string;
}

export interface PageSecrets {
  nonce: string;
  /** The CSRF value this response's forms carry (masked: different in every response). */
  csrf: string;
}

/** What a route's handle says about its page: the query parameters it reads, if it may be kept. */
export interface PageCacheHandle {
  pageCache?: { query: readonly string[] };
}

/** A masked CSRF value is long and random; anything shorter could occur in a page by chance. */
const SECRET_MIN_LENGTH = 16;

/** Cuts every occurrence of the response's secrets out of its HTML. */
export function cutSecrets(html: string, secrets: PageSecrets): Part[] {
  const needles: [string, 0 | 1][] = [
    [secrets.nonce, 0],
    [secrets.csrf, 1],
  ];
  const parts: Part[] = [];
  let from = 0;
  for (;;) {
    let next = -1;
    let which: 0 | 1 = 0;
    let length = 0;
    for (const [needle, marker] of needles) {
      const at = html.indexOf(needle, from);
      if (at >= 0 && (next < 0 || at < next)) {
        next = at;
        which = marker;
        length = needle.length;
      }
    }
    if (next < 0) break;
    if (next > from) parts.push(html.slice(from, next));
    parts.push(which);
    from = next + length;
  }
  if (from < html.length) parts.push(html.slice(from));
  return parts;
}

/** The kept HTML with this response's secrets in place. */
export function withSecrets(parts: readonly Part[], secrets: PageSecrets): string {
  let html = "";
  for (const part of parts) html += part === 0 ? secrets.nonce : part === 1 ? secrets.csrf : part;
  return html;
}

/**
 * The key of a page, and whether it may be kept: not when its address has a query parameter no
 * route of the page declares, one twice, or a declared one with a value `valid` does not accept
 * (`declared` maps each name to its test). Undefined when its data does not carry this response's
 * CSRF value (the value is cut out of the key, and out of the page when it is kept).
 */
export function pageKey(url: URL, declared: DeclaredQueryValues, data: string, secrets: PageSecrets) {
  if (secrets.nonce.length < SECRET_MIN_LENGTH || secrets.csrf.length < SECRET_MIN_LENGTH) return undefined;
  if (!data.includes(secrets.csrf)) return undefined;
  const query: string[] = [];
  const seen = new Set<string>();
  let keepable = true;
  for (const [name, value] of url.searchParams) {
    const valid = declared.get(name);
    if (valid === undefined) {
      keepable = false;
      continue;
    }
    query.push(`${name}=${value}`);
    if (seen.has(name) || !valid(value)) keepable = false;
    seen.add(name);
  }
  query.sort();
  const key = createHash("sha256")
    .update(url.pathname)
    .update("\0")
    .update(query.join("&"))
    .update("\0")
    .update(data.replaceAll(secrets.csrf, "\0csrf"))
    .digest("base64url");
  return { key, keepable };
}

/**
 * Who asked, as the crowd rule counts them: an IPv4 address, or an IPv6 address's /64 (one
 * subscriber's network, which can hold more addresses than any cache has entries).
 */
export function askerNetwork(address: string): string {
  // Anything not an address (a peer whose address was not known) stands for itself.
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const groups = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${groups.join(":")}::/64`;
}

/** Where a page is kept: `crowd` once more than one address has asked for it, `new` before. */
export type KeptBy = "crowd" | "new";

export function pageCache({
  maxBytes,
  newBytes,
  askedOnceBytes,
}: {
  maxBytes: number;
  newBytes: number;
  askedOnceBytes: number;
}) {
  const reason =
    "pages every visitor sees alike (catalogue, seat maps, legal), served again while their data is unchanged";
  const sizeOf = (page: KeptPage) => page.bytes + Buffer.byteLength(page.keptFor);
  // Two segments, so that one client cannot push out what a crowd reads: a page one address has
  // had kept waits in `pages-new`, where only other such pages push it out; it enters `pages`
  // once another address asks for it. Pages a crowd reads are asked for from many addresses.
  const pages = namedCache<KeptPage>("pages", {
    reason: `${reason}: asked for from more than one address`,
    maxBytes,
    sizeOf,
  });
  const pagesNew = namedCache<KeptPage>("pages-new", {
    reason: `${reason}: asked for from one address so far`,
    maxBytes: newBytes,
    sizeOf,
  });
  // By digest, the address that first asked for it.
  const askedOnce = namedCache<string>("pages-asked-once", {
    reason: "which pages have been asked for once, and from where: a page is kept the second time",
    maxBytes: askedOnceBytes,
    sizeOf: (address) => Buffer.byteLength(address),
  });
  return {
    /**
     * The page kept under `key`, with this response's secrets, or undefined. A page kept for one
     * address that another asks for joins the crowd's.
     */
    serve(key: string, secrets: PageSecrets, address: string): string | undefined {
      let page = pages.get(key);
      if (page === undefined) {
        page = pagesNew.get(key);
        if (page !== undefined && page.keptFor !== askerNetwork(address)) {
          pagesNew.delete(key);
          pages.set(key, page);
        }
      }
      return page && withSecrets(page.parts, secrets);
    },
    /**
     * Whether a page written now under `key` for `address` is worth keeping, and where: not the
     * first time it is asked for; `crowd` when another address asked for it first.
     */
    worthKeeping(key: string, address: string): KeptBy | undefined {
      const asker = askerNetwork(address);
      const first = askedOnce.get(key);
      if (first === undefined) {
        askedOnce.set(key, asker);
        return undefined;
      }
      return first === asker ? "new" : "crowd";
    },
    keep(key: string, html: string, secrets: PageSecrets, where: { by: KeptBy; address: string }) {
      const page = {
        parts: cutSecrets(html, secrets),
        bytes: Buffer.byteLength(html),
        keptFor: askerNetwork(where.address),
      };
      (where.by === "crowd" ? pages : pagesNew).set(key, page);
    },
    stats: () => [pages.stats(), pagesNew.stats(), askedOnce.stats()],
  };
}

export type PageCache = ReturnType<typeof pageCache>;
