import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { cutSecrets, keptPages, withSecrets, type Served } from "~/web/kept-pages.server";

const NONCE = "ZFM3JAuSgG0kQr2Cs/RaRg==";
const CSRF = "SaZDiel6ddkU3nrNz9cvqDGKUSDGRHGiBQWzM1W13_o";
const text = (served: Served | Buffer[] | undefined) => {
  const chunks = Array.isArray(served) ? served : served?.chunks;
  return chunks ? Buffer.concat(chunks).toString() : undefined;
};
const page = (nonce: string, csrf: string) =>
  `<script nonce="${nonce}">a</script><input name="csrf" value="${csrf}"/>` +
  `<script nonce="${nonce}">enqueue("[\\"csrf\\",\\"${csrf}\\"]")</script>`;

describe("pages kept as written", () => {
  it("cuts each response's nonce and CSRF token out, and puts another response's in their place", () => {
    const parts = cutSecrets(Buffer.from(page(NONCE, CSRF)), { nonce: NONCE, csrf: CSRF });
    expect(parts.filter((part) => part === 0)).toHaveLength(2);
    expect(parts.filter((part) => part === 1)).toHaveLength(2);
    const other = { nonce: "bm90LXRoZS1zYW1lLW5vbmNl", csrf: "x".repeat(43) };
    expect(Buffer.concat(withSecrets(parts, other)).toString()).toBe(page(other.nonce, other.csrf));
    expect(Buffer.concat(withSecrets(parts, other)).toString()).not.toContain(NONCE);
  });

  it("keeps a page for a visitor without a CSRF token, and cuts no short token out", () => {
    const html = Buffer.from(`<p>ab</p><script nonce="${NONCE}"></script>`);
    expect(
      Buffer.concat(
        withSecrets(cutSecrets(html, { nonce: NONCE, csrf: undefined }), { nonce: "n2", csrf: undefined }),
      ).toString(),
    ).toBe(`<p>ab</p><script nonce="n2"></script>`);
    // "ab" is no token the site makes: the page around it is not cut there.
    expect(cutSecrets(html, { nonce: NONCE, csrf: "ab" }).filter((part) => part === 1)).toHaveLength(0);
  });

  it("serves only the page written from the same key, with the new response's secrets", () => {
    const pages = keptPages(10_000);
    pages.keep("/a", [Buffer.from(page(NONCE, CSRF))], { nonce: NONCE, csrf: CSRF });
    expect(pages.serve("/b", { nonce: "n", csrf: CSRF })).toBeUndefined();
    const again = { nonce: "YW5vdGhlci1ub25jZQ==", csrf: "y".repeat(43) };
    expect(text(pages.serve("/a", again))).toBe(page(again.nonce, again.csrf));
  });

  it("holds no more than its bytes, dropping the page least recently served first", () => {
    const html = (fill: string) => Buffer.from(fill.repeat(300));
    const secrets = { nonce: NONCE, csrf: CSRF };
    const pages = keptPages(1_000);
    pages.keep("a", [html("a")], secrets);
    pages.keep("b", [html("b")], secrets);
    pages.keep("c", [html("c")], secrets);
    expect(pages.size).toBe(3);
    // "a" served again is the most recent; "b" is then the oldest, and goes for "d".
    expect(text(pages.serve("a", secrets))).toBe("a".repeat(300));
    pages.keep("d", [html("d")], secrets);
    expect(pages.size).toBe(3);
    expect(pages.serve("b", secrets)).toBeUndefined();
    expect(pages.serve("a", secrets)).toBeDefined();
    // A page bigger than the whole allowance is not kept (and drops nothing).
    pages.keep("huge", [html("h".repeat(4))], secrets);
    expect(pages.serve("huge", secrets)).toBeUndefined();
    expect(pages.size).toBe(3);
  });

  it("sends a long stretch of the page as kept, and joins the short ones with the secrets", () => {
    const rows = "<li>seat</li>".repeat(2_000);
    const html = Buffer.from(`<script nonce="${NONCE}"></script>${rows}<input value="${CSRF}"/><p>end</p>`);
    const parts = cutSecrets(html, { nonce: NONCE, csrf: CSRF });
    const chunks = withSecrets(parts, { nonce: "bm9uY2UtdHdv", csrf: "z".repeat(43) });
    expect(chunks.map(String)).toEqual([
      '<script nonce="bm9uY2UtdHdv',
      `"></script>${rows}<input value="`,
      `${"z".repeat(43)}"/><p>end</p>`,
    ]);
    // The long stretch is the kept bytes themselves, not a copy.
    expect(chunks[1]).toBe(parts.find((part) => typeof part !== "number" && part.length > 16 * 1024));
  });

  it("keeps its own copy of the page: the response's buffer may be reused", () => {
    const pages = keptPages(10_000);
    const html = Buffer.from(page(NONCE, CSRF));
    pages.keep("k", [html], { nonce: NONCE, csrf: CSRF });
    html.fill(0);
    expect(text(pages.serve("k", { nonce: NONCE, csrf: CSRF }))).toBe(page(NONCE, CSRF));
  });

  it("sends a page served again in brotli once it has compressed it, each response's secrets in place", async () => {
    const pages = keptPages(100_000);
    const html = (nonce: string, csrf: string) => `${page(nonce, csrf)}${"<p>the same seat map</p>".repeat(200)}`;
    pages.keep("k", [Buffer.from(html(NONCE, CSRF))], { nonce: NONCE, csrf: CSRF });
    // The first time it is served again it is sent as it is, and compressed for the next.
    const second = { nonce: "c2Vjb25kLXJlc3BvbnNlLW4=", csrf: "s".repeat(43) };
    expect(pages.serve("k", second, "br")).toEqual({ chunks: expect.any(Array) });
    await pages.compressed();
    const third = { nonce: "dGhpcmQtcmVzcG9uc2Utbm8=", csrf: "t".repeat(43) };
    const served = pages.serve("k", third, "br")!;
    expect(served.encoding).toBe("br");
    expect(brotliDecompressSync(Buffer.concat(served.chunks)).toString()).toBe(html(third.nonce, third.csrf));
    // Not to a request that does not take brotli, nor with a token its holes do not fit.
    expect(text(pages.serve("k", third))).toBe(html(third.nonce, third.csrf));
    const shorter = { nonce: third.nonce, csrf: "u".repeat(20) };
    expect(pages.serve("k", shorter, "br")).toEqual({ chunks: expect.any(Array) });
    expect(text(pages.serve("k", shorter, "br"))).toBe(html(shorter.nonce, shorter.csrf));
  });

  it("waits for a response with a token to compress a page that has one, and needs none for a page without", async () => {
    const pages = keptPages(100_000);
    const withToken = `${page(NONCE, CSRF)}${"<p>rows</p>".repeat(200)}`;
    pages.keep("token", [Buffer.from(withToken)], { nonce: NONCE, csrf: CSRF });
    const tokenless = { nonce: "bm8tdG9rZW4tbm9uY2UtMDE=", csrf: undefined };
    pages.serve("token", tokenless, "br");
    pages.serve("token", tokenless, "br");
    await pages.compressed();
    // No hole was made 0 bytes long: the next response with a token starts the compression.
    const tokened = { nonce: "dG9rZW4tYmVhcmluZy1uMDE=", csrf: "v".repeat(43) };
    expect(pages.serve("token", tokened, "br")?.encoding).toBeUndefined();
    await pages.compressed();
    expect(pages.serve("token", tokened, "br")?.encoding).toBe("br");

    const plain = `<script nonce="${NONCE}"></script>${"<p>no form here</p>".repeat(200)}`;
    pages.keep("plain", [Buffer.from(plain)], { nonce: NONCE, csrf: undefined });
    pages.serve("plain", tokenless, "br");
    await pages.compressed();
    const served = pages.serve("plain", { nonce: tokened.nonce, csrf: "w".repeat(43) }, "br")!;
    expect(served.encoding).toBe("br");
    expect(brotliDecompressSync(Buffer.concat(served.chunks)).toString()).toBe(plain.replace(NONCE, tokened.nonce));
  });

  it("compresses a page in gzip too, for browsers without brotli, each encoding once", async () => {
    const pages = keptPages(100_000);
    const html = (nonce: string, csrf: string) => `${page(nonce, csrf)}${"<p>the same seat map</p>".repeat(200)}`;
    pages.keep("k", [Buffer.from(html(NONCE, CSRF))], { nonce: NONCE, csrf: CSRF });
    const next = { nonce: "bmV4dC1yZXNwb25zZS1uMDE=", csrf: "n".repeat(43) };
    pages.serve("k", next, "br");
    await pages.compressed();
    expect(pages.serve("k", next, "br")?.encoding).toBe("br");
    // Brotli's compression is not gzip's: the first gzip request starts its own.
    expect(pages.serve("k", next, "gzip")?.encoding).toBeUndefined();
    await pages.compressed();
    const served = pages.serve("k", next, "gzip")!;
    expect(served.encoding).toBe("gzip");
    expect(gunzipSync(Buffer.concat(served.chunks)).toString()).toBe(html(next.nonce, next.csrf));
  });
});
