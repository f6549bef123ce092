// Pages compressed once with holes for each response's secrets (app/web/brotli.server.ts,
// decision 0035), decoded by zlib's brotli decoder as a browser's would.
import { randomBytes } from "node:crypto";
import { brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  answersInBrotli,
  compressAround,
  compressWithHoles,
  filledBrotli,
  fillsAlike,
  type Holed,
} from "~/web/brotli.server";

const token = (bytes: number) => randomBytes(bytes).toString("base64url");
const nonce = () => randomBytes(16).toString("base64");
const LENGTHS = [24, 43];

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

describe("a page compressed once with holes for its secrets", () => {
  it("decodes with any response's own secrets in its holes, and is compressed", async () => {
    const page = holedPage();
    const compressed = await compressWithHoles(page, LENGTHS);
    expect(compressed).toBeDefined();
    for (let response = 0; response < 3; response += 1) {
      const secrets = [Buffer.from(nonce()), Buffer.from(token(32))];
      const body = Buffer.concat(filledBrotli(compressed!, secrets));
      expect(brotliDecompressSync(body).toString()).toBe(plain(page, secrets));
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
    const showingTheToken = await compressAround(page, () => csrf);
    const other = Buffer.from(token(32));
    expect(
      brotliDecompressSync(Buffer.concat(filledBrotli(showingTheToken, [Buffer.alloc(0), other]))).toString(),
    ).toBe(`<p>${other.toString()}</p><p>${other.toString()}</p>`);
    expect(await fillsAlike(page, showingTheToken, [0, csrf.length])).toBe(false);
    // Given filler in the hole instead, it copies nothing from there, and passes.
    expect(await compressWithHoles(page, [0, csrf.length])).toBeDefined();
  });

  it("makes no holes a meta-block cannot hold", async () => {
    expect(await compressWithHoles(holedPage(), [24, 0])).toBeUndefined();
    expect(await compressWithHoles(holedPage(), [24, 65_537])).toBeUndefined();
    // A hole the page does not have needs no length.
    expect(await compressWithHoles([Buffer.from("<p>"), 0, Buffer.from("</p>")], [24, 0])).toBeDefined();
  });

  it("goes to the requests the site's compression answers in brotli, and only those", () => {
    expect(answersInBrotli("gzip, deflate, br")).toBe(true);
    expect(answersInBrotli("br")).toBe(true);
    expect(answersInBrotli("gzip, deflate")).toBe(false);
    expect(answersInBrotli("gzip, br;q=0")).toBe(false);
    expect(answersInBrotli("br;q=0.5, gzip")).toBe(false);
    expect(answersInBrotli(null)).toBe(false);
  });
});
