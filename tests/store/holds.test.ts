import { describe, expect, it } from "vitest";
import { EXPIRED_CLAIMS_KEPT_MS, GUEST, type Entitlements, type Inventory } from "~/ticketing/inventory.server";
import { useSeededStore, type SeededStore } from "../support/engine";
import { DIALECTS, type TestStore } from "../support/stores";

const ACCESS_MEMBER: Entitlements = {
  restrictions: new Set(["amex", "wheelchair", "accessZone"]),
  presale: new Set(),
  companions: 1,
};
const PLUS_MEMBER: Entitlements = { restrictions: new Set(["amex"]), presale: new Set(["plus-member"]), companions: 1 };

describe.each(DIALECTS)("seat holds on %s", (dialect) => {
  let store: TestStore;
  let seed: SeededStore["seed"];
  let inventory: Inventory;
  let performanceId: string;
  useSeededStore(dialect, (made) => {
    ({ store, seed, inventory } = made);
    performanceId = seed.onSale.id;
  });

  it("holds free seats for 15 minutes, and no one else can take them", async () => {
    const held = await inventory.holdSeats({
      basketId: "b1",
      performanceId,
      seatIds: [seed.seat("A", "5"), seed.seat("A", "6")],
    });
    expect(held).toMatchObject({ ok: true, expiresAt: "2026-11-23T12:15:00.000Z" });
    const other = await inventory.holdSeats({
      basketId: "b2",
      performanceId,
      seatIds: [seed.seat("A", "6"), seed.seat("A", "7")],
    });
    expect(other).toEqual({ ok: false, reason: "unavailable", seatIds: [seed.seat("A", "6")] });
    // All or nothing: A7 was free, but it was not held either.
    const claims = await store.db.selectFrom("seat_claims").select("seat_id").where("status", "=", "held").execute();
    expect(claims.map((claim) => claim.seat_id).sort()).toEqual([seed.seat("A", "5"), seed.seat("A", "6")].sort());
  });

  it("an expired hold frees its seats at read time", async () => {
    await inventory.holdSeats({ basketId: "b1", performanceId, seatIds: [seed.seat("A", "5")] });
    seed.clock.advance(15 * 60_000 + 1);
    expect(await inventory.holdSeats({ basketId: "b2", performanceId, seatIds: [seed.seat("A", "5")] })).toMatchObject({
      ok: true,
    });
  });

  it("the sweeper removes expired holds", async () => {
    await inventory.holdSeats({ basketId: "b1", performanceId, seatIds: [seed.seat("A", "5"), seed.seat("A", "6")] });
    await inventory.holdStanding({ basketId: "b1", performanceId, sectionId: seed.standingId, quantity: 2 });
    expect(await inventory.sweepExpired()).toBe(0);
    // Expired, but kept a while so the buyer's page can still say what the reservation held.
    seed.clock.advance(16 * 60_000);
    expect(await inventory.sweepExpired()).toBe(0);
    seed.clock.advance(EXPIRED_CLAIMS_KEPT_MS);
    expect(await inventory.sweepExpired()).toBe(3);
  });

  it("enforces the seat limit per purchase, counting seats and standing places together", async () => {
    const seats = ["3", "4", "5"].map((label) => seed.seat("A", label));
    expect(await inventory.holdSeats({ basketId: "b1", performanceId, seatIds: seats })).toMatchObject({ ok: true });
    expect(
      await inventory.holdStanding({ basketId: "b1", performanceId, sectionId: seed.standingId, quantity: 2 }),
    ).toEqual({
      ok: false,
      reason: "seat-limit",
      seatSelectionLimit: 4,
    });
    expect(await inventory.holdSeats({ basketId: "b1", performanceId, seatIds: [seed.seat("A", "6")] })).toMatchObject({
      ok: true,
    });
    expect(await inventory.holdSeats({ basketId: "b1", performanceId, seatIds: [seed.seat("A", "7")] })).toMatchObject({
      reason: "seat-limit",
    });
  });

  it("restricted seats: wheelchair and access-zone seats need access membership; promotional seats need a promo", async () => {
    const wheelchair = seed.seat("A", "1");
    const accessZone = seed.seat("A", "10");
    const promotional = seed.seat("B", "2");
    const amex = seed.seat("B", "1");
    expect(await inventory.holdSeats({ basketId: "g", performanceId, seatIds: [wheelchair] })).toMatchObject({
      reason: "restricted",
    });
    expect(await inventory.holdSeats({ basketId: "g", performanceId, seatIds: [accessZone] })).toMatchObject({
      reason: "restricted",
    });
    expect(await inventory.holdSeats({ basketId: "g", performanceId, seatIds: [promotional] })).toMatchObject({
      reason: "restricted",
    });
    // Sponsored (Amex) seats can be selected by anyone; payment is where the card brand is enforced.
    expect(
      await inventory.holdSeats({ basketId: "g", performanceId, seatIds: [amex], entitlements: GUEST }),
    ).toMatchObject({ ok: true });
    expect(
      await inventory.holdSeats({
        basketId: "m",
        performanceId,
        seatIds: [wheelchair, seed.seat("A", "2")],
        entitlements: ACCESS_MEMBER,
      }),
    ).toMatchObject({ ok: true });
  });

  it("a withheld seat, or one that does not exist, cannot be held", async () => {
    expect(await inventory.holdSeats({ basketId: "b1", performanceId, seatIds: [seed.seat("B", "10")] })).toMatchObject(
      { reason: "unavailable" },
    );
    expect(await inventory.holdSeats({ basketId: "b1", performanceId, seatIds: [999_999] })).toMatchObject({
      reason: "not-found",
    });
    expect(
      await inventory.holdSeats({
        basketId: "b1",
        performanceId: "no-such-performance",
        seatIds: [seed.seat("A", "5")],
      }),
    ).toMatchObject({
      reason: "not-found",
    });
  });

  it("presale: only the qualifying audience, until general sale opens", async () => {
    const presale = seed.inPresale.id;
    const seatIds = [seed.seat("A", "5")];
    expect(await inventory.holdSeats({ basketId: "g", performanceId: presale, seatIds })).toMatchObject({
      reason: "presale",
    });
    expect(
      await inventory.holdSeats({ basketId: "m", performanceId: presale, seatIds, entitlements: PLUS_MEMBER }),
    ).toMatchObject({ ok: true });
    seed.clock.set(seed.inPresale.on_sale_from);
    expect(
      await inventory.holdSeats({ basketId: "g", performanceId: presale, seatIds: [seed.seat("A", "6")] }),
    ).toMatchObject({ ok: true });
  });

  it("sales close when the performance starts", async () => {
    seed.clock.set(seed.onSale.starts_at);
    expect(await inventory.holdSeats({ basketId: "g", performanceId, seatIds: [seed.seat("A", "5")] })).toMatchObject({
      reason: "sales-closed",
    });
  });

  it("extends a hold by 10 minutes at a time, up to 45 minutes; an expired hold cannot be extended", async () => {
    const held = await inventory.holdSeats({ basketId: "b1", performanceId, seatIds: [seed.seat("A", "5")] });
    if (!held.ok) throw new Error(held.reason);
    expect(await inventory.extendHold(held.holdId)).toMatchObject({ ok: true, expiresAt: "2026-11-23T12:25:00.000Z" });
    expect(await inventory.extendHold(held.holdId)).toMatchObject({ expiresAt: "2026-11-23T12:35:00.000Z" });
    expect(await inventory.extendHold(held.holdId)).toMatchObject({ expiresAt: "2026-11-23T12:45:00.000Z" });
    expect(await inventory.extendHold(held.holdId)).toMatchObject({ reason: "extension-limit" });
    seed.clock.set("2026-11-23T12:44:00.000Z");
    // Still held at 12:44 for this buyer, so no one else can have it.
    expect(await inventory.holdSeats({ basketId: "b2", performanceId, seatIds: [seed.seat("A", "5")] })).toMatchObject({
      reason: "unavailable",
    });
    seed.clock.set("2026-11-23T12:45:00.000Z");
    expect(await inventory.extendHold(held.holdId)).toMatchObject({ reason: "expired" });
  });

  it("release frees the seats at once", async () => {
    const held = await inventory.holdSeats({ basketId: "b1", performanceId, seatIds: [seed.seat("A", "5")] });
    if (!held.ok) throw new Error(held.reason);
    await inventory.releaseHold(held.holdId);
    expect(await inventory.holdSeats({ basketId: "b2", performanceId, seatIds: [seed.seat("A", "5")] })).toMatchObject({
      ok: true,
    });
  });

  it("selling a hold keeps the seats after the hold's time; an expired hold cannot be sold", async () => {
    const held = await inventory.holdSeats({
      basketId: "b1",
      performanceId,
      seatIds: [seed.seat("A", "5"), seed.seat("A", "6")],
    });
    if (!held.ok) throw new Error(held.reason);
    expect(await inventory.sellHold(held.holdId, "order-1")).toEqual({ ok: true, seats: 2, standing: 0 });
    seed.clock.advance(60 * 60_000);
    expect(await inventory.holdSeats({ basketId: "b2", performanceId, seatIds: [seed.seat("A", "5")] })).toMatchObject({
      reason: "unavailable",
    });

    const late = await inventory.holdSeats({ basketId: "b3", performanceId, seatIds: [seed.seat("A", "7")] });
    if (!late.ok) throw new Error(late.reason);
    seed.clock.advance(20 * 60_000);
    expect(await inventory.sellHold(late.holdId, "order-2")).toMatchObject({ reason: "expired" });
  });

  it("standing places: within the area's capacity", async () => {
    expect(
      await inventory.holdStanding({ basketId: "b1", performanceId, sectionId: seed.standingId, quantity: 3 }),
    ).toMatchObject({ ok: true });
    expect(
      await inventory.holdStanding({ basketId: "b2", performanceId, sectionId: seed.standingId, quantity: 3 }),
    ).toMatchObject({
      reason: "unavailable",
    });
    expect(
      await inventory.holdStanding({ basketId: "b2", performanceId, sectionId: seed.standingId, quantity: 2 }),
    ).toMatchObject({ ok: true });
    expect(
      await inventory.holdStanding({ basketId: "b3", performanceId, sectionId: seed.standingId, quantity: 0 }),
    ).toMatchObject({
      reason: "not-found",
    });
  });
});
