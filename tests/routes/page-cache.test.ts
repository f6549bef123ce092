// The page cache (app/web/page-cache.server.ts, docs/rendering.md), asked as browsers and an
// attacker ask: a page every visitor sees alike is kept the second time it is asked for and served
// the third, each response with its own nonce and CSRF value; a change in what it shows is written
// afresh at once; an address with a query parameter its routes do not declare is never kept, nor
// written back into the page; and a buyer's own checkout pages are never kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unmaskCsrfToken } from "~/web/csrf.server";
import { smallCatalogueFacts } from "../support/checkout-journey";
import { startServer } from "../support/app";
import { buyerBrowser } from "../support/browser";
import { pageCache } from "~/web/page-cache.server";
import { seedSmall } from "../support/seed";

/**
 * The nonce the response's CSP allows, and the CSRF value its page's data carries for its forms:
 * the token its cookie holds, masked for this response alone (app/web/csrf.server.ts).
 */
function secretsOf(response: Response, html: string) {
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("Content-Security-Policy") ?? "")?.[1];
  const csrf = /\\"csrf\\",\\"([A-Za-z0-9_-]+)\\"/.exec(html)?.[1];
  expect(nonce).toBeTruthy();
  expect(csrf).toBeTruthy();
  const cookie = response.headers.getSetCookie().find((header) => header.startsWith("csrf="));
  const signed = decodeURIComponent(cookie!.split(";")[0]!.slice("csrf=".length));
  const token = JSON.parse(Buffer.from(signed.slice(0, signed.lastIndexOf(".")), "base64").toString()) as string;
  expect(unmaskCsrfToken(csrf!)?.toString("base64url")).toBe(token);
  return { nonce: nonce!, csrf: csrf! };
}

const cacheOutcome = (response: Response) =>
  /page-cache;desc="(\w+)"/.exec(response.headers.get("Server-Timing") ?? "")?.[1];

describe("the page cache", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall });
  });
  afterAll(async () => {
    await server.close();
  });

  /** A fresh visitor (no cookies) asks for the page. */
  const visit = async (path: string) => {
    const response = await fetch(server.url(path));
    expect(response.status).toBe(200);
    const html = await response.text();
    return { response, html, outcome: cacheOutcome(response) };
  };

  /** The seat map of the first performance on sale. */
  const ticketsPage = async () => {
    const { performanceId } = await smallCatalogueFacts(server.services.store);
    return `/shows/test-show/test-hall/tickets/${performanceId}`;
  };

  it("keeps a page the second time it is asked for and serves it the third, with each response's own secrets", async () => {
    const path = "/shows/test-show/test-hall";
    const first = await visit(path);
    const second = await visit(path);
    const third = await visit(path);
    expect([first.outcome, second.outcome, third.outcome]).toEqual(["miss", "kept", "hit"]);

    const [mine, theirs] = [secretsOf(first.response, first.html), secretsOf(third.response, third.html)];
    expect(theirs.nonce).not.toBe(mine.nonce);
    expect(theirs.csrf).not.toBe(mine.csrf);
    const scripts = third.html.match(/<script[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(2);
    for (const script of scripts) expect(script).toContain(`nonce="${theirs.nonce}"`);
    expect(third.html).not.toContain(secretsOf(second.response, second.html).csrf);
    expect(third.html).not.toContain(mine.nonce);
    // Apart from the secrets, the same page.
    expect(third.html.replaceAll(theirs.nonce, "N").replaceAll(theirs.csrf, "C")).toBe(
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

    for (let asked = 0; asked < 2; asked += 1) expect((await visit(tickets)).html).toMatch(offered);
    const kept = await visit(tickets);
    expect(kept.outcome).toBe("hit");
    expect(kept.html).toMatch(offered);

    const buyer = buyerBrowser(server.url);
    const held = await buyer.post(tickets, [
      ["intent", "select"],
      ["seat", String(seat.id)],
    ]);
    expect(held.status).toBe(302);
    const after = await visit(tickets);
    expect(after.outcome).toBe("miss");
    expect(after.html).not.toMatch(offered);
  });

  it("never keeps a page asked for with a query parameter its routes do not declare, nor writes it back", async () => {
    const path = "/venues/test-hall";
    const undeclared = `${path}?utm_source=%22%3E%3Cb%3Eowned`;
    for (let asked = 0; asked < 3; asked += 1) {
      const { html, outcome } = await visit(undeclared);
      expect(outcome).toBe("miss");
      expect(html).not.toContain("utm_source");
      expect(html).not.toContain("owned");
    }
    // Kept for the address without it, the page is served to it (it is written without it anyway).
    expect([(await visit(path)).outcome, (await visit(path)).outcome]).toEqual(["miss", "kept"]);
    const served = await visit(`${path}?utm_source=other`);
    expect(served.outcome).toBe("hit");
    expect(served.html).not.toContain("utm_source");
    // A declared parameter (the language) is a page of its own, and is carried into its links.
    const outcomes: (string | undefined)[] = [];
    for (let asked = 0; asked < 3; asked += 1)
      outcomes.push((await visit("/shows/test-show/test-hall?lng=en-US")).outcome);
    expect(outcomes).toEqual(["miss", "kept", "hit"]);
    const { html } = await visit("/shows/test-show/test-hall?lng=en-US&evil=1");
    expect(html).toContain('href="/shows/test-show/test-hall?lng=en-GB"');
    expect(html).not.toContain("evil");
  });

  it("keys a page by its path and declared parameters, not by the host a request names", async () => {
    const path = "/legal/privacy-policy";
    for (let asked = 0; asked < 2; asked += 1) await visit(path);
    const response = await fetch(server.url(path), { headers: { "X-Forwarded-Host": "evil.example" } });
    expect(cacheOutcome(response)).toBe("hit");
    expect(await response.text()).not.toContain("evil.example");
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
    for (let asked = 0; asked < 3; asked += 1) {
      const response = await buyer.get(own);
      expect(response.status).toBe(200);
      expect(response.headers.get("Server-Timing")).toBeNull();
      await response.arrayBuffer();
    }
  });
});

describe("the page cache against one client cycling a parameter's values", () => {
  // Small bounds, so that what one client asks for would fill them many times over: room for
  // about six seat maps of the small house among the crowd's pages, three among one address's.
  const BOUNDS = { maxBytes: 200_000, newBytes: 100_000, askedOnceBytes: 64_000 };
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    // Behind one trusted proxy, each request's address is the one its X-Forwarded-For names.
    server = await startServer(
      { TRUST_PROXY: "1" },
      { seed: seedSmall, adjust: (services) => void (services.pages = pageCache(BOUNDS)) },
    );
  });
  afterAll(async () => {
    await server.close();
  });

  const visit = async (path: string, address: string) => {
    const response = await fetch(server.url(path), { headers: { "X-Forwarded-For": address } });
    expect(response.status).toBe(200);
    const html = await response.text();
    return { html, outcome: cacheOutcome(response) };
  };
  const ticketsPage = async () => {
    const { performanceId } = await smallCatalogueFacts(server.services.store);
    return `/shows/test-show/test-hall/tickets/${performanceId}`;
  };

  it("answers a declared parameter's junk value as the page does, and never keeps it", async () => {
    const tickets = await ticketsPage();
    for (const query of [
      "?minPrice=abc",
      "?minPrice=0042",
      "?section=%3Cb%3E",
      "?lng=xx-YY",
      "?cfg=nope",
      "?minPrice=10&minPrice=20",
    ]) {
      const outcomes: (string | undefined)[] = [];
      for (let asked = 0; asked < 3; asked += 1) {
        const { html, outcome } = await visit(`${tickets}${query}`, `192.0.2.${asked + 1}`);
        expect(html).toContain("<h1");
        outcomes.push(outcome);
      }
      expect(outcomes, query).toEqual(["miss", "miss", "miss"]);
    }
    // A value as the page's own filter writes it is kept, as before.
    const outcomes: (string | undefined)[] = [];
    for (let asked = 0; asked < 3; asked += 1)
      outcomes.push((await visit(`${tickets}?minPrice=40`, "192.0.2.9")).outcome);
    expect(outcomes).toEqual(["miss", "kept", "hit"]);
  });

  it("one client cycling junk and valid-but-rare values does not push out the seat map a crowd reads", async () => {
    const tickets = await ticketsPage();
    const crowd = (index: number) => visit(tickets, `203.0.113.${index}`);
    const read = [await crowd(1), await crowd(2), await crowd(3)];
    expect(read.map((visit) => visit.outcome)).toEqual(["miss", "kept", "hit"]);
    const pageBytes = Buffer.byteLength(read[0]!.html);

    const attacker = "198.51.100.66";
    for (let value = 0; value < 20; value += 1)
      for (let asked = 0; asked < 2; asked += 1)
        expect((await visit(`${tickets}?minPrice=junk${value}`, attacker)).outcome).toBe("miss");
    const rare = 30;
    // Were they kept among the crowd's, they would fill both bounds several times over.
    expect(rare * pageBytes).toBeGreaterThan(2 * (BOUNDS.maxBytes + BOUNDS.newBytes));
    for (let value = 1; value <= rare; value += 1) {
      const path = `${tickets}?minPrice=${value}`;
      expect((await visit(path, attacker)).outcome).toBe("miss");
      expect((await visit(path, attacker)).outcome).toBe("kept");
    }
    const [crowdPages, newPages] = server.services.pages.stats();
    expect(newPages).toMatchObject({ name: "pages-new" });
    expect(newPages!.entries).toBeLessThan(rare);
    expect(newPages!.bytes).toBeLessThanOrEqual(BOUNDS.newBytes);
    expect(crowdPages).toMatchObject({ name: "pages", entries: 1 });

    expect((await crowd(4)).outcome).toBe("hit");
  });
});
