import { request as httpRequest, type IncomingMessage } from "node:http";
import { once } from "node:events";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logLines, startServer } from "../support/app";
import { buyerBrowser } from "../support/browser";
import { smallCatalogueFacts } from "../support/checkout-journey";
import { expectNoInternals } from "../support/internals";
import { seedSmall } from "../support/seed";

describe("the server-error page", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer(
      { APP_ENV: "production", SESSION_SECRET: "s".repeat(40) },
      {
        adjust: (services) => {
          services.sessions.getSession = async () => {
            throw new Error("database password is hunter2 at /srv/app/secret.ts:12");
          };
        },
      },
    );
  });
  afterAll(() => server.close());

  it("answers 500 in the spec's words, with no stack trace or internals", async () => {
    const response = await fetch(server.url("/"));
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("Unknown error");
    expect(html).toContain("Please try again in a few moments.");
    expect(html).not.toContain("hunter2");
    expect(html).not.toContain("secret.ts");
    expect(html).not.toMatch(/at \S+ \(/);
  });
});

// Issue 53: each of these answered 500 (or, for OPTIONS, 405) and wrote an error with its stack to
// the log: what the client sent is at fault, so a 4xx and a warning.
describe("requests the site cannot read", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  const { logger, lines } = logLines("info");
  beforeAll(async () => {
    server = await startServer({ APP_ENV: "production" }, { logger });
  });
  afterAll(() => server.close());

  /** The warning a request was refused with, and that nothing was logged as an error. */
  async function refusedWithWarning(response: Response, status: number) {
    expect(response.status).toBe(status);
    await response.arrayBuffer();
    const requestId = response.headers.get("x-request-id");
    const logged = lines.filter((line) => line.requestId === requestId);
    expect(logged.filter((line) => line.level === "error" || "err" in line)).toEqual([]);
    expect(logged).toContainEqual(expect.objectContaining({ level: "warn", status }));
    return response;
  }

  it("a path with malformed %-encoding answers 400", async () => {
    for (const path of ["/shows/%zz", "/%E0%A4%A", "/build/%zz.css", "/account/%C0"])
      await refusedWithWarning(await fetch(server.url(path)), 400);
  });

  it("a payment notification over 64 KB answers 413, and one under it is read", async () => {
    const notify = (size: number) =>
      fetch(server.url("/payments/notifications"), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ padding: "x".repeat(size) }),
      });
    await refusedWithWarning(await notify(70 * 1024), 413);
    // Read, and refused as no genuine notification.
    expect((await notify(60 * 1024)).status).toBe(400);
  });

  it("OPTIONS answers 204 with the methods allowed, and no other site is allowed to call", async () => {
    for (const path of ["/", "/checkout/payment", "/payments/notifications"]) {
      const response = await refusedWithWarning(
        await fetch(server.url(path), { method: "OPTIONS", headers: { Origin: "https://evil.example" } }),
        204,
      );
      expect(response.headers.get("allow")).toBe("GET, HEAD, POST");
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  it("another method answers 405 with the methods allowed", async () => {
    // fetch refuses to send TRACE: a plain request does.
    const request = httpRequest(server.url("/"), { method: "TRACE" });
    request.end();
    const [response] = (await once(request, "response")) as [IncomingMessage];
    response.resume();
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe("GET, HEAD, POST");
    const requestId = response.headers["x-request-id"];
    const logged = lines.filter((line) => line.requestId === requestId);
    expect(logged.filter((line) => line.level === "error")).toEqual([]);
    expect(logged).toContainEqual(expect.objectContaining({ level: "warn", method: "TRACE", status: 405 }));
  });
});

// With APP_ENV unset, as a deployment that forgot it runs: a query the store refuses (a table gone,
// as after a bad migration) fails a loader and an action. Remix's development mode would send the
// error's message and stack to the browser, in the page's data and in the page itself.
describe("a loader or action that fails, with APP_ENV unset", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  const { logger, lines } = logLines("error");
  let page: string;
  let visitor: ReturnType<typeof buyerBrowser>;

  beforeAll(async () => {
    server = await startServer({ APP_ENV: undefined }, { seed: seedSmall, logger });
    const db = server.services.store.db;
    const { performanceId } = await smallCatalogueFacts(server.services.store);
    page = `/shows/test-show/test-hall/tickets/${performanceId}`;
    visitor = buyerBrowser(server.url);
    expect((await visitor.get(page)).status).toBe(200);
    await sql`alter table seat_claims rename to seat_claims_gone`.execute(db);
    await sql`alter table promo_codes rename to promo_codes_gone`.execute(db);
  });
  afterAll(() => server.close());

  it("runs as development", () => {
    expect(server.services.config.appEnv).toBe("development");
  });

  /** What failed, as the log has it: message and stack, none of which the visitor may see. */
  const logged = () => {
    const line = [...lines].reverse().find((each) => each.msg === "loader or action error");
    expect(line).toBeDefined();
    const err = line!.err as { message: string; stack: string };
    expect(err.stack).toMatch(/\n\s+at /);
    return err;
  };

  it("the page is the site's error page, with no stack, SQL or file path", async () => {
    const response = await visitor.get(page);
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("Please try again in a few moments.");
    const err = logged();
    expect(err.message).toContain("seat_claims");
    expectNoInternals(html, [err.message, "seat_claims"]);
  });

  it("the page's data, as a browser with script asks for it, carries none of it either", async () => {
    const response = await visitor.get(`${page}.data`);
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(body).toContain("Unexpected Server Error");
    const err = logged();
    expectNoInternals(body, [err.message, "seat_claims"]);
  });

  it("nor does an action's answer, with or without script", async () => {
    for (const path of [page, `${page}.data`]) {
      const response = await visitor.post(path, { intent: "promo", promoCode: "SPRING20" });
      expect(response.status).toBe(500);
      const body = await response.text();
      const err = logged();
      expect(err.message).toContain("promo_codes");
      expectNoInternals(body, [err.message, "promo_codes"]);
    }
  });
});
