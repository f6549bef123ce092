/**
 * Pages the server has already written, kept by everything they were written from (decision 0033).
 *
 * A page's HTML is a function of its address, its status and the data
 * Remix hands the browser (`serverHandoffStream`, turbo-stream's encoding of every route's loader
 * data, action data and errors): the browser hydrates the same markup from that same data, so
 * the server's render cannot depend on anything else without breaking hydration. Two requests
 * for which all of that is equal get the same HTML, except for the two values that are secret to
 * each response: the CSP nonce and the buyer's CSRF token. Those are cut out of the kept HTML and
 * the new response's own are put in their place.
 *
 * A page served again is compressed once, in brotli or gzip as asked, with holes for the secrets
 * (decision 0035).
 *
 * Only pages every visitor sees alike opt in (a route's `handle.keptPage`): the catalogue, the
 * seat map and the legal pages, which a crowd reads over and over during an on-sale. A buyer's
 * own checkout pages are not kept; they would rarely be read twice.
 */

import { compressWithHoles, filledCompressed, type Encoding, type Holed } from "./compression.server";

/** A kept page: its bytes, with the places where the nonce (0) and the CSRF token (1) go. */
type Part = Buffer | 0 | 1;

/** The page compressed, and the length of each secret its holes were made for. */
interface Compressed {
  parts: Holed;
  lengths: number[];
}

interface Kept {
  parts: Part[];
  bytes: number;
  /**
   * In each encoding, compressed once it has been served again in it; until then (or if it
   * cannot be) sent as it is, for the site's compression to compress.
   */
  encoded: Partial<Record<Encoding, Compressed | "compressing" | "cannot">>;
}

export interface PageSecrets {
  nonce: string;
  csrf: string | undefined;
}

/** A kept page as this response sends it: its chunks, and their encoding if already compressed. */
export interface Served {
  chunks: Buffer[];
  encoding?: Encoding;
}

const secretBytes = (secrets: PageSecrets): [Buffer, Buffer] => [
  Buffer.from(secrets.nonce),
  Buffer.from(secrets.csrf ?? ""),
];

/** Cuts every occurrence of the response's secrets out of its HTML. */
export function cutSecrets(html: Buffer, secrets: PageSecrets): Part[] {
  const needles: [Buffer, 0 | 1][] = [[Buffer.from(secrets.nonce), 0]];
  // A token too short to be unique in a page is not one the site makes; without one, none is cut.
  if (secrets.csrf && secrets.csrf.length >= 16) needles.push([Buffer.from(secrets.csrf), 1]);
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
    if (next > from) parts.push(html.subarray(from, next));
    parts.push(which);
    from = next + length;
  }
  if (from < html.length) parts.push(html.subarray(from));
  return parts;
}

/** Kept bytes longer than this are sent as they are kept, not copied into the response's chunk. */
const SENT_AS_KEPT = 16 * 1024;

/**
 * The kept HTML with this response's secrets in place, as the chunks to send: each run of short
 * parts and secrets joined into one, each long part (the seat map's rows) sent as it is kept. A
 * copy of a 390 KB page per response, outside V8's heap, would bring its garbage collections back
 * (decision 0028).
 */
export function withSecrets(parts: readonly Part[], secrets: PageSecrets): Buffer[] {
  const [nonce, csrf] = secretBytes(secrets);
  const chunks: Buffer[] = [];
  let run: Buffer[] = [];
  const endRun = () => {
    if (run.length > 0) chunks.push(run.length === 1 ? run[0]! : Buffer.concat(run));
    run = [];
  };
  for (const part of parts) {
    if (part === 0) run.push(nonce);
    else if (part === 1) run.push(csrf);
    else if (part.length > SENT_AS_KEPT) {
      endRun();
      chunks.push(part);
    } else run.push(part);
  }
  endRun();
  return chunks;
}

/**
 * The kept pages, least recently served dropped first once they hold more than `limitBytes`
 * (their HTML and their keys, counted as bytes).
 */
export function keptPages(limitBytes: number) {
  const pages = new Map<string, Kept>();
  let held = 0;
  const dropOldest = () => {
    for (const [oldest, page] of pages) {
      if (held <= limitBytes) break;
      pages.delete(oldest);
      held -= page.bytes;
    }
  };
  /**
   * Off the request's way (zlib works on libuv's threads): a page served twice is likely to be
   * served again, and a page that changes with every request is never compressed twice.
   */
  const compressing = new Set<Promise<void>>();
  const compress = (key: string, kept: Kept, encoding: Encoding, secrets: Buffer[]) => {
    kept.encoded[encoding] = "compressing";
    const lengths = secrets.map((secret) => secret.length);
    const done = compressWithHoles(encoding, kept.parts, lengths).then(
      (parts) => {
        kept.encoded[encoding] = parts ? { parts, lengths } : "cannot";
        if (!parts || pages.get(key) !== kept) return;
        const bytes = parts.reduce<number>((sum, part) => sum + (typeof part === "number" ? 0 : part.length), 0);
        kept.bytes += bytes;
        held += bytes;
        dropOldest();
      },
      () => {
        kept.encoded[encoding] = "cannot";
      },
    );
    compressing.add(done);
    void done.finally(() => compressing.delete(done));
  };
  return {
    /**
     * The page written from exactly this key, with this response's secrets, or undefined: in
     * `encoding` if it has been compressed in it.
     */
    serve(key: string, secrets: PageSecrets, encoding?: Encoding): Served | undefined {
      const kept = pages.get(key);
      if (!kept) return undefined;
      // Most recently served last, so the oldest is first in the map's order.
      pages.delete(key);
      pages.set(key, kept);
      if (encoding) {
        const bytes = secretBytes(secrets);
        // Only the page's own holes matter: a visitor without a token fits a page that has none.
        const fits = (length: (hole: 0 | 1) => boolean) =>
          kept.parts.every((part) => typeof part !== "number" || length(part));
        const compressed = kept.encoded[encoding];
        // A hole is made as long as this response's secret: none is made for a missing one.
        if (compressed === undefined && fits((hole) => bytes[hole].length > 0)) compress(key, kept, encoding, bytes);
        else if (typeof compressed === "object" && fits((hole) => bytes[hole].length === compressed.lengths[hole]))
          return { chunks: filledCompressed(encoding, compressed.parts, bytes, kept.parts), encoding };
      }
      return { chunks: withSecrets(kept.parts, secrets) };
    },
    /** The page as written, in the chunks it was sent in (copied: they belong to the response). */
    keep(key: string, chunks: readonly Buffer[], secrets: PageSecrets) {
      const html = Buffer.concat(chunks);
      const bytes = html.length + key.length;
      if (bytes > limitBytes) return;
      const old = pages.get(key);
      if (old) {
        pages.delete(key);
        held -= old.bytes;
      }
      pages.set(key, { parts: cutSecrets(html, secrets), bytes, encoded: {} });
      held += bytes;
      dropOldest();
    },
    get size() {
      return pages.size;
    },
    /** Once every page being compressed now has been (or could not be). */
    async compressed() {
      await Promise.all(compressing);
    },
  };
}

export type KeptPages = ReturnType<typeof keptPages>;
