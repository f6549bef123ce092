// The server's render through the patched @remix-run/react and react-router-dom (patches/,
// decision 0025): RemixServer builds its routes once, not on every request, and the static router
// keeps the data routes it makes of them, so the router's kept branches serve every render. Fails
// without the patches: each render would hand the static router a new array, and get new data routes.
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";

const require = createRequire(import.meta.url);
type CreateStaticRouter = (routes: unknown[], ...rest: unknown[]) => { routes: unknown[] };
const staticRouterModule = require("react-router-dom/server") as { createStaticRouter: CreateStaticRouter };

describe("rendering a page on the server", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  const seen: { routes: unknown[]; dataRoutes: unknown[] }[] = [];
  const original = staticRouterModule.createStaticRouter;
  beforeAll(async () => {
    // RemixServer reads the module's export each render: a wrapper here sees what it is handed.
    staticRouterModule.createStaticRouter = (routes, ...rest) => {
      const router = original(routes, ...rest);
      seen.push({ routes, dataRoutes: router.routes });
      return router;
    };
    server = await startServer();
  });
  afterAll(async () => {
    staticRouterModule.createStaticRouter = original;
    await server.close();
  });

  it("builds the routes once: every render hands the static router the same array and gets the same data routes", async () => {
    const pages = [];
    // The sign-in page is written afresh for every request: the legal pages are kept as written
    // (decision 0033), and one asked for again would not be rendered again.
    for (const path of ["/account/sign-in", "/legal/cookie-policy", "/account/sign-in"]) {
      const response = await fetch(server.url(path));
      expect(response.status).toBe(200);
      pages.push(await response.text());
    }
    expect(seen).toHaveLength(3);
    expect(seen[1]!.routes).toBe(seen[0]!.routes);
    expect(seen[2]!.routes).toBe(seen[0]!.routes);
    expect(seen[1]!.dataRoutes).toBe(seen[0]!.dataRoutes);
    // The same page twice renders the same (but for each response's own nonce and CSRF token).
    const steady = (html: string) =>
      html
        .replace(/nonce="[^"]*"/g, "")
        .replace(/value="[A-Za-z0-9_-]{40,}"/g, "")
        .replace(/\\"csrf\\",\\"[A-Za-z0-9_-]{40,}\\"/g, "");
    expect(steady(pages[2]!)).toBe(steady(pages[0]!));
    expect(pages[1]).toContain("Cookie policy");
    // The route modules' script is kept per manifest and routes (patches/@remix-run+react): each
    // page still names its own routes, the first time and the next.
    const modules = (html: string) => /window\.__remixRouteModules = (\{[^}]*\})/.exec(html)?.[1];
    expect(modules(pages[0]!)).toBe('{"root":route0,"account/sign-in":route1}');
    expect(modules(pages[1]!)).toBe('{"root":route0,"legal":route1}');
    expect(modules(pages[2]!)).toBe(modules(pages[0]!));
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
      html.replace(/nonce="[^"]*"/g, "").replace(/[A-Za-z0-9_-]{40,}/g, "").replace(/"_\d+":\d+/g, "");
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
