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
    expect(all.priceRange).toEqual({ min: 2500, max: 6500 });
    expect(all.sections.map((section) => section.name)).toEqual(["Stalls", "Standing"]);
    expect(all.availability.get(seed.onSale.id)).toEqual({ capacity: 24, left: 19, level: "good" });

    const stalls = all.sections.find((section) => section.name === "Stalls")!.id;
    const inStalls = await calendarFacts(store, ids, seed.clock.now(), { sectionId: stalls });
    expect(inStalls.availability.get(seed.onSale.id)).toMatchObject({ capacity: 19, left: 17 });

    const cheap = await calendarFacts(store, ids, seed.clock.now(), { maxPrice: 4500 });
    expect(cheap.selectedPriceRange).toEqual({ min: 2500, max: 4500 });
    // Row B (one seat withheld) and the standing area, less the 3 standing places held.
    expect(cheap.availability.get(seed.onSale.id)).toMatchObject({ capacity: 14, left: 11 });

    const none = await calendarFacts(store, ids, seed.clock.now(), { minPrice: 9000 });
    expect(none.selectedPriceRange).toBeNull();
    expect(none.availability.get(seed.onSale.id)).toMatchObject({ left: 0, level: "soldOut" });
  });
});
