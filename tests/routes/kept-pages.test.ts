// Pages the server keeps as written (app/web/kept-pages.server.ts, decision 0033), asked for as a
// browser asks: the same page again is not rendered again, yet every response carries its own
// nonce and CSRF token, a change in what the page shows is written afresh at once, and a buyer's
// own checkout pages are never kept.
import { get } from "node:http";
import { createRequire } from "node:module";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unmaskCsrfToken } from "~/web/csrf.server";
import { startServer } from "../support/app";
import { buyerBrowser } from "../support/browser";
import { seedSmall } from "../support/seed";

const require = createRequire(import.meta.url);
type CreateStaticRouter = (routes: unknown[], ...rest: unknown[]) => unknown;
const staticRouterModule = require("react-router-dom/server") as { createStaticRouter: CreateStaticRouter };

/** The nonce the response's CSP allows. */
const nonceOf = (csp: unknown) => /'nonce-([^']+)'/.exec(String(csp))![1]!;

/**
 * The response's nonce, and the CSRF value its page carries (the root's data): the token its
 * cookie holds, masked for this response alone (app/web/csrf.server.ts).
 */
function secretsOf(response: Response, html: string) {
  const csrf = /\\"csrf\\",\\"([A-Za-z0-9_-]+)\\"/.exec(html)![1]!;
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith("csrf="));
  const signed = decodeURIComponent(cookie!.split(";")[0]!.slice("csrf=".length));
  const token = JSON.parse(Buffer.from(signed.slice(0, signed.lastIndexOf(".")), "base64").toString()) as string;
  expect(unmaskCsrfToken(csrf)?.toString("base64url")).toBe(token);
  return { nonce: nonceOf(response.headers.get("Content-Security-Policy")), csrf };
}

describe("pages kept as written", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let renders = 0;
  const original = staticRouterModule.createStaticRouter;
  beforeAll(async () => {
    // Every render of a page makes one static router: counting them counts the renders.
    staticRouterModule.createStaticRouter = (...args) => {
      renders += 1;
      return original(...args);
    };
    server = await startServer({}, { seed: seedSmall });
  });
  afterAll(async () => {
    staticRouterModule.createStaticRouter = original;
    await server.close();
  });

  const visit = async (path: string, cookie = "") => {
    const response = await fetch(server.url(path), { headers: cookie ? { cookie } : {} });
    expect(response.status).toBe(200);
    return { response, html: await response.text() };
  };

  /** The response's bytes as sent, not decoded as fetch would. */
  const sent = (path: string, acceptEncoding: string) =>
    new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      get(server.url(path), { headers: { "accept-encoding": acceptEncoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      }).on("error", reject);
    });
  const sentSecrets = (headers: Record<string, string | string[] | undefined>, html: string) =>
    secretsOf(
      new Response(null, {
        headers: [
          ["Content-Security-Policy", String(headers["content-security-policy"])],
          ...((headers["set-cookie"] ?? []) as string[]).map((cookie): [string, string] => ["Set-Cookie", cookie]),
        ],
      }),
      html,
    );

  /** The seat map of the first performance on sale. */
  const ticketsPage = async () => {
    const performance = await server.services.store.db
      .selectFrom("performances")
      .select("id")
      .where("presale_from", "is", null)
      .orderBy("starts_at")
      .executeTakeFirstOrThrow();
    return `/shows/test-show/test-hall/tickets/${performance.id}`;
  };

  it("serves a page asked for again as written, with each response's own nonce and CSRF token", async () => {
    const before = renders;
    const first = await visit("/shows/test-show/test-hall");
    const second = await visit("/shows/test-show/test-hall");
    expect(renders - before).toBe(1);

    const [mine, theirs] = [secretsOf(first.response, first.html), secretsOf(second.response, second.html)];
    expect(theirs.nonce).not.toBe(mine.nonce);
    expect(theirs.csrf).not.toBe(mine.csrf);
    const scripts = second.html.match(/<script[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(2);
    for (const script of scripts) expect(script).toContain(`nonce="${theirs.nonce}"`);
    expect(second.html).toContain(theirs.csrf);
    expect(second.html).not.toContain(mine.nonce);
    expect(second.html).not.toContain(mine.csrf);
    // Apart from the secrets, the same page.
    expect(second.html.replaceAll(theirs.nonce, "N").replaceAll(theirs.csrf, "C")).toBe(
      first.html.replaceAll(mine.nonce, "N").replaceAll(mine.csrf, "C"),
    );
  });

  it("writes a page afresh when what it shows has changed: a seat another buyer holds is taken at once", async () => {
    const tickets = await ticketsPage();
    const seat = await server.services.store.db
      .selectFrom("seats")
      .select("id")
      .where("row_name", "=", "A")
      .where("label", "=", "5")
      .executeTakeFirstOrThrow();
    const offered = new RegExp(`<input[^>]*name="seat"[^>]*value="${seat.id}"`);

    const before = renders;
    expect((await visit(tickets)).html).toMatch(offered);
    expect((await visit(tickets)).html).toMatch(offered);
    expect(renders - before).toBe(1);

    const buyer = buyerBrowser(server.url);
    const held = await buyer.post(tickets, [
      ["intent", "select"],
      ["seat", String(seat.id)],
    ]);
    expect(held.status).toBe(302);
    const rendersBefore = renders;
    expect((await visit(tickets)).html).not.toMatch(offered);
    expect(renders - rendersBefore).toBe(1);
  });

  it("does not keep a buyer's own checkout page", async () => {
    const buyer = buyerBrowser(server.url);
    const tickets = await ticketsPage();
    const held = await buyer.post(tickets, [
      ["intent", "best"],
      ["quantity", "1"],
    ]);
    // Where the buyer's seats are shown with the hold's clock: their own page.
    const own = held.headers.get("Location")!;
    expect(own).toBeTruthy();
    const before = renders;
    for (let visit = 0; visit < 2; visit += 1) {
      const response = await buyer.get(own);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    expect(renders - before).toBe(2);
  });

  it.each([
    ["brotli", "gzip, deflate, br", "br", brotliDecompressSync],
    ["gzip, to a browser without brotli", "gzip, compress", "gzip", gunzipSync],
  ] as const)(
    "sends a page asked for again in %s compressed once, with each response's own secrets",
    async (_, acceptEncoding, encoding, decode) => {
      const tickets = await ticketsPage();
      const first = await sent(tickets, acceptEncoding);
      expect(first.headers["content-encoding"]).toBe(encoding);
      const page = decode(first.body).toString();
      const mine = sentSecrets(first.headers, page);
      // The compressed page carries its secrets as they are, in the holes left for them: a
      // response compressed afresh has them compressed with the rest. The page is compressed in
      // the background once it is served again, so a few responses may come before it.
      let kept: Awaited<ReturnType<typeof sent>> | undefined;
      for (let asked = 0; asked < 50 && !kept; asked += 1) {
        const again = await sent(tickets, acceptEncoding);
        expect(again.headers["content-encoding"]).toBe(encoding);
        if (again.body.includes(nonceOf(again.headers["content-security-policy"]))) kept = again;
      }
      expect(kept).toBeDefined();
      expect(String(kept!.headers.vary)).toMatch(/Accept-Encoding/i);
      const decoded = decode(kept!.body).toString();
      const theirs = sentSecrets(kept!.headers, decoded);
      expect(decoded).toContain(`nonce="${theirs.nonce}"`);
      expect(decoded).toContain(theirs.csrf);
      expect(decoded.replaceAll(theirs.nonce, "N").replaceAll(theirs.csrf, "C")).toBe(
        page.replaceAll(mine.nonce, "N").replaceAll(mine.csrf, "C"),
      );
    },
  );
});
