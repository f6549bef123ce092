import { createHash } from "node:crypto";
import { namedCache } from "~/caches.server";

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
 *   strings can neither fill the cache nor be written into another visitor's page.
 * - **Each response's own secrets are written in.** The CSP nonce and the masked CSRF value are
 *   cut out of the kept HTML by exact match (both are long random strings, fresh per response) and
 *   this response's are put in their place. The data is keyed with the CSRF value cut out too; a
 *   request whose data carries no CSRF value of the right shape is not kept.
 * - **A page is kept only once it has been asked for twice**, so pages asked for once (a crawler's
 *   walk, an attacker's variations) never push out the ones a crowd is reading.
 * - **Bounded in bytes**: the HTML as kept and the keys (fixed-length digests), in `pages`; the
 *   digests asked for once, in `pages-asked-once`.
 */

/** The places in a kept page where this response's nonce (0) and CSRF value (1) go. */
type Part = string | 0 | 1;

interface KeptPage {
  parts: Part[];
  bytes: number;
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
 * route of the page declares. Undefined when its data does not carry this response's CSRF value
 * (the value is cut out of the key, and out of the page when it is kept).
 */
export function pageKey(url: URL, declared: ReadonlySet<string>, data: string, secrets: PageSecrets) {
  if (secrets.nonce.length < SECRET_MIN_LENGTH || secrets.csrf.length < SECRET_MIN_LENGTH) return undefined;
  if (!data.includes(secrets.csrf)) return undefined;
  const query: string[] = [];
  let keepable = true;
  for (const [name, value] of url.searchParams) {
    if (declared.has(name)) query.push(`${name}=${value}`);
    else keepable = false;
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

/** A digest's bytes as kept in `pages-asked-once` (the key is counted by the cache). */
const ASKED_ONCE_VALUE = "1";

export function pageCache({ maxBytes, askedOnceBytes }: { maxBytes: number; askedOnceBytes: number }) {
  const pages = namedCache<KeptPage>("pages", {
    reason: "pages every visitor sees alike (catalogue, seat maps, legal), served again while their data is unchanged",
    maxBytes,
    sizeOf: (page) => page.bytes,
  });
  const askedOnce = namedCache<string>("pages-asked-once", {
    reason: "which pages have been asked for once: a page is kept the second time",
    maxBytes: askedOnceBytes,
    sizeOf: () => ASKED_ONCE_VALUE.length,
  });
  return {
    /** The page kept under `key`, with this response's secrets, or undefined. */
    serve(key: string, secrets: PageSecrets): string | undefined {
      const page = pages.get(key);
      return page && withSecrets(page.parts, secrets);
    },
    /** Whether a page written now under `key` is worth keeping: it has been asked for before. */
    worthKeeping(key: string): boolean {
      if (askedOnce.get(key) !== undefined) return true;
      askedOnce.set(key, ASKED_ONCE_VALUE);
      return false;
    },
    keep(key: string, html: string, secrets: PageSecrets) {
      pages.set(key, { parts: cutSecrets(html, secrets), bytes: Buffer.byteLength(html) });
    },
    stats: () => [pages.stats(), askedOnce.stats()],
  };
}

export type PageCache = ReturnType<typeof pageCache>;
