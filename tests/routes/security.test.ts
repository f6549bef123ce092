import { randomBytes } from "node:crypto";
import { Agent, request as httpRequest } from "node:http";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCookie as remixCookie } from "@remix-run/node";
import { FORM_BODY_LIMIT } from "~/web/build.server";
import { createCookie } from "~/web/cookies.server";
import { maskCsrfToken } from "~/web/csrf.server";
import { cookiesFrom, logLines, startServer, TEST_SECRET, testServices } from "../support/app";
import { buyerBrowser } from "../support/browser";
import { registerByEmail } from "../support/outbox";
import { seedSmall } from "../support/seed";

/** The CSRF token in the page's forms' hidden field. */
function pageToken(html: string): string {
  const token = /<input[^>]* name="csrf" value="([^"]*)"/.exec(html)?.[1];
  if (token === undefined) throw new Error("the page has no CSRF field");
  return token;
}

describe("security headers and caching", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer({ APP_ENV: "production", TRUST_PROXY: "loopback" });
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

  // Issue 39: the sandbox's dashboard lists every buyer's order, card brand and last four digits.
  // In development and test it is the tester's (tests/routes/checkout.test.ts reads it there).
  it("the payment sandbox's dashboard is not there in production, even with the sandbox taking payments", async () => {
    expect(server.services.config.paymentProvider).toBe("sandbox");
    const response = await fetch(server.url("/sandbox/payments"));
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("Sandbox");
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

  // Issue 53: the account's pages and the e-tickets were sent with no Cache-Control at all.
  it("pages that hold one person's details, and their data, are never cached; public pages may be", async () => {
    const key = "a".repeat(32);
    for (const path of [
      "/checkout/payment",
      "/checkout/confirmation",
      "/account",
      "/account/details",
      "/account/sign-in",
      "/account/register",
      "/account/forgotten-password",
      "/account/reset-password/not-a-token",
      "/account/sign-out",
      "/account.data",
      `/e-tickets/${key}`,
      `/e-tickets/${key}.data`,
      "/membership",
    ]) {
      const response = await fetch(server.url(path), { redirect: "manual" });
      await response.arrayBuffer();
      expect(response.headers.get("cache-control"), path).toBe("no-store");
    }
    for (const path of ["/", "/legal/terms-of-use", "/accounting-is-no-account-page"]) {
      const response = await fetch(server.url(path), { redirect: "manual" });
      await response.arrayBuffer();
      expect(response.headers.get("cache-control"), path).not.toBe("no-store");
    }
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

  it("answers a page's data (Remix's .data) from its route, without looking for it on disk", async () => {
    const stat = vi.spyOn(fs, "stat");
    try {
      const data = await fetch(server.url("/legal/terms-of-use.data"));
      expect(data.status).toBe(200);
      expect(data.headers.get("content-type")).toContain("text/x-script");
      expect(stat).not.toHaveBeenCalled();
      // A public file is still looked for, and found.
      expect((await fetch(server.url("/logos/default.svg"))).status).toBe(200);
      expect(stat).toHaveBeenCalled();
    } finally {
      stat.mockRestore();
    }
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

  // The token a page's forms carry: the one the buyer's signed CSRF cookie holds, masked for this page.
  async function tokenAndCookies(cookie?: string) {
    const page = await fetch(server.url("/account/sign-in"), { headers: cookie ? { Cookie: cookie } : {} });
    const token = pageToken(await page.text());
    expect(token).toMatch(/^[A-Za-z0-9_-]{86}$/);
    return { token, cookie: cookie ?? cookiesFrom(page) };
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

  it("each page carries the buyer's token masked afresh, each passes, and the token as the cookie holds it does not", async () => {
    const first = await tokenAndCookies();
    const second = await tokenAndCookies(first.cookie);
    expect(second.token).not.toBe(first.token);
    const held = (await createCookie("csrf", { secrets: [TEST_SECRET] }).parse(first.cookie)) as string;
    expect(held).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const [token, status] of [
      [first.token, 405],
      [second.token, 405],
      [held, 403],
    ] as const) {
      const response = await fetch(server.url("/legal/privacy-policy"), {
        method: "POST",
        headers: { Cookie: first.cookie },
        body: new URLSearchParams({ csrf: token }),
      });
      expect(response.status).toBe(status);
    }
  });

  it("a form sent with a CSRF cookie signed before issue 37 has expired, and reloading its page mends it", async () => {
    const token = randomBytes(32);
    const signedTheOldWay = await remixCookie("csrf", { secrets: [TEST_SECRET] }).serialize(
      token.toString("base64url"),
    );
    const oldCookie = signedTheOldWay.split(";")[0]!;
    const refused = await fetch(server.url("/legal/privacy-policy"), {
      method: "POST",
      headers: { Cookie: oldCookie },
      body: new URLSearchParams({ csrf: maskCsrfToken(token) }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("This form has expired");
    const reloaded = await fetch(server.url("/account/sign-in"), { headers: { Cookie: oldCookie } });
    const renewed = cookiesFrom(reloaded);
    expect(renewed).toMatch(/(^|; )csrf=/);
    const response = await fetch(server.url("/legal/privacy-policy"), {
      method: "POST",
      headers: { Cookie: renewed },
      body: new URLSearchParams({ csrf: pageToken(await reloaded.text()) }),
    });
    expect(response.status).toBe(405);
  });
});

describe("return paths", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const JO = { firstName: "Jo", lastName: "Bloggs", email: "jo@example.com", password: "correct horse battery" };
  let registered = false;
  async function signedIn() {
    const buyer = buyerBrowser(server.url);
    if (!registered) {
      const { password, ...details } = JO;
      await registerByEmail(buyer, server.services, details, password);
      registered = true;
    } else {
      expect((await buyer.post("/account/sign-in", { email: JO.email, password: JO.password })).status).toBe(303);
    }
    return buyer;
  }

  // A tab after the slash is dropped by the browser's URL parser: `/\t/evil.example/` is `//evil.example/`.
  it("signing in with a tab after the slash stays on the site", async () => {
    await signedIn();
    const buyer = buyerBrowser(server.url);
    const response = await buyer.post("/account/sign-in", { ...JO, redirectTo: "/\t/evil.example/" });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/account");
    const already = await buyer.get("/account/sign-in?redirectTo=/%09/evil.example/");
    expect(already.status).toBe(303);
    expect(already.headers.get("Location")).toBe("/account");
  });

  it("a redirectTo with characters outside Latin-1 is sent on percent-encoded, not a 500", async () => {
    const buyer = await signedIn();
    const response = await buyer.get("/account/sign-in?redirectTo=/%E3%80%80/x");
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/%E3%80%80/x");
    const other = buyerBrowser(server.url);
    const posted = await other.post("/account/sign-in", { ...JO, redirectTo: "/\u3000/x" });
    expect(posted.status).toBe(303);
    expect(posted.headers.get("Location")).toBe("/%E3%80%80/x");
  });

  it("registering and the hold's actions go through the same check", async () => {
    const newcomer = buyerBrowser(server.url);
    const { password, ...details } = JO;
    // The return path is kept with the emailed link, and checked before it is.
    const made = await registerByEmail(
      newcomer,
      server.services,
      { ...details, email: "sam@example.com" },
      password,
      "/\t/evil.example/",
    );
    expect(made.headers.get("Location")).toBe("/account?account=created");
    const buyer = buyerBrowser(server.url);
    for (const [returnTo, expected] of [
      ["/\t/evil.example/", "/"],
      ["/.//evil.example/", "/"],
      ["/\u3000/x", "/%E3%80%80/x"],
    ]) {
      const response = await buyer.post("/checkout/hold", { intent: "acknowledge-prices", returnTo: returnTo! });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(expected);
    }
  });
});

describe("forms from another site", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  const log = logLines("info");
  beforeAll(async () => {
    server = await startServer({}, { logger: log.logger });
  });
  afterAll(() => server.close());

  // What a browser sends with a form on another site's page: that site as the Origin.
  it("are refused with 403 and a page that says what happened, logged as a warning, never a 500", async () => {
    const buyer = buyerBrowser(server.url);
    await (await buyer.get("/membership")).arrayBuffer();
    log.lines.length = 0;
    const response = await fetch(server.url("/membership"), {
      method: "POST",
      headers: { Origin: "https://evil.example", Cookie: [...buyer.cookies].map((pair) => pair.join("=")).join("; ") },
      body: new URLSearchParams({ intent: "join" }),
    });
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(html).toContain("This form came from another site");
    expect(html).toContain("we only accept forms sent from pages on this site");
    const warning = log.lines.find((line) => line.msg.startsWith("form from another site refused"));
    expect(warning).toMatchObject({ level: "warn", origin: "https://evil.example", path: "/membership" });
    expect(log.lines.filter((line) => line.level === "error")).toEqual([]);
  });

  it("an opaque or malformed Origin is refused the same way", async () => {
    for (const origin of ["null", "not a url"]) {
      const response = await fetch(server.url("/membership"), {
        method: "POST",
        headers: { Origin: origin },
        body: new URLSearchParams({ intent: "join" }),
      });
      expect(response.status).toBe(403);
      expect(await response.text()).toContain("This form came from another site");
    }
  });

  it("a form from this site's own pages still goes through", async () => {
    const buyer = buyerBrowser(server.url);
    const token = pageToken(await (await buyer.get("/account/sign-in")).text());
    const response = await fetch(server.url("/legal/privacy-policy"), {
      method: "POST",
      headers: {
        Origin: new URL(server.url("/")).origin,
        Cookie: [...buyer.cookies].map((pair) => pair.join("=")).join("; "),
      },
      body: new URLSearchParams({ csrf: token }),
    });
    // Past both checks: this page has no action.
    expect(response.status).toBe(405);
  });
});

describe("form body limit", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall });
  });
  afterAll(() => server.close());

  const TEN_MB = 10 * 1024 * 1024;
  const form = { "Content-Type": "application/x-www-form-urlencoded" };

  async function expectTooLarge(response: Response) {
    expect(response.status).toBe(413);
    const html = await response.text();
    expect(html).toContain("This form is too large");
    expect(html).toContain("Go back, reload the page and try again.");
  }

  it("a 10 MB form is answered 413 with a page, at once, from its Content-Length", async () => {
    const started = Date.now();
    const response = await fetch(server.url("/membership"), {
      method: "POST",
      headers: form,
      body: new Uint8Array(TEN_MB).fill(97),
    });
    await expectTooLarge(response);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("a chunked body without a Content-Length is counted as it arrives, and refused past the limit", async () => {
    // Far more than the connection's buffers hold: answered before the end means it was not awaited.
    const HUNDRED_MB = 100 * 1024 * 1024;
    let sent = 0;
    let answered = false;
    const megabyte = new Uint8Array(1024 * 1024).fill(97);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (answered || sent >= HUNDRED_MB) return controller.close();
        sent += megabyte.byteLength;
        controller.enqueue(megabyte);
      },
    });
    const response = await fetch(server.url("/membership"), {
      method: "POST",
      headers: form,
      body,
      duplex: "half",
    } as RequestInit);
    answered = true;
    expect(sent).toBeLessThan(HUNDRED_MB);
    await expectTooLarge(response);
  });

  it("after refusing a body unread, the same connection serves the next request", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, body?: Uint8Array) =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const request = httpRequest(server.url("/membership"), { method, agent, headers: form }, (response) => {
          response.resume();
          response.on("end", () => resolve({ status: response.statusCode!, socket: request.socket }));
        });
        request.setTimeout(5000, () => request.destroy(new Error("no answer on the reused connection")));
        request.on("error", reject);
        request.end(body);
      });
    try {
      const refused = await send("POST", new Uint8Array(TEN_MB).fill(97));
      expect(refused.status).toBe(413);
      const next = await send("GET");
      expect(next.status).toBe(200);
      expect(next.socket).toBe(refused.socket);
    } finally {
      agent.destroy();
    }
  });

  it("the largest real form, every seat of the map ticked, is well within the limit", async () => {
    const db = server.services.store.db;
    const performance = await db.selectFrom("performances").select("id").orderBy("starts_at").executeTakeFirstOrThrow();
    const seatIds = (await db.selectFrom("seats").select("id").execute()).map((row) => String(row.id));
    // As many seats as the largest demo venue has (2,341), with ids as long as this store's.
    const fields: [string, string][] = [["intent", "select"]];
    for (let i = 0; i < 2341; i++) fields.push(["seat", seatIds[i % seatIds.length]!]);
    const size = new URLSearchParams(fields).toString().length;
    expect(size).toBeLessThan(FORM_BODY_LIMIT / 2);
    const buyer = buyerBrowser(server.url);
    const response = await buyer.post(`/shows/test-show/test-hall/tickets/${performance.id}`, fields);
    // Read and answered by the page (too many seats for one order), not refused unread.
    expect(response.status).toBe(409);
  });
});

describe("the payment sandbox in production", () => {
  // Issue 39: allowed only when the operator says so (SANDBOX_IN_PRODUCTION=yes, as the test
  // settings do), and then the log says at every start that no real money is charged.
  it("says at start that it takes no real money", async () => {
    const { logger, lines } = logLines("warn");
    const services = await testServices({ APP_ENV: "production" }, undefined, logger);
    try {
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: "warn",
          paymentProvider: "sandbox",
          msg: expect.stringMatching(/no real money/),
        }),
      );
    } finally {
      await services.close();
    }
  });
});

describe("an unbranded production site", () => {
  // Issue 40: the demonstration's name and number (020 7946 0000 reaches nobody) are never shown
  // in production unnoticed: every start names the variables to set (decision 0043).
  it("names BRAND_NAME and BRAND_PHONE at start, and says nothing once they are set", async () => {
    const unbranded = logLines("warn");
    const services = await testServices({ APP_ENV: "production" }, undefined, unbranded.logger);
    await services.close();
    expect(unbranded.lines).toContainEqual(
      expect.objectContaining({ level: "warn", unset: ["BRAND_NAME", "BRAND_PHONE"] }),
    );

    const branded = logLines("warn");
    const again = await testServices(
      { APP_ENV: "production", BRAND_NAME: "Riverside Tickets", BRAND_PHONE: "0117 496 0000" },
      undefined,
      branded.logger,
    );
    await again.close();
    expect(branded.lines.filter((line) => "unset" in line)).toEqual([]);
  });
});
