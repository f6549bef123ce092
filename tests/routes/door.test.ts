import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { createCookie } from "~/web/cookies.server";
import { LINE_MAX_AGE_MS } from "~/ticketing/waiting-room.server";
import { startServer, TEST_SECRET } from "../support/app";
import { buyerBrowser } from "../support/browser";
import { smallCatalogueFacts } from "../support/checkout-journey";
import { seedSmall } from "../support/seed";

// Issue 54: a place in the queue is a signed cookie the door checks without the store. Whatever a
// visitor does to that cookie (writes one, changes one, copies another's), they never go in ahead
// of an honest buyer: the cookie only says when to ask the Remix pages, whose gate lets in by the
// store, by the session's own visitor. And one admitted place still holds one basket.

type Buyer = ReturnType<typeof buyerBrowser>;

describe("the door's place cookie", () => {
  const clock = fixedClock("2026-12-07T10:00:00Z");
  let server: Awaited<ReturnType<typeof startServer>>;
  let tickets: string;
  let seat: (label: string) => number;

  beforeAll(async () => {
    server = await startServer(
      { QUEUE_ACTIVE_BUYERS: "1", QUEUE_IDLE_MINUTES: "60", QUEUE_JOINS_PER_ADDRESS: "0" },
      { seed: seedSmall, clock },
    );
    const facts = await smallCatalogueFacts(server.services.store);
    tickets = `/shows/test-show/test-hall/tickets/${facts.performanceId}`;
    seat = facts.seat;
  });
  afterAll(() => server.close());

  /** The page a buyer ends on, following redirects as a browser does. */
  async function open(buyer: Buyer, path: string) {
    let response = await buyer.get(path);
    let at = path;
    for (let hops = 0; hops < 6 && response.headers.get("Location"); hops += 1) {
      await response.arrayBuffer();
      const next = new URL(response.headers.get("Location")!, "http://site");
      at = next.pathname + next.search;
      response = await buyer.get(at);
    }
    const html = await response.text();
    const place = /Your place in the queue: (\d+) of (\d+)/.exec(html);
    return { at, status: response.status, place: place ? Number(place[1]) : null, seatMap: html.includes("seat-map") };
  }

  it("a forged, altered or copied place never goes in ahead of an honest one; one admission, one basket", async () => {
    const [first, second, third] = [0, 1, 2].map(() => buyerBrowser(server.url));
    expect((await open(first!, tickets)).seatMap).toBe(true);
    expect((await open(second!, tickets)).place).toBe(1);
    expect((await open(third!, tickets)).place).toBe(2);
    const placeName = [...second!.cookies.keys()].find((name) => name.endsWith("place"))!;
    expect(placeName).toBeDefined();

    // Forged: a place at the front, signed with a key that is not the site's.
    const forger = buyerBrowser(server.url);
    const forged = createCookie(placeName, { secrets: ["not-the-site-secret-0123456789abcdef"] });
    forger.cookies.set(
      placeName,
      (await forged.serialize(["site", "someone", 0, clock.now().getTime()])).split(/=|;/)[1]!,
    );
    expect((await open(forger, tickets)).place).toBe(3);

    // Forged with the right name but a value signed for another cookie (the session's key).
    const borrowed = buyerBrowser(server.url);
    const otherPurpose = createCookie("session", { secrets: [TEST_SECRET] });
    borrowed.cookies.set(
      placeName,
      (await otherPurpose.serialize(["site", "someone", 0, clock.now().getTime()])).split(/=|;/)[1]!,
    );
    expect((await open(borrowed, tickets)).place).toBe(4);

    // Altered: the third buyer's own cookie with one character changed is no place at all, and
    // their session keeps the place they had.
    const value = third!.cookies.get(placeName)!;
    third!.cookies.set(placeName, `${value.slice(0, 5)}${value[5] === "A" ? "B" : "A"}${value.slice(6)}`);
    expect((await open(third!, tickets)).place).toBe(2);

    // Copied: the second buyer's place cookie (only) in a fresh browser shows that place...
    const copier = buyerBrowser(server.url);
    copier.cookies.set(placeName, second!.cookies.get(placeName)!);
    expect((await open(copier, tickets)).place).toBe(1);

    // ... until that place's turn: then the second buyer goes in, and the copy goes to the back.
    const held = await first!.post(tickets, [
      ["intent", "select"],
      ["seat", String(seat("C9"))],
    ]);
    expect(held.status).toBe(302);
    expect((await first!.post("/checkout/hold", { intent: "release" })).status).toBe(302);
    clock.advance(LINE_MAX_AGE_MS);
    const copy = await open(copier, tickets);
    expect(copy.seatMap).toBe(false);
    expect(copy.place).toBe(4);
    expect((await open(second!, tickets)).seatMap).toBe(true);
    expect((await open(third!, tickets)).place).toBe(1);
    expect((await open(forger, tickets)).place).toBe(2);

    // One admission, one basket: every cookie of the admitted buyer copied into two more clients,
    // each choosing its own seat; one basket holds seats.
    const copies = [0, 1].map(() => {
      const client = buyerBrowser(server.url);
      for (const [name, cookie] of second!.cookies) client.cookies.set(name, cookie);
      return client;
    });
    for (const [index, client] of [second!, ...copies].entries()) {
      const response = await client.post(tickets, [
        ["intent", "select"],
        ["seat", String(seat(["B1", "B2", "B3"][index]!))],
      ]);
      await response.arrayBuffer();
    }
    const holding = await server.services.store.db
      .selectFrom("seat_claims")
      .innerJoin("holds", "holds.id", "seat_claims.hold_id")
      .select("holds.basket_id")
      .where("seat_claims.status", "=", "held")
      .execute();
    expect(holding.length).toBeGreaterThan(0);
    expect(new Set(holding.map((claim) => claim.basket_id)).size).toBe(1);
  });
});
