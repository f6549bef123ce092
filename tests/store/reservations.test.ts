import { describe, expect, it } from "vitest";
import { GUEST, type Entitlements, type Inventory } from "~/ticketing/inventory.server";
import { createReservations, type Reservations } from "~/ticketing/reservation-view.server";
import { useSeededStore, type SeededStore } from "../support/engine";
import { DIALECTS, type TestStore } from "../support/stores";

const DECLARED: Entitlements = { restrictions: new Set(["amex", "wheelchair"]), presale: new Set(), companions: 1 };

describe.each(DIALECTS)("changing a reservation on %s", (dialect) => {
  let store: TestStore;
  let seed: SeededStore["seed"];
  let inventory: Inventory;
  let reservations: Reservations;
  let performanceId: string;
  useSeededStore(dialect, (made) => {
    ({ store, seed, inventory } = made);
    reservations = createReservations(store, seed.clock);
    performanceId = seed.onSale.id;
  });

  it("swaps a seat at the seat limit in one step, and a refused swap changes nothing", async () => {
    const four = ["5", "6", "7", "8"].map((label) => seed.seat("A", label));
    expect(await inventory.holdSeats({ basketId: "swap", performanceId, seatIds: four })).toMatchObject({ ok: true });
    // A fifth seat on its own is over the limit of 4…
    expect(
      await inventory.holdSeats({ basketId: "swap", performanceId, seatIds: [seed.seat("A", "9")] }),
    ).toMatchObject({ reason: "seat-limit", seatSelectionLimit: 4 });
    // …but giving one back in the same step is fine.
    expect(
      await inventory.holdSeats({
        basketId: "swap",
        performanceId,
        seatIds: [seed.seat("A", "9")],
        releaseSeatIds: [seed.seat("A", "5")],
      }),
    ).toMatchObject({ ok: true });
    await inventory.holdSeats({ basketId: "other", performanceId, seatIds: [seed.seat("A", "3")] });
    // Taken by someone else: the swap is refused and seat 6 stays held.
    expect(
      await inventory.holdSeats({
        basketId: "swap",
        performanceId,
        seatIds: [seed.seat("A", "3")],
        releaseSeatIds: [seed.seat("A", "6")],
      }),
    ).toMatchObject({ reason: "unavailable" });
    const reservation = await reservations.current("swap");
    expect(reservation?.seats.map((seat) => seat.label)).toEqual(["6", "7", "8", "9"]);
  });

  it("never gives back another basket's seats", async () => {
    await inventory.holdSeats({ basketId: "a", performanceId, seatIds: [seed.seat("A", "5")] });
    await inventory.releasePart({ basketId: "b", performanceId, seatIds: [seed.seat("A", "5")] });
    expect((await reservations.current("a"))?.seats).toHaveLength(1);
    await inventory.releasePart({ basketId: "a", performanceId, seatIds: [seed.seat("A", "5")] });
    expect(await reservations.current("a")).toBeNull();
  });

  it("a companion seat needs the same declaration or membership as the wheelchair space", async () => {
    const companion = seed.seat("A", "2");
    expect(
      await inventory.holdSeats({ basketId: "g", performanceId, seatIds: [companion], entitlements: GUEST }),
    ).toMatchObject({ reason: "restricted" });
    expect(
      await inventory.holdSeats({
        basketId: "g",
        performanceId,
        seatIds: [seed.seat("A", "1"), companion],
        entitlements: DECLARED,
      }),
    ).toMatchObject({ ok: true });
  });

  it("changes a standing quantity in place, within the seat limit", async () => {
    const area = { basketId: "ga", performanceId, sectionId: seed.standingId };
    expect(await inventory.holdStanding({ ...area, quantity: 3 })).toMatchObject({ ok: true });
    expect(await inventory.holdStanding({ ...area, quantity: 2 })).toMatchObject({ reason: "seat-limit" });
    expect(await inventory.holdStanding({ ...area, quantity: 2, replace: true })).toMatchObject({ ok: true });
    const reservation = await reservations.current("ga");
    expect(reservation?.standing).toEqual([expect.objectContaining({ quantity: 2, sectionId: seed.standingId })]);
    await inventory.releasePart({ ...area, standingSectionId: seed.standingId });
    expect(await reservations.current("ga")).toBeNull();
  });

  it("reports the hold's clock, whether it can be extended, and expiry", async () => {
    await inventory.holdSeats({ basketId: "clock", performanceId, seatIds: [seed.seat("A", "5")] });
    let reservation = await reservations.current("clock");
    expect(reservation).toMatchObject({
      performanceId,
      expiresAt: "2026-11-23T12:15:00.000Z",
      expired: false,
      canExtend: true,
      show: expect.objectContaining({ currency: expect.any(String) }),
    });
    expect(reservation?.priceOptions.length).toBeGreaterThan(0);
    for (let step = 0; step < 3; step += 1) await inventory.extendHold(reservation!.holdId);
    reservation = await reservations.current("clock");
    expect(reservation).toMatchObject({ expiresAt: "2026-11-23T12:45:00.000Z", canExtend: false });
    seed.clock.set("2026-11-23T12:45:00.000Z");
    reservation = await reservations.current("clock");
    expect(reservation).toMatchObject({ expired: true, canExtend: false });
  });
});
