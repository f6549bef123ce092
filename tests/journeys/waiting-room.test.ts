import { randomUUID } from "node:crypto";
import { getByRole, within } from "@testing-library/dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import type { Store } from "~/db/connection.server";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { startServer } from "../support/app";
import { smallCatalogue } from "../support/catalogue";
import type { HtmlDriver } from "../support/html-driver";
import { htmlDriver, validateAllPages } from "../support/html-driver";
import { demoBuyer, pathOf, startDemoServer, type DemoServer } from "../support/demo-journey";

// The waiting room without script (issue 20), in each language: with QUEUE_ACTIVE_BUYERS=3, ten
// fresh buyers ask in turn for one tickets page. Three see seats; the others wait, each told their
// place in order of arrival, on a page that refreshes itself. As admitted buyers leave (releasing
// their seats, going idle), the next are let in on their own page's refresh.

const CALENDAR = "/shows/northern-static/foundry-hall/calendar";
const IDLE_MINUTES = 10;
const STATUS_TOKEN = "operators-only-0123456789abcdef";
const words = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();
const statusText = (buyer: HtmlDriver) =>
  [...buyer.document.querySelectorAll('[role="status"]')]
    .filter((element) => !element.closest("[hidden]"))
    .map((element) => words(element.textContent))
    .join(" ");
const placeOf = (buyer: HtmlDriver) => /Your place in the queue: (\d+) of (\d+)/.exec(statusText(buyer))?.slice(1, 3);
const seesSeats = (buyer: HtmlDriver, tickets: string) =>
  buyer.status === 200 && pathOf(buyer) === tickets && buyer.document.querySelector(".seat-map") !== null;

/** A bookable performance's tickets page, read off the calendar (which is not queued). */
async function bookableTickets(server: DemoServer, language: "en-GB" | "en-US") {
  const scout = demoBuyer(server, language);
  await scout.open(CALENDAR);
  const link = [...scout.document.querySelectorAll<HTMLAnchorElement>('a[href*="/tickets/"]')].find((anchor) =>
    /Good availability/.test(anchor.textContent ?? ""),
  );
  return link!.getAttribute("href")!;
}

// Each journey reads many whole pages (seat maps among them) through jsdom: on a slower machine the
// first, cold, took longer than the default 20 s, as the other journey files allow for.
describe.each(["en-GB", "en-US"] as const)("the waiting room without script, %s", { timeout: 60_000 }, (language) => {
  let server: DemoServer;
  let tickets: string;
  beforeAll(async () => {
    server = await startDemoServer({
      QUEUE_ACTIVE_BUYERS: "3",
      QUEUE_IDLE_MINUTES: String(IDLE_MINUTES),
      QUEUE_STATUS_TOKEN: STATUS_TOKEN,
    });
    tickets = await bookableTickets(server, language);
  });
  afterAll(async () => {
    await validateAllPages();
    await server.close();
  });

  it("lets three in, queues seven in order of arrival, and lets the next in as others leave", async () => {
    const buyers = Array.from({ length: 10 }, () => demoBuyer(server, language));
    for (const [index, buyer] of buyers.entries()) {
      await buyer.open(tickets);
      if (index < 3) {
        expect(seesSeats(buyer, tickets), `buyer ${index + 1} sees seats`).toBe(true);
        continue;
      }
      // The door answers at the tickets page's own address: one response, no redirect.
      expect(pathOf(buyer)).toBe(tickets);
      getByRole(buyer.document.body, "heading", { level: 1, name: "You're in the queue" });
      expect(words(buyer.document.title)).toMatch(/^You're in the queue – /);
      expect(placeOf(buyer)).toEqual([String(index - 2), String(index - 2)]);
      // It reloads itself without script, a few seconds apart, and says so, with a way to stop it.
      const refresh = buyer.metaRefresh!;
      expect(refresh.seconds).toBeGreaterThanOrEqual(3);
      expect(refresh.seconds).toBeLessThanOrEqual(30);
      expect(buyer.text()).toContain(`This page checks your place by itself every ${refresh.seconds} seconds.`);
      within(buyer.document.body).getByRole("link", { name: "Stop checking by itself" });
      within(buyer.document.body).getByRole("link", { name: "Check my place" });
    }
    // Refreshing keeps each place; the count is everyone waiting now.
    for (const [index, buyer] of buyers.slice(3).entries()) {
      await buyer.refresh();
      expect(placeOf(buyer), `buyer ${index + 4} after a refresh`).toEqual([String(index + 1), "7"]);
    }
    // A copied link lets nobody in: it carries no place.
    const copier = demoBuyer(server, language);
    await copier.open(buyers[0]!.url);
    await copier.open(new URL(buyers[3]!.url).pathname + new URL(buyers[3]!.url).search);
    expect(placeOf(copier)).toEqual(["8", "8"]);

    // The first releases the seats they held: the fourth is let in on their page's next refresh.
    const first = buyers[0]!;
    first.select("Number of seats", "2");
    await first.press("Find seats");
    expect(pathOf(first)).toBe("/checkout/reservations");
    await first.follow("Release seats");
    await first.press("Yes, release my seats");
    await buyers[3]!.refresh();
    expect(seesSeats(buyers[3]!, tickets), "the fourth buyer sees seats").toBe(true);
    // Six of the ten wait now, and the one who copied a link.
    await buyers[4]!.refresh();
    expect(placeOf(buyers[4]!)).toEqual(["1", "7"]);

    // The second goes quiet past the idle time while the third and fourth keep choosing: the
    // second's place goes to the fifth.
    server.clock.advance((IDLE_MINUTES - 1) * 60_000);
    await buyers[2]!.open(tickets);
    await buyers[3]!.open(tickets);
    server.clock.advance(2 * 60_000);
    await buyers[4]!.refresh();
    expect(seesSeats(buyers[4]!, tickets), "the fifth buyer sees seats").toBe(true);
    await buyers[5]!.refresh();
    expect(placeOf(buyers[5]!)).toEqual(["1", "6"]);
    // The second comes back to the back of the queue.
    await buyers[1]!.open(tickets);
    expect(placeOf(buyers[1]!)).toEqual(["7", "7"]);
  });

  it("stops reloading when asked, keeping the place, and says plainly when cookies are refused", async () => {
    const waiting = demoBuyer(server, language);
    await waiting.open(tickets);
    const place = placeOf(waiting);
    expect(place).toBeDefined();
    await waiting.follow("Stop checking by itself");
    expect(waiting.metaRefresh).toBeNull();
    expect(waiting.text()).toContain("This page no longer checks by itself.");
    expect(placeOf(waiting)).toEqual(place);
    await waiting.follow("Check my place");
    expect(waiting.metaRefresh).toBeNull();
    await waiting.follow("Check by itself again");
    expect(waiting.metaRefresh).not.toBeNull();

    // A first visit gets its place in one response, with the cookies that keep it; its next ask
    // says the cookies were sent.
    const first = await fetch(server.url(tickets), { redirect: "manual" });
    expect(first.status).toBe(200);
    expect(first.headers.getSetCookie().join("\n")).toMatch(/^(__Host-)?session=/m);
    expect(first.headers.getSetCookie().join("\n")).toMatch(/^(__Host-)?place=/m);
    expect(await first.text()).toMatch(/Your place in the queue: \d+ of/);

    // Without cookies the first page cannot know; its first refresh says so, and stops.
    const refuser = demoBuyer(server, language, { cookies: false });
    await refuser.open(tickets);
    await refuser.refresh();
    expect(pathOf(refuser)).toBe("/waiting-room");
    getByRole(refuser.document.body, "heading", { level: 1, name: "Cookies are needed to keep your place" });
    expect(refuser.metaRefresh).toBeNull();
  });

  it("tells operators how each room stands, and anyone else only the totals", async () => {
    const asOperator = await fetch(server.url("/queuez"), { headers: { Authorization: `Bearer ${STATUS_TOKEN}` } });
    expect(asOperator.status).toBe(200);
    const status = (await asOperator.json()) as { queueing: boolean; rooms: { waiting: number; admitted: number }[] };
    expect(status.queueing).toBe(true);
    expect(status.rooms).toHaveLength(1);
    expect(status.rooms[0]!.admitted).toBe(3);
    expect(status.rooms[0]!.waiting).toBeGreaterThan(0);

    const anyone = await fetch(server.url("/queuez"));
    expect(anyone.status).toBe(200);
    expect(await anyone.json()).toEqual({ queueing: true, waiting: status.rooms[0]!.waiting, admitted: 3 });

    const guess = await fetch(server.url("/queuez"), { headers: { Authorization: "Bearer operators-only-guess" } });
    expect(guess.status).toBe(401);
    expect(await guess.json()).toEqual({ error: "unauthorised" });
  });
});

// Issue 41: one admitted buyer's session and CSRF cookies, copied into other clients, must not buy
// more than that buyer could. Each copy is handed the first client's basket before it may choose
// anything, so however many press "Find seats", one basket holds seats, within one order's limit,
// and the room still counts one buyer in.
describe("one place, one basket, without script", { timeout: 60_000 }, () => {
  let server: DemoServer;
  let tickets: string;
  beforeAll(async () => {
    server = await startDemoServer({ QUEUE_ACTIVE_BUYERS: "2" });
    tickets = await bookableTickets(server, "en-GB");
  });
  afterAll(async () => {
    await validateAllPages();
    await server.close();
  });

  it("gives every copy of an admitted buyer's cookies that buyer's basket: one hold, one place", async () => {
    const admitted = demoBuyer(server, "en-GB");
    await admitted.open(tickets);
    expect(seesSeats(admitted, tickets)).toBe(true);
    const copies = Array.from({ length: 4 }, () => {
      const copy = demoBuyer(server, "en-GB");
      for (const [name, value] of admitted.cookies())
        if (name === "session" || name === "csrf") copy.setCookie(`${name}=${value}; Path=/`);
      return copy;
    });
    for (const client of [...copies, admitted]) {
      await client.open(tickets);
      expect(seesSeats(client, tickets)).toBe(true);
      client.select("Number of seats", "2");
      await client.press("Find seats");
      expect(pathOf(client)).toBe("/checkout/reservations");
    }
    const { db } = server.services.store;
    const held = await db
      .selectFrom("seat_claims")
      .innerJoin("holds", "holds.id", "seat_claims.hold_id")
      .select(["holds.basket_id", "seat_claims.performance_id"])
      .where("seat_claims.status", "=", "held")
      .execute();
    expect(new Set(held.map((claim) => claim.basket_id)).size).toBe(1);
    const { seat_limit } = await db
      .selectFrom("performances")
      .select("seat_limit")
      .where("id", "=", held[0]!.performance_id)
      .executeTakeFirstOrThrow();
    expect(held.length).toBeLessThanOrEqual(seat_limit);
    // Every copy carries the one basket now.
    const baskets = new Set([...copies, admitted].map((client) => client.cookies().get("basket")));
    expect(baskets.size).toBe(1);
    // The room counts one buyer in: a second buyer gets the other place, a third waits.
    const second = demoBuyer(server, "en-GB");
    await second.open(tickets);
    expect(seesSeats(second, tickets)).toBe(true);
    const third = demoBuyer(server, "en-GB");
    await third.open(tickets);
    expect(pathOf(third)).toBe(tickets);
    expect(placeOf(third)).toEqual(["1", "1"]);
  });
});

// Issue 41: places are not free to take. Every cookie-less client gets a new session, so a bot
// farm behind one address would otherwise fill the queue: past QUEUE_JOINS_PER_ADDRESS new places
// in the window, the next is refused with a page that says when to come back, a 429 and Retry-After.
describe.each(["en-GB", "en-US"] as const)(
  "joins limited per client address, without script, %s",
  { timeout: 60_000 },
  (language) => {
    let server: DemoServer;
    let tickets: string;
    beforeAll(async () => {
      server = await startDemoServer({
        QUEUE_ACTIVE_BUYERS: "1",
        // The first stays in through the window: the places below are the second's and the third's.
        QUEUE_IDLE_MINUTES: "60",
        QUEUE_JOINS_PER_ADDRESS: "2",
        QUEUE_JOIN_WINDOW_MINUTES: "10",
      });
      tickets = await bookableTickets(server, language);
    });
    afterAll(async () => {
      await validateAllPages();
      await server.close();
    });

    it("gives two places from one address, then refuses the third with a page saying when to come back", async () => {
      const [first, second, third] = Array.from({ length: 3 }, () => demoBuyer(server, language));
      await first!.open(tickets);
      expect(seesSeats(first!, tickets)).toBe(true);
      await second!.open(tickets);
      expect(placeOf(second!)).toEqual(["1", "1"]);
      await third!.open(tickets);
      expect(third!.status).toBe(429);
      expect(third!.headers.get("Retry-After")).toBe("600");
      getByRole(third!.document.body, "heading", { level: 1, name: "Too many tries to join the queue" });
      expect(third!.text()).toContain("Please try again in about 10 minutes.");
      expect(third!.metaRefresh).toBeNull();
      // Those with places keep them: a refresh is not a join.
      await second!.refresh();
      expect(placeOf(second!)).toEqual(["1", "1"]);
      // After the window, the address may take a place again.
      server.clock.advance(10 * 60_000);
      await third!.follow("Try again");
      expect(third!.status).toBe(200);
      expect(placeOf(third!)).toEqual(["2", "2"]);
    });
  },
);

/** Marks every place of a performance sold: seats not yet claimed, and what standing room is left. */
async function sellOut(store: Store, performanceId: string) {
  const { db } = store;
  const performance = await db
    .selectFrom("performances")
    .innerJoin("runs", "runs.id", "performances.run_id")
    .select(["runs.seat_map_id"])
    .where("performances.id", "=", performanceId)
    .executeTakeFirstOrThrow();
  const claimed = new Set(
    (await db.selectFrom("seat_claims").select("seat_id").where("performance_id", "=", performanceId).execute()).map(
      (claim) => claim.seat_id,
    ),
  );
  const seats = await db.selectFrom("seats").select("id").where("seat_map_id", "=", performance.seat_map_id).execute();
  const free = seats.filter((seat) => !claimed.has(seat.id));
  if (free.length)
    await db
      .insertInto("seat_claims")
      .values(
        free.map((seat) => ({
          performance_id: performanceId,
          seat_id: seat.id,
          status: "sold" as const,
          hold_id: null,
          held_until: null,
          order_id: null,
          price_option_id: null,
        })),
      )
      .execute();
  const standing = await db
    .selectFrom("sections")
    .select(["id", "capacity"])
    .where("seat_map_id", "=", performance.seat_map_id)
    .where("kind", "=", "standing")
    .execute();
  for (const section of standing)
    await db
      .insertInto("standing_claims")
      .values({
        id: randomUUID(),
        performance_id: performanceId,
        section_id: section.id,
        quantity: section.capacity ?? 0,
        status: "sold",
        hold_id: null,
        held_until: null,
        order_id: null,
        price_option_id: null,
      })
      .execute();
}

// A scheduled on-sale (the catalogue file's schedule.onSale): the run's own waiting room opens half
// an hour before the sale; whoever is in it by then gets a place drawn at random when it opens.
describe("a scheduled on-sale's pre-queue without script", { timeout: 60_000 }, () => {
  const clock = fixedClock("2026-12-01T09:00:00.000Z");
  let server: Awaited<ReturnType<typeof startServer>>;
  const calendar = "/shows/test-show/test-hall/calendar";
  beforeAll(async () => {
    const file = smallCatalogue();
    const schedule = file.shows[0]!.runs[0]!.schedule as Record<string, unknown>;
    delete schedule.presale;
    schedule.onSale = { at: "2026-12-01T10:00:00Z", preQueueMinutes: 30, activeBuyers: 2 };
    server = await startServer(
      { QUEUE_STATUS_TOKEN: STATUS_TOKEN },
      { clock, seed: (services) => importCatalogue(services.store, file, clock).then(() => {}) },
    );
  });
  afterAll(async () => {
    await validateAllPages();
    await server.close();
  });
  const buyer = () => htmlDriver(server.url(""), { language: "en-GB", now: () => clock.now().getTime() });
  const queueLinks = (driver: HtmlDriver) =>
    [...driver.document.querySelectorAll<HTMLAnchorElement>('a[href*="/tickets/"]')].filter((link) =>
      /join the queue/.test(link.textContent ?? ""),
    );

  it("links to the queue once it opens; at the on-sale time lets in as many as the room holds, the rest in drawn places; says when every place is taken", async () => {
    const early = buyer();
    await early.open(calendar);
    expect(queueLinks(early)).toHaveLength(0);
    expect(early.text()).toMatch(/On sale [^:]+10:00/);

    clock.set("2026-12-01T09:40:00.000Z");
    const buyers = Array.from({ length: 5 }, buyer);
    for (const [index, driver] of buyers.entries()) {
      await driver.open(calendar);
      const [link] = queueLinks(driver);
      expect(link, "the calendar links to the queue").toBeDefined();
      await driver.open(link!.getAttribute("href")!);
      expect(pathOf(driver)).toMatch(/\/tickets\//);
      getByRole(driver.document.body, "heading", { level: 1, name: "The sale opens soon" });
      expect(driver.text()).toContain("Tickets go on sale on Tuesday 1 December at 10:00 GMT.");
      expect(driver.text()).toContain(index === 0 ? "1 person is waiting." : `${index + 1} people are waiting.`);
      expect(driver.metaRefresh!.seconds).toBeLessThanOrEqual(30);
    }

    clock.set("2026-12-01T10:00:00.000Z");
    const outcomes = [];
    for (const driver of buyers) {
      await driver.refresh();
      outcomes.push(pathOf(driver) === "/waiting-room" ? Number(placeOf(driver)![0]) : "in");
    }
    // Two let in, three in line; who is where was drawn, not the order of arrival.
    expect(outcomes.filter((outcome) => outcome === "in")).toHaveLength(2);
    expect(outcomes.filter((outcome) => outcome !== "in").sort()).toEqual([1, 2, 3]);

    const operator = { headers: { Authorization: `Bearer ${STATUS_TOKEN}` } };
    const status = (await (await fetch(server.url("/queuez"), operator)).json()) as {
      rooms: { room: string; waiting: number; admitted: number }[];
    };
    expect(status.rooms).toEqual([
      expect.objectContaining({ room: expect.stringMatching(/^run:/), waiting: 3, admitted: 2 }),
    ]);

    // Every place taken (seeded: sold outright, which the test is not about): those still waiting
    // are told so, with the way to other dates, and may keep their place.
    const waiting = buyers.find((driver) => pathOf(driver) === "/waiting-room")!;
    const performanceId = new URL(waiting.url).searchParams.get("performance")!;
    await sellOut(server.services.store, performanceId);
    server.services.availability.changed(performanceId);
    await waiting.refresh();
    expect(waiting.text()).toContain("Every seat for this performance is sold or being bought right now.");
    await waiting.follow("Choose another date");
    expect(pathOf(waiting)).toBe(calendar);
  });
});
