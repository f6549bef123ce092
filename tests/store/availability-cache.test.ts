import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { openPostgres, openSqlite } from "~/db/connection.server";
import { createAvailability } from "~/ticketing/availability-service.server";
import { availabilityOf, calendarFacts } from "~/ticketing/availability.server";
import { createInventory } from "~/ticketing/inventory.server";
import { seedSmallCatalogue } from "../support/engine";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

const MAX_AGE_MS = 5_000;

describe.each(DIALECTS)("cached availability on %s", (dialect) => {
  let store: TestStore;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  beforeAll(async () => {
    store = await createTestStore(dialect);
    seed = await seedSmallCatalogue(store);
  });
  afterAll(() => store.drop());

  /** A fresh instance: its cache, and an inventory that reports to it. */
  function instance() {
    const availability = createAvailability(store, seed.clock, { maxAgeMs: MAX_AGE_MS });
    const inventory = createInventory(store, seed.clock, undefined, availability.changed);
    return { availability, inventory };
  }
  const left = async (availability: ReturnType<typeof instance>["availability"]) =>
    (await availability.calendar([seed.onSale.id])).availability.get(seed.onSale.id)?.left;

  it("gives the same facts as the uncached reads, with and without a filter", async () => {
    seed.clock.set("2026-11-23T12:00:00.000Z");
    const { availability, inventory } = instance();
    await inventory.holdSeats({ basketId: "same", performanceId: seed.onSale.id, seatIds: [seed.seat("A", "8")] });
    const ids = seed.performances.map((performance) => performance.id);
    for (const filter of [{}, { maxPrice: 4500 }, { sectionId: seed.standingId, quantity: 3 }]) {
      expect(await availability.calendar(ids, filter)).toEqual(
        await calendarFacts(store, ids, seed.clock.now(), filter),
      );
    }
    expect(await availability.summary(ids)).toEqual(await availabilityOf(store, ids, seed.clock.now()));
  });

  it("shows this instance's holds and releases at once", async () => {
    seed.clock.set("2026-11-23T13:00:00.000Z");
    const { availability, inventory } = instance();
    const before = await left(availability);
    const held = await inventory.holdSeats({
      basketId: "mine",
      performanceId: seed.onSale.id,
      seatIds: [seed.seat("A", "3"), seed.seat("A", "4")],
    });
    expect(held.ok).toBe(true);
    expect(await left(availability)).toBe(before! - 2);
    await inventory.holdStanding({
      basketId: "mine",
      performanceId: seed.onSale.id,
      sectionId: seed.standingId,
      quantity: 1,
    });
    expect(await left(availability)).toBe(before! - 3);
    await inventory.releasePart({ basketId: "mine", performanceId: seed.onSale.id, seatIds: [seed.seat("A", "3")] });
    expect(await left(availability)).toBe(before! - 2);
    if (held.ok) await inventory.releaseHold(held.holdId);
    expect(await left(availability)).toBe(before);
  });

  it("sees another instance's holds once its counts are maxAgeMs old", async () => {
    seed.clock.set("2026-11-23T14:00:00.000Z");
    const here = instance();
    const elsewhere = instance();
    const before = await left(here.availability);
    await elsewhere.inventory.holdSeats({
      basketId: "other",
      performanceId: seed.onSale.id,
      seatIds: [seed.seat("A", "5")],
    });
    expect(await left(elsewhere.availability)).toBe(before! - 1);
    // Still the count this instance read: it heard nothing of the other's hold.
    expect(await left(here.availability)).toBe(before);
    seed.clock.advance(MAX_AGE_MS);
    expect(await left(here.availability)).toBe(before! - 1);
  });

  it("counts a held place free again the moment its hold lapses, however young the count", async () => {
    seed.clock.set("2026-11-23T15:00:00.000Z");
    const long = createAvailability(store, seed.clock, { maxAgeMs: 60 * 60_000 });
    const inventory = createInventory(store, seed.clock, undefined, long.changed);
    const free = (await long.calendar([seed.onSale.id])).availability.get(seed.onSale.id)!.left;
    const held = await inventory.holdSeats({
      basketId: "lapse",
      performanceId: seed.onSale.id,
      seatIds: [seed.seat("A", "6")],
    });
    expect(held.ok).toBe(true);
    expect((await long.summary([seed.onSale.id])).get(seed.onSale.id)?.left).toBe(free - 1);
    seed.clock.set(held.ok ? held.expiresAt : "");
    expect((await long.summary([seed.onSale.id])).get(seed.onSale.id)?.left).toBe(free);
  });

  it("does not keep a count read while a change was being made", async () => {
    seed.clock.set("2026-11-23T16:00:00.000Z");
    // A store whose claim counts arrive only when the test lets them: the read is made, then the
    // hold commits, then the read's (now old) answer comes back.
    let counted: () => void = () => {};
    const countRead = new Promise<void>((resolve) => (counted = resolve));
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const gated = new Set<unknown>();
    let holding = false;
    // The reads go over a connection of their own, as another request's would: SQLite's single
    // connection would otherwise make the hold wait for the read it is meant to overtake.
    const reader = dialect === "sqlite" ? openSqlite(store.location) : openPostgres(store.location, 2);
    onTestFinished(() => reader.close());
    const db = reader.db.withPlugin({
      transformQuery: ({ node, queryId }) => {
        if (holding && node.kind === "SelectQueryNode" && JSON.stringify(node.from).includes('"seat_claims"'))
          gated.add(queryId);
        return node;
      },
      transformResult: async ({ queryId, result }) => {
        if (gated.has(queryId)) {
          counted();
          await gate;
        }
        return result;
      },
    });
    const availability = createAvailability({ ...reader, db }, seed.clock, { maxAgeMs: MAX_AGE_MS });
    const inventory = createInventory(store, seed.clock, undefined, availability.changed);
    const before = await left(availability);
    seed.clock.advance(MAX_AGE_MS);
    holding = true;
    const reading = availability.calendar([seed.onSale.id]);
    await countRead;
    holding = false;
    await inventory.holdSeats({ basketId: "racing", performanceId: seed.onSale.id, seatIds: [seed.seat("A", "7")] });
    release();
    // The answer of a read that straddled the hold is read again, not taken as it was.
    expect((await reading).availability.get(seed.onSale.id)?.left).toBe(before! - 1);
    expect(await left(availability)).toBe(before! - 1);
  });
});
