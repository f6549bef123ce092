// The server's render (app/entry.server.tsx, docs/rendering.md): a page is written whole, the same
// for a crawler and a browser, a valid document, and compressed as the site's compression does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";

describe("rendering a page on the server", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("sends a crawler and a browser the same whole page, the data Remix hands the browser in one script", async () => {
    const page = async (userAgent: string) => {
      const response = await fetch(server.url("/account/sign-in"), { headers: { "user-agent": userAgent } });
      expect(response.status).toBe(200);
      return response.text();
    };
    const crawler = await page("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)");
    const browser = await page("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0");
    for (const html of [crawler, browser]) {
      expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
      expect(html.trimEnd().endsWith("</body></html>")).toBe(true);
      // No Suspense boundary waits for the data's next chunk (decision 0036): one script holds it
      // all, and the next closes the stream.
      expect(html).not.toContain('<template id="B:');
      expect(html).not.toContain("$RC(");
      const scripts = [...html.matchAll(/streamController\.enqueue\(("(?:[^"\\]|\\.)*")\);/g)];
      expect(scripts).toHaveLength(1);
      const data = JSON.parse(scripts[0]![1]!) as string;
      expect(data).toContain('"loaderData"');
      expect(data).toContain('"root"');
      expect(html.indexOf("streamController.close()")).toBeGreaterThan(scripts[0]!.index!);
    }
    const steady = (html: string) =>
      html
        .replace(/nonce="[^"]*"/g, "")
        .replace(/[A-Za-z0-9_-]{40,}/g, "")
        .replace(/"_\d+":\d+/g, "");
    expect(steady(crawler)).toBe(steady(browser));
  });

  it("compresses a page in one call as the site's compression would, brotli for browsers and gzip for text browsers", async () => {
    const plain = await fetch(server.url("/account/sign-in"), { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const words = (html: string) => html.replace(/nonce="[^"]*"/g, "").replace(/[A-Za-z0-9_-]{40,}/g, "");
    const expected = words(await plain.text());
    for (const [asked, encoding] of [
      ["gzip, deflate, br", "br"],
      ["gzip, compress", "gzip"],
    ] as const) {
      // fetch decodes the body and leaves the header as it came.
      const response = await fetch(server.url("/account/sign-in"), { headers: { "accept-encoding": asked } });
      expect(response.headers.get("content-encoding")).toBe(encoding);
      expect(response.headers.get("vary")).toMatch(/accept-encoding/i);
      expect(words(await response.text())).toBe(expected);
    }
  });
});
