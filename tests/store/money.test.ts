import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { newOrderNumber, createOrders } from "~/ticketing/orders.server";
import { priceBasket } from "~/ticketing/pricing";
import { createPromotions, normaliseCode } from "~/ticketing/promotions.server";
import { createVouchers } from "~/ticketing/vouchers.server";
import { insertPromo, insertVoucher } from "../support/money";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

const NOW = "2026-11-23T12:00:00.000Z";
const context = { performanceId: "PERF-1", titleSlug: "test-show", venueSlug: "test-hall", currency: "GBP" };

describe.each(DIALECTS)("promo codes, vouchers and orders on %s", (dialect) => {
  let store: TestStore;
  const clock = fixedClock(NOW);

  beforeAll(async () => {
    store = await createTestStore(dialect, 25);
    const promo = (code: string, values: Parameters<typeof insertPromo>[1] = {}) =>
      insertPromo(store, { code, ...values });
    await promo("SPRING10");
    await promo("OLDCODE", { valid_until: "2026-06-01T00:00:00.000Z" });
    await promo("OTHERSHOW", { scope_kind: "show", scope_ref: "another-show" });
    await promo("HALLONLY", { scope_kind: "venue", scope_ref: "test-hall" });
    await promo("ONCEONLY", { usage_limit: 1 });
    await promo("RACE1", { usage_limit: 1 });
    await promo("TENDOLLARS", { rule_key: "amountOff", percent: null, amount: 1000, currency: "USD" });
    await insertVoucher(store, {
      number: "GV1000000001",
      redemptionCode: "ABC123",
      created_at: NOW,
      expires_at: "2027-11-23T00:00:00.000Z",
    });
    await insertVoucher(store, {
      number: "GV1000000002",
      redemptionCode: "DEF456",
      expires_at: "2026-01-01T00:00:00.000Z",
    });
    await insertVoucher(store, { number: "GC2000000001", redemptionCode: "XYZ789", currency: "USD", kind: "giftCard" });
    await insertVoucher(store, { number: "GV1000000003", redemptionCode: "RACE00", balance: 3000 });
  });
  afterAll(() => store.drop());
  beforeEach(() => clock.set(NOW));

  describe("promo codes", () => {
    it("answers each outcome: empty, invalid, expired, not for this event, used, and success", async () => {
      const promotions = createPromotions(store, clock);
      expect(await promotions.check("   ", context)).toEqual({ ok: false, reason: "empty" });
      expect(await promotions.check("no such code!", context)).toEqual({ ok: false, reason: "invalid" });
      expect(await promotions.check("NOSUCHCODE", context)).toEqual({ ok: false, reason: "invalid" });
      expect(await promotions.check("oldcode", context)).toEqual({ ok: false, reason: "invalid" });
      expect(await promotions.check("OTHERSHOW", context)).toEqual({ ok: false, reason: "notForEvent" });
      expect(await promotions.check("TENDOLLARS", context)).toEqual({ ok: false, reason: "notForEvent" });
      expect(await promotions.check("TENDOLLARS", { ...context, currency: "USD" })).toMatchObject({ ok: true });
      expect(await promotions.check(" hall only ", context)).toMatchObject({ ok: true, promo: { code: "HALLONLY" } });
      expect(await promotions.check("spring10", context)).toMatchObject({
        ok: true,
        promo: { code: "SPRING10", percent: 10 },
      });
      const once = await promotions.check("ONCEONLY", context);
      if (!once.ok) throw new Error(once.reason);
      expect(await promotions.redeem(once.promo.id)).toBe(true);
      expect(await promotions.check("ONCEONLY", context)).toEqual({ ok: false, reason: "alreadyUsed" });
      await promotions.release(once.promo.id);
      expect(await promotions.check("ONCEONLY", context)).toMatchObject({ ok: true });
      expect(normaliseCode(" spring 10 ")).toBe("SPRING10");
    });

    it("20 orders at once for a single-use code: exactly one gets it", async () => {
      const promotions = createPromotions(store, clock);
      const check = await promotions.check("RACE1", context);
      if (!check.ok) throw new Error(check.reason);
      const results = await Promise.all(Array.from({ length: 20 }, () => promotions.redeem(check.promo.id)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });

  describe("gift vouchers", () => {
    it("a wrong number and a wrong code get the same answer; expired and foreign vouchers are refused", async () => {
      const vouchers = createVouchers(store, clock);
      const wrongNumber = await vouchers.lookup("GV9999999999", "ABC123", "GBP", { address: "buyer-1" });
      const wrongCode = await vouchers.lookup("GV1000000001", "WRONG1", "GBP", { address: "buyer-2" });
      expect(wrongNumber).toEqual({ ok: false, reason: "invalid" });
      expect(wrongCode).toEqual(wrongNumber);
      expect(await vouchers.lookup("GV1000000002", "DEF456", "GBP", { address: "buyer-3" })).toEqual({
        ok: false,
        reason: "expired",
      });
      expect(await vouchers.lookup("GC2000000001", "XYZ789", "GBP", { address: "buyer-3" })).toEqual({
        ok: false,
        reason: "wrongCurrency",
      });
      expect(await vouchers.lookup("gv10-0000-0001", " abc123 ", "GBP", { address: "buyer-3" })).toMatchObject({
        ok: true,
        voucher: { number: "GV1000000001", balance: 5000 },
      });
    });

    it("repeated wrong guesses from one address, on any numbers, are slowed, then refused for 30 minutes", async () => {
      const vouchers = createVouchers(store, clock);
      // Another number each time: the address's count, not a number's, is what refuses.
      let tried = 0;
      const guess = () =>
        vouchers.lookup(`GV70000000${String((tried += 1)).padStart(2, "0")}`, "NOPE00", "GBP", {
          address: "guesser",
        });
      for (let attempt = 0; attempt < 3; attempt += 1) expect(await guess()).toEqual({ ok: false, reason: "invalid" });
      expect(await guess()).toEqual({ ok: false, reason: "invalid" });
      // The fourth failure makes the buyer wait 5 seconds, even with the right code.
      expect(await vouchers.lookup("GV1000000001", "ABC123", "GBP", { address: "guesser" })).toMatchObject({
        reason: "tooManyAttempts",
      });
      clock.advance(5_001);
      for (let failures = 5; failures <= 10; failures += 1) {
        expect(await guess()).toEqual({ ok: false, reason: "invalid" });
        clock.advance(10 * 60_000);
      }
      clock.set("2026-11-23T13:00:30.000Z");
      expect(await guess()).toMatchObject({ reason: "tooManyAttempts" });
      // Another address is not held up.
      expect(await vouchers.lookup("GV1000000001", "ABC123", "GBP", { address: "someone-else" })).toMatchObject({
        ok: true,
      });
    });

    it("partial redemption leaves the rest, every movement is in the ledger, and a failed order gets it back", async () => {
      const vouchers = createVouchers(store, clock);
      const found = await vouchers.lookup("GV1000000001", "ABC123", "GBP", { address: "ledger" });
      if (!found.ok) throw new Error(found.reason);
      const id = found.voucher.id;
      expect(await vouchers.redeem(id, 1500, "order-a")).toBe(true);
      expect(await vouchers.balanceOf(id)).toBe(3500);
      expect(await vouchers.redeem(id, 4000, "order-b")).toBe(false);
      expect(await vouchers.redeem(id, 0, "order-b")).toBe(false);
      expect(await vouchers.refundOrder("order-a")).toBe(1500);
      expect(await vouchers.refundOrder("order-a")).toBe(0);
      expect(await vouchers.balanceOf(id)).toBe(5000);
      const ledger = await store.db
        .selectFrom("voucher_movements")
        .select(["amount", "reason"])
        .where("voucher_id", "=", id)
        .orderBy("created_at")
        .execute();
      expect(ledger.map((movement) => [movement.reason, movement.amount]).sort()).toEqual([
        ["redeemed", -1500],
        ["refunded", 1500],
      ]);
    });

    it("two orders spending one voucher at once: the balance never goes below zero", async () => {
      const vouchers = createVouchers(store, clock);
      const found = await vouchers.lookup("GV1000000003", "RACE00", "GBP", { address: "race" });
      if (!found.ok) throw new Error(found.reason);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, index) => vouchers.redeem(found.voucher.id, 2000, `race-order-${index}`)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await vouchers.balanceOf(found.voucher.id)).toBe(1000);
    });
  });

  describe("orders", () => {
    const priced = priceBasket({
      currency: "GBP",
      tickets: [{ ref: "A5", priceOptionId: "full", faceValue: 6500, bookingFee: 300 }],
      extras: [],
      membership: null,
      protection: { chosen: false, feePerTicket: 250 },
      delivery: { method: "eTicket", fee: 0 },
      transactionFee: 295,
      benefits: { protectionIncluded: false, noTransactionFee: false },
      promo: null,
      vouchers: [],
    });
    const order = (basketId: string) => ({
      basketId,
      customerName: "Jo Bloggs",
      email: "jo@example.com",
      performanceId: null,
      showName: "Test Show",
      deliveryMethod: "eTicket",
      priced,
      promoCodeId: null,
      contacts: null,
    });

    it("one order per basket, however many requests arrive at once", async () => {
      const orders = createOrders(store, clock);
      const results = await Promise.all(Array.from({ length: 10 }, () => orders.createOnce(order("basket-race"))));
      expect(new Set(results.map((result) => result.order.id)).size).toBe(1);
      expect(results.filter((result) => result.created)).toHaveLength(1);
      expect(results[0]!.order).toMatchObject({ status: "pending_payment", total: 7095, to_pay: 7095 });
    });

    it("numbers are short, unambiguous and random", () => {
      const numbers = Array.from({ length: 2000 }, newOrderNumber);
      for (const number of numbers) expect(number).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
      expect(new Set(numbers).size).toBe(numbers.length);
    });

    it("a payment attempt is on record before the provider answers, and an order settles once", async () => {
      const orders = createOrders(store, clock);
      const { order: created } = await orders.createOnce(order("basket-pay"));
      const terms = { currency: created.currency, accepted_brands: "visa,mastercard,amex" };
      const attempt = await orders.recordPaymentAttempt(created.id, "card", created.to_pay, `${created.id}:1`, terms);
      expect(await orders.payments(created.id)).toMatchObject([{ id: attempt!.id, status: "attempted", amount: 7095 }]);
      // The same idempotency key again is the same attempt, not a second one.
      expect(
        await orders.recordPaymentAttempt(created.id, "card", created.to_pay, `${created.id}:1`, terms),
      ).toBeUndefined();
      expect(await orders.updatePayment(attempt!.id, ["attempted"], { status: "succeeded" })).toBe(true);
      // A late second answer (a timeout racing the gateway) cannot move it again.
      expect(await orders.updatePayment(attempt!.id, ["attempted"], { status: "timedOut" })).toBe(false);
      expect(await orders.payments(created.id)).toMatchObject([{ status: "succeeded" }]);
      expect(await orders.settle(created.id, "paid")).toBe(true);
      expect(await orders.settle(created.id, "cancelled")).toBe(false);
      expect((await orders.byNumber(created.number.toLowerCase()))?.status).toBe("paid");
    });
  });
});
