/**
 * The site's compression settings, and pages compressed once with holes for each response's
 * secrets (decision 0035): in brotli for browsers, in gzip for those without brotli.
 */
import { promisify } from "node:util";
import {
  brotliCompress,
  brotliCompressSync,
  brotliDecompress,
  constants,
  crc32,
  createBrotliCompress,
  createDeflateRaw,
  gunzip,
  gzip,
  gzipSync,
} from "node:zlib";
import Negotiator from "negotiator";

/**
 * Brotli with a 256 KB window instead of 4 MB: each response's encoder then holds far less
 * memory, which V8 counts against its heap. With the default window, pages asked for with "br"
 * forced a full garbage collection every few requests (19 against 6 in the same load). Quality 2,
 * not `compression`'s 4: half the CPU on the largest seat map (0.84 against 1.60 ms) for 0.4%
 * more bytes, and 5-7% more on a small page (docs/decisions/0028-brotli-window.md).
 *
 * Also what makes holes possible: below quality 5 the encoder models no literal on the bytes
 * before it, so what a hole holds cannot change how the bytes after it decode.
 */
export const BROTLI_PARAMS = {
  [constants.BROTLI_PARAM_QUALITY]: 2,
  [constants.BROTLI_PARAM_LGWIN]: 18,
};

/** The encodings a page is compressed once in; gzip's settings are zlib's defaults, as `compression`'s. */
export type Encoding = "br" | "gzip";

// As `compression` negotiates, so that a page compressed here goes to the same requests.
const ENCODINGS = ["br", "gzip", "deflate", "identity"];
const PREFERRED = ["br", "gzip"];

// negotiator 0.6.4 takes the server's preference second; @types/negotiator has not caught up.
type Negotiate = (available: string[], preferred: string[]) => string | undefined;

/** How the site's compression would encode the answer to a request with these headers, if in one of ours. */
export function encodingFor(acceptEncoding: string | null): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const negotiator = new Negotiator({ headers: { "accept-encoding": acceptEncoding } });
  const chosen = (negotiator.encoding as Negotiate).call(negotiator, ENCODINGS, PREFERRED);
  return chosen === "br" || chosen === "gzip" ? chosen : undefined;
}

/** Below this, `compression` sends a body as it is; so does `compressPage`. */
const THRESHOLD_BYTES = 1024;
/**
 * Up to this size a page is compressed on the event loop (a 20 KB checkout page in about 0.15 ms):
 * handing it to libuv's threads costs more than that. A larger one (a big house's seat map,
 * compressed afresh while seats are being taken) goes to them, so the loop is not held up.
 */
const ON_THE_LOOP_BYTES = 64 * 1024;
const brotliOnThreads = promisify(brotliCompress);
const gzipOnThreads = promisify(gzip);

/**
 * A page written whole, compressed in one call as the site's compression would have compressed
 * it (the same encoding, settings and threshold), or undefined to send it as it is. A stream
 * through `compression` cost a checkout page twice the CPU of this (decision 0036).
 */
export async function compressPage(html: Buffer, encoding: Encoding | undefined): Promise<Buffer | undefined> {
  if (!encoding || html.length < THRESHOLD_BYTES) return undefined;
  // The page's length as brotli's size hint: the encoder then sizes its tables to the page rather
  // than to its 256 KB window. The bytes out are the same; a 19 KB checkout page took 0.09 ms
  // instead of 0.25 (issue 19).
  const options =
    encoding === "br" ? { params: { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: html.length } } : {};
  if (html.length <= ON_THE_LOOP_BYTES) return encoding === "br" ? brotliCompressSync(html, options) : gzipSync(html);
  return encoding === "br" ? brotliOnThreads(html, options) : gzipOnThreads(html);
}

/**
 * Bytes with a hole at each number: hole `n` is where a response's secret `n` goes. Compressed,
 * each hole is a gap in the stream where the secret is written uncompressed.
 */
export type Holed = readonly (Buffer | number)[];

/** The largest secret an uncompressed block can hold: both formats give its length 16 bits. */
const MOST_IN_A_HOLE = 65_535;

/**
 * Bytes that never occur in UTF-8 (0xF5 to 0xFF), so never in a page: what the encoder is given
 * where a hole is, and what the check fills the holes with.
 */
function filler(length: number) {
  const bytes = Buffer.alloc(length);
  for (let index = 0; index < length; index += 1) bytes[index] = 0xf5 + Math.floor(Math.random() * 11);
  return bytes;
}

/** What differs between the two formats; the holes work alike in both. */
const FORMATS = {
  br: {
    encoder: () => createBrotliCompress({ params: BROTLI_PARAMS }),
    flush: constants.BROTLI_OPERATION_FLUSH,
    /**
     * An uncompressed meta-block (RFC 7932, section 9.2): ISLAST 0, MNIBBLES 0 (four nibbles of
     * length), MLEN-1, ISUNCOMPRESSED 1, padded to the byte; then the bytes as they are.
     */
    stored(secret: Buffer) {
      const header = ((secret.length - 1) << 3) | (1 << 19);
      return [Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), secret];
    },
    decode: brotliDecompress,
  },
  gzip: {
    encoder: () => createDeflateRaw(),
    flush: constants.Z_SYNC_FLUSH,
    /**
     * A stored block (RFC 1951, section 3.2.4): BFINAL 0 and BTYPE 00 padded to the byte, LEN
     * and its complement NLEN, then the bytes as they are.
     */
    stored(secret: Buffer) {
      const length = secret.length;
      return [Buffer.from([0, length & 0xff, length >> 8, ~length & 0xff, (~length >> 8) & 0xff]), secret];
    },
    decode: gunzip,
  },
} satisfies Record<Encoding, unknown>;

// RFC 1952: no name, no time, the deflate method, from Unix; the trailer is made per response.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);

/**
 * The page compressed once, with a hole for each secret: every hole ends a block and starts the
 * next on a byte boundary, so a response's own secret goes in as an uncompressed block. A hole's
 * length is fixed by `lengths`. Undefined if the stream would decode a secret's bytes into
 * anything but its hole (`fillsAlike`).
 */
export async function compressWithHoles(
  encoding: Encoding,
  page: Holed,
  lengths: readonly number[],
): Promise<Holed | undefined> {
  const holes = page.filter((part): part is number => typeof part === "number");
  if (holes.some((hole) => !(lengths[hole]! >= 1 && lengths[hole]! <= MOST_IN_A_HOLE))) return undefined;
  const compressed = await compressAround(encoding, page, (hole) => filler(lengths[hole]!));
  return (await fillsAlike(encoding, page, compressed, lengths)) ? compressed : undefined;
}

/**
 * The page compressed with its holes cut out of the stream, the encoder given `inHole(n)` where
 * hole `n` is: it must be as long as the secrets to go there, so the distances after it are right.
 */
export async function compressAround(
  encoding: Encoding,
  page: Holed,
  inHole: (hole: number) => Buffer,
): Promise<Holed> {
  const format = FORMATS[encoding];
  const encoder = format.encoder();
  const out: Buffer[] = [];
  encoder.on("data", (chunk: Buffer) => out.push(chunk));
  const taken = () => Buffer.concat(out.splice(0));
  const flushed = () => new Promise<void>((resolve) => encoder.flush(format.flush, () => resolve()));
  const compressed: (Buffer | number)[] = encoding === "gzip" ? [GZIP_HEADER] : [];
  for (const part of page) {
    if (typeof part !== "number") {
      encoder.write(part);
      continue;
    }
    await flushed();
    compressed.push(taken());
    encoder.write(inHole(part));
    await flushed();
    // What the encoder made of the hole is dropped: each response's secret is stored instead.
    taken();
    compressed.push(part);
  }
  const ended = new Promise((resolve, reject) => encoder.once("end", resolve).once("error", reject));
  encoder.end();
  await ended;
  compressed.push(taken());
  return compressed.filter((part) => typeof part === "number" || part.length > 0);
}

/**
 * Whether the compressed page decodes to the page whatever its holes hold. Decoded once with
 * filler in every hole: a copy that reached into a hole would give filler bytes where the page has
 * none. How the stream decodes does not depend on what the holes hold (only on their lengths), so
 * one decoding answers for every secret of these lengths.
 */
export async function fillsAlike(encoding: Encoding, page: Holed, compressed: Holed, lengths: readonly number[]) {
  const secrets = lengths.map((length) => filler(length));
  const decoded = await new Promise<Buffer | undefined>((resolve) =>
    FORMATS[encoding].decode(Buffer.concat(filledCompressed(encoding, compressed, secrets, page)), (error, bytes) =>
      resolve(error ? undefined : bytes),
    ),
  );
  return decoded?.equals(Buffer.concat(asSent(page, secrets))) ?? false;
}

function inHoles(page: Holed, secrets: readonly Buffer[], put: (secret: Buffer) => Buffer[]) {
  return page.flatMap((part) => (typeof part === "number" ? put(secrets[part]!) : [part]));
}

/** The page, uncompressed, with these secrets in its holes. */
const asSent = (page: Holed, secrets: readonly Buffer[]) => inHoles(page, secrets, (secret) => [secret]);

/**
 * A page compressed with holes, with these secrets in them: the chunks to send. gzip's trailer
 * holds the check of the page as sent, so it is worked out from the page (`page`, with holes).
 */
export function filledCompressed(encoding: Encoding, compressed: Holed, secrets: readonly Buffer[], page: Holed) {
  const chunks = inHoles(compressed, secrets, FORMATS[encoding].stored);
  if (encoding === "gzip") {
    let check = 0;
    let length = 0;
    for (const part of asSent(page, secrets)) {
      check = crc32(part, check);
      length += part.length;
    }
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(check >>> 0, 0);
    trailer.writeUInt32LE(length >>> 0, 4);
    chunks.push(trailer);
  }
  return chunks;
}
