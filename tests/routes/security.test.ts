import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCookie } from "@remix-run/node";
import { cookiesFrom, startServer, TEST_SECRET } from "../support/app";

describe("security headers and caching", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer({ APP_ENV: "production", TRUST_PROXY: "true" });
  });
  afterAll(() => server.close());

  it("every page carries a CSP whose nonce is on every script, and no unsafe-inline script", async () => {
    const response = await fetch(server.url("/"));
    const csp = response.headers.get("content-security-policy") ?? "";
    const html = await response.text();
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("a fresh nonce for every response", async () => {
    const nonces = await Promise.all(
      [1, 2].map(async () => (await fetch(server.url("/"))).headers.get("content-security-policy")),
    );
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("HSTS only when the request came over https", async () => {
    expect((await fetch(server.url("/"))).headers.get("strict-transport-security")).toBeNull();
    const https = await fetch(server.url("/"), { headers: { "X-Forwarded-Proto": "https" } });
    expect(https.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
  });

  it("production cookies are Secure, HttpOnly, SameSite=Lax and __Host- prefixed", async () => {
    const cookies = (await fetch(server.url("/"))).headers.getSetCookie();
    const session = cookies.find((cookie) => cookie.startsWith("__Host-session="));
    const csrf = cookies.find((cookie) => cookie.startsWith("__Host-csrf="));
    for (const cookie of [session, csrf]) {
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).not.toMatch(/Domain=/i);
    }
  });

  it("checkout pages are never cached", async () => {
    const response = await fetch(server.url("/checkout/payment"));
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("fingerprinted assets are cached for a year; other public files briefly", async () => {
    const html = await (await fetch(server.url("/"))).text();
    const asset = /href="(\/build\/[^"]+\.css)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const cached = await fetch(server.url(asset!));
    expect(cached.status).toBe(200);
    expect(cached.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const logo = await fetch(server.url("/logos/default.svg"));
    expect(logo.headers.get("cache-control")).toBe("public, max-age=3600");
  });

  it("compresses pages with brotli or gzip as the client accepts", async () => {
    const br = await fetch(server.url("/"), { headers: { "Accept-Encoding": "br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    const gzip = await fetch(server.url("/"), { headers: { "Accept-Encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
  });

  it("translation files: a year's cache for the current version only", async () => {
    const html = await (await fetch(server.url("/"))).text();
    const version = /"LOCALES_VERSION":"([^"]+)"/.exec(html)?.[1];
    const current = await fetch(server.url(`/locales/en-GB/common.json?v=${version}`));
    expect(current.status).toBe(200);
    expect(current.headers.get("cache-control")).toContain("immutable");
    expect((await current.json()).errors.notFound.title).toBe("Page not found");
    const stale = await fetch(server.url("/locales/en-GB/common.json?v=old"));
    expect(stale.headers.get("cache-control")).toBe("public, max-age=60");
  });

  it("health and readiness answer without a session", async () => {
    const health = await fetch(server.url("/healthz"));
    expect(health.status).toBe(200);
    expect(health.headers.get("set-cookie")).toBeNull();
    expect((await fetch(server.url("/readyz"))).status).toBe(200);
  });

  it("the environment block carries no secret and no service address", async () => {
    const html = await (await fetch(server.url("/"))).text();
    const block = /window\.ENV = (\{.*?\});/.exec(html)?.[1] ?? "";
    expect(JSON.parse(block)).toMatchObject({ APP_ENV: "production", ROUTING_TYPE: "DEFAULT", THEME: "default" });
    expect(block).not.toContain("test-secret");
    expect(block).not.toMatch(/_URL":"http/);
  });
});

describe("CSRF", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  // The token a page's forms carry is the one the buyer's signed CSRF cookie holds.
  const csrfCookie = createCookie("csrf", { secrets: [TEST_SECRET] });
  async function tokenAndCookies() {
    const page = await fetch(server.url("/membership"));
    await page.arrayBuffer();
    const cookie = cookiesFrom(page);
    const token = (await csrfCookie.parse(cookie)) as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    return { token, cookie };
  }

  it("a POST without a token is refused with 403 and a page that says what to do", async () => {
    const response = await fetch(server.url("/membership"), {
      method: "POST",
      body: new URLSearchParams({ intent: "join" }),
    });
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(html).toContain("This form has expired");
    expect(html).toContain("Go back, reload the page and try again.");
  });

  it("a POST with another buyer's token is refused", async () => {
    const mine = await tokenAndCookies();
    const theirs = await tokenAndCookies();
    const response = await fetch(server.url("/membership"), {
      method: "POST",
      headers: { Cookie: mine.cookie },
      body: new URLSearchParams({ csrf: theirs.token }),
    });
    expect(response.status).toBe(403);
  });

  it("a POST that is not a form at all is refused, not a 500", async () => {
    const { cookie } = await tokenAndCookies();
    const response = await fetch(server.url("/membership"), {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(403);
  });

  it("a POST with the buyer's own token passes the check (and this page has no action: 405)", async () => {
    const { token, cookie } = await tokenAndCookies();
    const response = await fetch(server.url("/legal/privacy-policy"), {
      method: "POST",
      headers: { Cookie: cookie },
      body: new URLSearchParams({ csrf: token }),
    });
    expect(response.status).toBe(405);
  });
});
