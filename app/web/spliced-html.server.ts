import type { HtmlSplice } from "~/views/html-splice";

const MARKER_START = Buffer.from("<!--spliced:");
const MARKER_END = Buffer.from("-->");

/**
 * One page's splices: the bytes its render left behind markers (HtmlSplice), and `take`, which
 * passes the page's stream through with each marker replaced by its bytes. A marker can only come
 * from the render itself: React escapes `<` in text and attributes, and Remix and our own inline
 * scripts escape it too. Bytes that might begin a marker wait for the next chunk, so no marker
 * split between two chunks is missed; a marker naming no splice is left as it is.
 */
export function htmlSplicer() {
  const spliced: (readonly Uint8Array[])[] = [];
  let held = Buffer.alloc(0);
  const sink: HtmlSplice = {
    add(parts) {
      spliced.push(parts);
      return `<!--spliced:${spliced.length - 1}-->`;
    },
  };
  /** How many of the last bytes of `chunk` are the start of a marker. */
  const markerPrefixAtEnd = (chunk: Buffer) => {
    for (let length = Math.min(MARKER_START.length - 1, chunk.length); length > 0; length -= 1) {
      if (chunk.subarray(chunk.length - length).equals(MARKER_START.subarray(0, length))) return length;
    }
    return 0;
  };
  return {
    sink,
    /** Whether the render left anything to splice in: a page without, most pages, is sent as written. */
    get empty() {
      return spliced.length === 0;
    },
    take(chunk: Buffer): Buffer[] {
      const joined = held.length ? Buffer.concat([held, chunk]) : chunk;
      held = Buffer.alloc(0);
      const out: Buffer[] = [];
      let from = 0;
      for (;;) {
        const at = joined.indexOf(MARKER_START, from);
        if (at < 0) break;
        const end = joined.indexOf(MARKER_END, at + MARKER_START.length);
        if (end < 0) {
          out.push(joined.subarray(from, at));
          held = Buffer.from(joined.subarray(at));
          return out;
        }
        out.push(joined.subarray(from, at));
        const index = joined.toString("latin1", at + MARKER_START.length, end);
        const parts = /^\d+$/.test(index) ? spliced[Number(index)] : undefined;
        if (parts) for (const part of parts) out.push(Buffer.from(part.buffer, part.byteOffset, part.byteLength));
        else out.push(joined.subarray(at, end + MARKER_END.length));
        from = end + MARKER_END.length;
      }
      const rest = joined.subarray(from);
      const keep = markerPrefixAtEnd(rest);
      if (keep > 0) held = Buffer.from(rest.subarray(rest.length - keep));
      out.push(rest.subarray(0, rest.length - keep));
      return out;
    },
    /** What is still held at the end: never a whole marker. */
    end(): Buffer {
      return held;
    },
  };
}

export type HtmlSplicer = ReturnType<typeof htmlSplicer>;
