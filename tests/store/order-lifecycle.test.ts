import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEngine, seedSmallCatalogue } from "../support/engine";
import { insertPromo, insertVoucher } from "../support/money";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

const JO = { name: "Jo Bloggs", email: "jo@example.com" };

describe.each(DIALECTS)("placing and settling orders on %s", (dialect) => {
  let store: TestStore;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  let engine: ReturnType<typeof build>;

  const build = () => createEngine(store, seed.clock);

  async function basketWith(seats: string[], extras: { promoId?: string; voucherId?: string } = {}) {
    const basketId = randomUUID();
    const held = await engine.inventory.holdSeats({
      basketId,
      performanceId: seed.onSale.id,
      seatIds: seats.map((label) => seed.seat("A", label)),
    });
    if (!held.ok) throw new Error(held.reason);
    if (extras.promoId) await engine.baskets.setPromo(basketId, extras.promoId);
    if (extras.voucherId) await engine.baskets.addVoucher(basketId, extras.voucherId);
    return basketId;
  }

  const newPromo = (usageLimit: number | null) => insertPromo(store, { percent: 50, usage_limit: usageLimit });
  const newVoucher = (balance: number) => insertVoucher(store, { balance });

  beforeAll(async () => {
    store = await createTestStore(dialect, 20);
    seed = await seedSmallCatalogue(store);
    engine = build();
  });
  afterAll(() => store.drop());
  beforeEach(async () => {
    seed.clock.set("2026-11-23T12:00:00.000Z");
    await store.db.deleteFrom("seat_claims").where("status", "!=", "withheld").execute();
  });

  it("a repeated or simultaneous 'place order' makes one order and spends the code and the voucher once", async () => {
    const promoId = await newPromo(null);
    const voucherId = await newVoucher(1000);
    const basketId = await basketWith(["5", "6"], { promoId, voucherId });
    // One page, Pay pressed five times: every press carries the amount that page showed.
    const shown = await engine.baskets.price(basketId);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => engine.place(basketId, JO, { toPay: shown!.priced.toPay })),
    );
    const ids = new Set(results.map((result) => (result.ok ? result.order.id : result.reason)));
    expect(ids.size).toBe(1);
    const order = results[0]!.ok ? results[0]!.order : undefined;
    // 2 × £68.00, less 50% of £130.00 face value, plus the £2.50 fee; £10 from the voucher.
    expect(order).toMatchObject({
      status: "pending_payment",
      total: 13600 - 6500 + 250,
      to_pay: 13600 - 6500 + 250 - 1000,
    });
    expect(await engine.vouchers.balanceOf(voucherId)).toBe(0);
    const promo = await store.db
      .selectFrom("promo_codes")
      .select("used_count")
      .where("id", "=", promoId)
      .executeTakeFirstOrThrow();
    expect(promo.used_count).toBe(1);
  });

  it("a single-use code already spent by another order: refused, and the second order is cancelled", async () => {
    const promoId = await newPromo(1);
    const first = await engine.placeAsShown(await basketWith(["3"], { promoId }), JO);
    expect(first.ok).toBe(true);
    const second = await engine.placeAsShown(await basketWith(["4"], { promoId }), JO);
    expect(second).toEqual({ ok: false, reason: "promoUsed" });
  });

  it("refuses an empty basket, and one whose prices changed since the buyer accepted them", async () => {
    // A basket with nothing in it (its seats given back, its membership taken out).
    const empty = randomUUID();
    await engine.baskets.setMembership(empty, null);
    expect(await engine.placeAsShown(empty, JO)).toEqual({ ok: false, reason: "empty" });
    const basketId = await basketWith(["7"]);
    await engine.baskets.acknowledgePrices(basketId, "an older price");
    expect(await engine.placeAsShown(basketId, JO)).toEqual({ ok: false, reason: "priceChanged" });
  });

  it("places the order only at the amount the buyer's Pay button showed", async () => {
    const voucherId = await newVoucher(1000);
    const first = await basketWith(["3"], { voucherId });
    const second = await basketWith(["4"], { voucherId });
    const shown = await engine.baskets.price(second);
    await engine.baskets.acknowledgePrices(second, shown!.fingerprint);
    // Both pages show the voucher's £10 taken off; the first buyer pays and spends it.
    expect((await engine.placeAsShown(first, JO)).ok).toBe(true);
    // The second page still says the old amount: stopped, nothing placed, nothing spent.
    expect(await engine.place(second, JO, { toPay: shown!.priced.toPay })).toEqual({
      ok: false,
      reason: "priceChanged",
    });
    expect(await engine.orders.byBasket(second)).toBeUndefined();
    // The basket itself knows the price moved, so the page shows the alert.
    const now = await engine.baskets.price(second);
    expect(now).toMatchObject({ changed: true, priced: { toPay: shown!.priced.toPay + 1000 } });
    // Once the buyer has seen the new total, that total is what is placed.
    await engine.baskets.acknowledgePrices(second, now!.fingerprint);
    expect(await engine.place(second, JO, { toPay: now!.priced.toPay })).toMatchObject({
      ok: true,
      order: { to_pay: now!.priced.toPay },
    });
  });

  it("a second Pay from a page showing another amount than the order's is refused, not charged", async () => {
    const basketId = await basketWith(["5"]);
    const placed = await engine.placeAsShown(basketId, JO);
    if (!placed.ok) throw new Error(placed.reason);
    expect(await engine.place(basketId, JO, { toPay: placed.order.to_pay + 1 })).toEqual({
      ok: false,
      reason: "priceChanged",
    });
    expect(await engine.place(basketId, JO, { toPay: placed.order.to_pay })).toMatchObject({
      ok: true,
      order: { id: placed.order.id },
    });
  });

  it("completing sells the seats for good; failing gives the money and the code back", async () => {
    const promoId = await newPromo(1);
    const voucherId = await newVoucher(500);
    const paid = await engine.placeAsShown(await basketWith(["8"]), JO);
    if (!paid.ok) throw new Error(paid.reason);
    expect(await engine.orderLifecycle.completeOrder(paid.order)).toEqual({ ok: true });
    expect((await engine.orders.byBasket(paid.order.basket_id))?.status).toBe("paid");
    seed.clock.advance(60 * 60_000);
    expect(
      await engine.inventory.holdSeats({
        basketId: "late",
        performanceId: seed.onSale.id,
        seatIds: [seed.seat("A", "8")],
      }),
    ).toMatchObject({
      reason: "unavailable",
    });

    seed.clock.set("2026-11-23T12:00:00.000Z");
    const failing = await engine.placeAsShown(await basketWith(["9"], { promoId, voucherId }), JO);
    if (!failing.ok) throw new Error(failing.reason);
    expect(await engine.vouchers.balanceOf(voucherId)).toBe(0);
    await engine.orderLifecycle.failOrder(failing.order, "failed");
    await engine.orderLifecycle.failOrder(failing.order, "failed");
    expect(await engine.vouchers.balanceOf(voucherId)).toBe(500);
    const promo = await store.db
      .selectFrom("promo_codes")
      .select("used_count")
      .where("id", "=", promoId)
      .executeTakeFirstOrThrow();
    expect(promo.used_count).toBe(0);
    expect((await engine.orders.byBasket(failing.order.basket_id))?.status).toBe("failed");
  });

  it("an order whose hold ran out before payment completed is not sold", async () => {
    const placed = await engine.placeAsShown(await basketWith(["3"]), JO);
    if (!placed.ok) throw new Error(placed.reason);
    seed.clock.advance(16 * 60_000);
    expect(await engine.orderLifecycle.completeOrder(placed.order)).toEqual({ ok: false, reason: "expired" });
  });
});
