import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availabilityLevel, availabilityOf, calendarFacts } from "~/ticketing/availability.server";
import { createInventory } from "~/ticketing/inventory.server";
import { seedSmallCatalogue } from "../support/engine";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

describe("availability levels", () => {
  it.each([
    [24, 24, "good"],
    [12, 24, "good"],
    [11, 24, "medium"],
    [5, 24, "medium"],
    [4, 24, "low"],
    [1, 24, "low"],
    [0, 24, "soldOut"],
    [0, 0, "soldOut"],
  ] as const)("%i of %i left is %s", (left, capacity, level) => {
    expect(availabilityLevel(left, capacity, { good: 0.5, medium: 0.2 })).toBe(level);
  });
});

describe.each(DIALECTS)("availability and calendar facts on %s", (dialect) => {
  let store: TestStore;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  beforeAll(async () => {
    store = await createTestStore(dialect);
    seed = await seedSmallCatalogue(store);
    seed.clock.set("2026-11-23T12:00:00.000Z");
    const inventory = createInventory(store, seed.clock);
    await inventory.holdSeats({
      basketId: "b1",
      performanceId: seed.onSale.id,
      seatIds: [seed.seat("A", "5"), seed.seat("A", "6")],
    });
    await inventory.holdStanding({
      basketId: "b2",
      performanceId: seed.onSale.id,
      sectionId: seed.standingId,
      quantity: 3,
    });
  });
  afterAll(() => store.drop());

  it("counts what is left against capacity for many performances at once", async () => {
    const ids = seed.performances.map((performance) => performance.id);
    const availability = await availabilityOf(store, ids, seed.clock.now());
    expect(availability.get(seed.onSale.id)).toEqual({ capacity: 24, left: 19, level: "good" });
    expect(availability.get(seed.performances.at(-1)!.id)).toEqual({ capacity: 24, left: 24, level: "good" });
    // Holds that expired no longer count.
    seed.clock.advance(16 * 60_000);
    expect((await availabilityOf(store, ids, seed.clock.now())).get(seed.onSale.id)?.left).toBe(24);
    seed.clock.set("2026-11-23T12:00:00.000Z");
  });

  it("gives the price range, the parts of the house and availability within a filter", async () => {
    const ids = seed.performances.map((performance) => performance.id);
    const all = await calendarFacts(store, ids, seed.clock.now());
    // All-in: face value + booking fee (£25 + £2, £45 + £2.50, £65 + £3).
    expect(all.priceRange).toEqual({ min: 2700, max: 6800 });
    expect(all.sections.map((section) => section.name)).toEqual(["Stalls", "Standing"]);
    expect(all.availability.get(seed.onSale.id)).toEqual({ capacity: 24, left: 19, level: "good" });

    const stalls = all.sections.find((section) => section.name === "Stalls")!.id;
    const inStalls = await calendarFacts(store, ids, seed.clock.now(), { sectionId: stalls });
    expect(inStalls.availability.get(seed.onSale.id)).toMatchObject({ capacity: 19, left: 17 });

    const cheap = await calendarFacts(store, ids, seed.clock.now(), { maxPrice: 4750 });
    expect(cheap.selectedPriceRange).toEqual({ min: 2700, max: 4750 });
    // Row B (one seat withheld) and the standing area, less the 3 standing places held.
    expect(cheap.availability.get(seed.onSale.id)).toMatchObject({ capacity: 14, left: 11 });

    const none = await calendarFacts(store, ids, seed.clock.now(), { minPrice: 9000 });
    expect(none.selectedPriceRange).toBeNull();
    expect(none.availability.get(seed.onSale.id)).toMatchObject({ left: 0, level: "soldOut" });
  });

  it("lists every band price (booking fee included) once, lowest first", async () => {
    const ids = seed.performances.map((performance) => performance.id);
    expect((await calendarFacts(store, ids, seed.clock.now())).prices).toEqual([2700, 4750, 6800]);
    expect((await calendarFacts(store, [], seed.clock.now())).prices).toEqual([]);
  });

  it("a number of seats: fewer places left within the filter than wanted is Sold out; otherwise the level stands", async () => {
    const ids = seed.performances.map((performance) => performance.id);
    const other = seed.performances.at(-1)!.id;
    const standing = { sectionId: seed.standingId };
    // The standing area has 2 of its 5 places left (3 are held).
    const two = await calendarFacts(store, ids, seed.clock.now(), { ...standing, quantity: 2 });
    expect(two.availability.get(seed.onSale.id)).toEqual({ capacity: 5, left: 2, level: "medium" });
    const three = await calendarFacts(store, ids, seed.clock.now(), { ...standing, quantity: 3 });
    expect(three.availability.get(seed.onSale.id)).toEqual({ capacity: 5, left: 2, level: "soldOut" });
    // A performance with all five free keeps its level for the same filter.
    expect(three.availability.get(other)).toEqual({ capacity: 5, left: 5, level: "good" });
    // The number counts with the price range too: 17 seats left in the Stalls, only row A's 8 at £68.
    const rowA = { minPrice: 6800 };
    expect(
      (await calendarFacts(store, ids, seed.clock.now(), { ...rowA, quantity: 8 })).availability.get(seed.onSale.id),
    ).toMatchObject({ left: 8, level: "good" });
    expect(
      (await calendarFacts(store, ids, seed.clock.now(), { ...rowA, quantity: 9 })).availability.get(seed.onSale.id),
    ).toMatchObject({ left: 8, level: "soldOut" });
    // No filter but the number: the whole house.
    expect(
      (await calendarFacts(store, ids, seed.clock.now(), { quantity: 4 })).availability.get(seed.onSale.id),
    ).toEqual({ capacity: 24, left: 19, level: "good" });
  });
});
