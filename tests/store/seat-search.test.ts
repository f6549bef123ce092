import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInventory } from "~/ticketing/inventory.server";
import { createSeatSearch } from "~/ticketing/seat-search.server";
import { seedSmallCatalogue } from "../support/engine";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

describe.each(DIALECTS)("best available against the store on %s", (dialect) => {
  let store: TestStore;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  beforeAll(async () => {
    store = await createTestStore(dialect);
    seed = await seedSmallCatalogue(store);
    seed.clock.set("2026-11-23T12:00:00.000Z");
  });
  afterAll(() => store.drop());

  it("offers the best free seats, and others once those are held", async () => {
    const search = createSeatSearch(store, seed.clock);
    const inventory = createInventory(store, seed.clock);
    const performanceId = seed.onSale.id;
    const found = async (quantity: number) => {
      const result = await search.search(performanceId, { quantity });
      if (result && "ok" in result) throw new Error(`refused: ${result.reason}`);
      return result;
    };
    const first = await found(2);
    expect(first?.seatIds).toHaveLength(2);
    const rows = new Set(first!.seatIds.map((id) => seed.seats.find((seat) => seat.id === id)!.row_name));
    expect(rows).toEqual(new Set(["A"]));
    expect(await inventory.holdSeats({ basketId: "b1", performanceId, seatIds: first!.seatIds })).toMatchObject({
      ok: true,
    });
    const second = await found(2);
    expect(second?.seatIds.some((id) => first!.seatIds.includes(id))).toBe(false);
    expect(await search.search(performanceId, { quantity: 2, maxPrice: 1000 })).toBeNull();
    expect(await search.search("no-such-performance", { quantity: 2 })).toBeNull();
  });

  it("refuses a group over the seat limit before searching, as the engine would refuse to hold it", async () => {
    const search = createSeatSearch(store, seed.clock);
    // The small catalogue's limit is 4 seats a basket.
    expect(await search.search(seed.onSale.id, { quantity: 5 })).toMatchObject({
      ok: false,
      reason: "seat-limit",
      seatSelectionLimit: 4,
    });
    expect(await search.search(seed.onSale.id, { quantity: 4 })).toMatchObject({ seatIds: expect.any(Array) });
  });
});
