// Pages compressed once with holes for each response's secrets (app/web/compression.server.ts,
// decision 0035), decoded by zlib's decoders as a browser's would: brotli, and gzip for browsers
// without it.
import { randomBytes } from "node:crypto";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  BROTLI_PARAMS,
  compressAround,
  compressPage,
  compressWithHoles,
  encodingFor,
  filledCompressed,
  fillsAlike,
  type Encoding,
  type Holed,
} from "~/web/compression.server";

const token = (bytes: number) => randomBytes(bytes).toString("base64url");
const nonce = () => randomBytes(16).toString("base64");
const LENGTHS = [24, 43];
const DECODE: Record<Encoding, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

/** A page like a seat map: its secrets early and late, a long repetitive stretch between. */
function holedPage(): Holed {
  const rows = Array.from(
    { length: 400 },
    (_, seat) => `<label><input type="checkbox" name="seat" value="s${seat}"/> Row ${seat % 20}, seat ${seat}</label>`,
  ).join("");
  const at = (html: string) => Buffer.from(html);
  return [
    at('<!DOCTYPE html><html><head><script nonce="'),
    0,
    at('">start()</script></head><body><form method="post"><input type="hidden" name="csrf" value="'),
    1,
    at(`"/>${rows}</form><script nonce="`),
    0,
    at('">enqueue("[\\"csrf\\",\\"'),
    1,
    at('\\"]")</script><p>£35.00 – all in</p></body></html>'),
  ];
}

const plain = (page: Holed, secrets: Buffer[]) =>
  Buffer.concat(page.map((part) => (typeof part === "number" ? secrets[part]! : part))).toString();

describe.each<Encoding>(["br", "gzip"])("a page compressed once in %s with holes for its secrets", (encoding) => {
  it("decodes with any response's own secrets in its holes, and is compressed", async () => {
    const page = holedPage();
    const compressed = await compressWithHoles(encoding, page, LENGTHS);
    expect(compressed).toBeDefined();
    for (let response = 0; response < 3; response += 1) {
      const secrets = [Buffer.from(nonce()), Buffer.from(token(32))];
      const body = Buffer.concat(filledCompressed(encoding, compressed!, secrets, page));
      expect(DECODE[encoding](body).toString()).toBe(plain(page, secrets));
      // The secrets travel as they are; the rest is compressed.
      expect(body.includes(secrets[1]!)).toBe(true);
      expect(body.length).toBeLessThan(plain(page, secrets).length / 4);
    }
  });

  it("is refused where a copy after a hole would read what the hole holds", async () => {
    // The token also in the page's text, uncut, and the encoder shown the token in its hole: it
    // copies the later one from the hole, and another response's token would be copied there.
    const csrf = Buffer.from(token(32));
    const page: Holed = [Buffer.from("<p>"), 1, Buffer.from(`</p><p>${csrf.toString()}</p>`)];
    const showingTheToken = await compressAround(encoding, page, () => csrf);
    const other = Buffer.from(token(32));
    const sent = Buffer.concat(filledCompressed(encoding, showingTheToken, [Buffer.alloc(0), other], page));
    // gzip's trailer checks the page as it should be, so its decoder refuses the copy outright.
    if (encoding === "gzip") expect(() => gunzipSync(sent)).toThrow();
    else expect(brotliDecompressSync(sent).toString()).toBe(`<p>${other.toString()}</p><p>${other.toString()}</p>`);
    expect(await fillsAlike(encoding, page, showingTheToken, [0, csrf.length])).toBe(false);
    // Given filler in the hole instead, it copies nothing from there, and passes.
    expect(await compressWithHoles(encoding, page, [0, csrf.length])).toBeDefined();
  });

  it("makes no holes an uncompressed block cannot hold", async () => {
    expect(await compressWithHoles(encoding, holedPage(), [24, 0])).toBeUndefined();
    expect(await compressWithHoles(encoding, holedPage(), [24, 65_536])).toBeUndefined();
    // A hole the page does not have needs no length.
    expect(await compressWithHoles(encoding, [Buffer.from("<p>"), 0, Buffer.from("</p>")], [24, 0])).toBeDefined();
  });
});

describe("which requests get a page compressed once", () => {
  it("goes by the site's compression: brotli where it would send brotli, gzip where gzip", () => {
    expect(encodingFor("gzip, deflate, br")).toBe("br");
    expect(encodingFor("br")).toBe("br");
    expect(encodingFor("gzip, deflate")).toBe("gzip");
    expect(encodingFor("gzip, compress")).toBe("gzip");
    expect(encodingFor("gzip, br;q=0")).toBe("gzip");
    expect(encodingFor("br;q=0.5, gzip")).toBe("gzip");
    expect(encodingFor("deflate")).toBeUndefined();
    expect(encodingFor("identity")).toBeUndefined();
    expect(encodingFor(null)).toBeUndefined();
  });
});

describe("a page written whole, compressed in one call", () => {
  const page = () => Buffer.from(plain(holedPage(), [Buffer.from(nonce()), Buffer.from(token(32))]));

  it("is the site's compression's bytes: the size hint given to brotli changes its speed, not its output", async () => {
    const html = page();
    expect(await compressPage(html, "br")).toEqual(brotliCompressSync(html, { params: BROTLI_PARAMS }));
    expect(await compressPage(html, "gzip")).toEqual(gzipSync(html));
    expect(DECODE.br((await compressPage(html, "br"))!).equals(html)).toBe(true);
  });

  it("leaves a page under the threshold, or for a request without an encoding of ours, as it is", async () => {
    expect(await compressPage(Buffer.from("<p>Short</p>"), "br")).toBeUndefined();
    expect(await compressPage(page(), undefined)).toBeUndefined();
  });
});
