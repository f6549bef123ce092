import { addMinutes } from "date-fns";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { GatewayResult, PaymentGateway } from "~/payments/gateway";
import { createLogger } from "~/logging/logger.server";
import { createPaymentService } from "~/use-cases/pay.server";
import type { Order } from "~/ticketing/orders.server";
import { createEngine, seedSmallCatalogue } from "../support/engine";
import { insertVoucher } from "../support/money";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// The payment service over a real store and a gateway whose answers each test scripts: one charge
// however often Pay is pressed, a declined card that can be retried, a timeout whose late answer is
// voided, and a hold that expires while the buyer is at the bank — never an oversold seat.

const JO = { name: "Jo Bloggs", email: "jo@example.com" };
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvv: "123", holderName: "Jo Bloggs" };
const REQUEST = { description: "Test order", returnUrl: "/checkout/verify" };
const TIMEOUT_MS = 30_000;

/** A gateway whose every call waits on the test: `next` answers the oldest call still waiting. */
function scriptedGateway() {
  const waiting: { key: string; resolve: (result: GatewayResult) => void }[] = [];
  const calls: { kind: string; key: string }[] = [];
  const captured: string[] = [];
  const voided: string[] = [];
  const call = (kind: string, key: string) => {
    calls.push({ kind, key });
    return new Promise<GatewayResult>((resolve) => waiting.push({ key, resolve }));
  };
  const gateway: PaymentGateway = {
    name: "scripted",
    cardBrands: ["visa", "mastercard", "amex"],
    offers: { cardEntry: "onSite", paypal: true, wallets: true },
    authorise: (request) => call("authorise", request.idempotencyKey),
    startHostedCard: (request) => call("hosted", request.idempotencyKey),
    returnedReference: (query) => query.get("reference"),
    startPayPal: (request) => call("paypal", request.idempotencyKey),
    authoriseWallet: (request) => call("wallet", request.idempotencyKey),
    continue: (reference) => call("continue", reference),
    capture: async (reference) => {
      captured.push(reference);
      return { ok: true };
    },
    void: async (reference) => {
      voided.push(reference);
      return { ok: true };
    },
    refund: async () => ({ ok: true }),
    status: async () => ({ status: "unknown" }),
    // A notification is "signed" by a header the test sets; its body names the payment and the answer.
    parseNotification: async (body, headers) =>
      headers.get("x-test-signature") === "genuine"
        ? { eventId: null, ...(JSON.parse(body) as { idempotencyKey: string; result: GatewayResult }) }
        : null,
  };
  return {
    gateway,
    calls,
    captured,
    voided,
    /** Answers the oldest waiting call, once it has been made. */
    async next(result: GatewayResult) {
      for (let tries = 0; waiting.length === 0 && tries < 100; tries += 1) await new Promise((r) => setTimeout(r, 5));
      waiting.shift()!.resolve(result);
      // Lets the service apply the answer before the test looks.
      await new Promise((r) => setTimeout(r, 50));
    },
  };
}

const authorised = (reference: string): GatewayResult => ({
  status: "authorised",
  reference,
  brand: "visa",
  last4: "4242",
  // Not reported: what these tests are about is not the amount (tests/store/payment-terms.test.ts is).
  amount: null,
  currency: null,
});

describe.each(DIALECTS)("paying for orders on %s", (dialect) => {
  let store: TestStore;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;

  function build(inlineWaitMs = 1000) {
    const { inventory, baskets, orders, vouchers, orderLifecycle, placeAsShown, holdAndPlace } = createEngine(
      store,
      seed.clock,
    );
    const scripted = scriptedGateway();
    const paid: string[] = [];
    const payments = createPaymentService({
      orders,
      orderLifecycle,
      gateway: scripted.gateway,
      clock: seed.clock,
      logger: createLogger("silent"),
      timeoutMs: TIMEOUT_MS,
      inlineWaitMs,
      onPaid: async (order) => {
        paid.push(order.id);
      },
    });
    return {
      inventory,
      baskets,
      orders,
      vouchers,
      orderLifecycle,
      placeAsShown,
      holdAndPlace,
      payments,
      scripted,
      paid,
    };
  }

  const basketWith = (engine: ReturnType<typeof build>, seat: string, voucherId?: string) =>
    engine.holdAndPlace(seed.onSale.id, [seed.seat("B", seat)], { voucherId }, JO);

  const seatStatus = (seat: string) => seed.seatStatus("B", seat);
  const reload = async (engine: ReturnType<typeof build>, order: Order) => (await engine.orders.byId(order.id))!;

  beforeAll(async () => {
    store = await createTestStore(dialect, 20);
    seed = await seedSmallCatalogue(store);
  });
  afterAll(() => store.drop());
  beforeEach(async () => {
    seed.clock.set("2026-11-23T12:00:00.000Z");
    await store.db.deleteFrom("seat_claims").where("status", "!=", "withheld").execute();
  });

  it("an authorised card sells the seat, captures once and pays the order", async () => {
    const engine = build();
    const { order } = await basketWith(engine, "3");
    const paying = engine.payments.pay(order, { method: "card", card: CARD }, REQUEST);
    await engine.scripted.next(authorised("ref-1"));
    expect(await paying).toEqual({ kind: "paid" });
    expect((await reload(engine, order)).status).toBe("paid");
    expect(await seatStatus("3")).toEqual({ status: "sold", order_id: order.id });
    expect(engine.scripted.captured).toEqual(["ref-1"]);
    expect(engine.paid).toEqual([order.id]);
    expect(await engine.orders.payments(order.id)).toMatchObject([
      { status: "succeeded", brand: "visa", last4: "4242", idempotency_key: `${order.id}:1` },
    ]);
  });

  it("Pay pressed five times at once reaches the gateway once", async () => {
    const engine = build(50);
    const { order } = await basketWith(engine, "4");
    const presses = Promise.all(
      Array.from({ length: 5 }, () => engine.payments.pay(order, { method: "card", card: CARD }, REQUEST)),
    );
    await engine.scripted.next(authorised("ref-2"));
    await presses;
    expect(engine.scripted.calls).toHaveLength(1);
    expect(engine.scripted.captured).toEqual(["ref-2"]);
    expect(await engine.orders.payments(order.id)).toHaveLength(1);
    // And pressing it again afterwards only says it is paid.
    expect(await engine.payments.pay(order, { method: "card", card: CARD }, REQUEST)).toEqual({ kind: "paid" });
    expect(engine.scripted.calls).toHaveLength(1);
  });

  it("a declined card gives the voucher's money back, keeps the seat held, and another card pays the same order", async () => {
    const engine = build();
    const voucherId = await insertVoucher(store, { balance: 500 });
    const { order, basketId } = await basketWith(engine, "5", voucherId);
    expect(await engine.vouchers.balanceOf(voucherId)).toBe(0);
    const first = engine.payments.pay(order, { method: "card", card: CARD }, REQUEST);
    await engine.scripted.next({
      status: "declined",
      reference: "ref-3a",
      failure: "insufficientFunds",
      brand: "visa",
      last4: "9995",
    });
    expect(await first).toEqual({ kind: "failed", failure: "insufficientFunds", method: "card" });
    expect((await reload(engine, order)).status).toBe("failed");
    expect(await engine.vouchers.balanceOf(voucherId)).toBe(500);
    expect(await seatStatus("5")).toMatchObject({ status: "held" });

    const again = await engine.placeAsShown(basketId, JO);
    expect(again).toMatchObject({ ok: true, order: { id: order.id, number: order.number, status: "pending_payment" } });
    expect(await engine.vouchers.balanceOf(voucherId)).toBe(0);
    const second = engine.payments.pay((again as { order: Order }).order, { method: "card", card: CARD }, REQUEST);
    await engine.scripted.next(authorised("ref-3b"));
    expect(await second).toEqual({ kind: "paid" });
    expect(engine.scripted.calls.map((call) => call.key)).toEqual([`${order.id}:1`, `${order.id}:2`]);
    expect(await seatStatus("5")).toEqual({ status: "sold", order_id: order.id });
  });

  it("the gateway's notification pays an order whose answer never came back, once, however often it comes", async () => {
    const engine = build(20);
    const { order } = await basketWith(engine, "3");
    expect(await engine.payments.pay(order, { method: "card", card: CARD }, REQUEST)).toMatchObject({
      kind: "processing",
    });
    const notice = JSON.stringify({ idempotencyKey: `${order.id}:1`, result: authorised("ref-n") });
    const genuine = new Headers({ "x-test-signature": "genuine" });
    expect(await engine.payments.notify(notice, new Headers())).toBe(false);
    expect((await reload(engine, order)).status).toBe("pending_payment");
    expect(await engine.payments.notify(notice, genuine)).toBe(true);
    expect(await engine.payments.notify(notice, genuine)).toBe(true);
    expect((await reload(engine, order)).status).toBe("paid");
    expect(await seatStatus("3")).toEqual({ status: "sold", order_id: order.id });
    // The call's own answer, arriving last, changes nothing and gives no money back.
    await engine.scripted.next(authorised("ref-n"));
    expect(engine.scripted.captured).toEqual(["ref-n"]);
    expect(engine.scripted.voided).toEqual([]);
    expect(engine.paid).toEqual([order.id]);
    expect(await engine.orders.payments(order.id)).toMatchObject([{ status: "succeeded" }]);
    const stranger = JSON.stringify({ idempotencyKey: "not-ours:1", result: authorised("ref-x") });
    expect(await engine.payments.notify(stranger, genuine)).toBe(false);
  });

  it("a notification delivered again is applied once, by its event id; one about nothing of ours is acknowledged", async () => {
    const engine = build(20);
    const { order } = await basketWith(engine, "6");
    await engine.payments.pay(order, { method: "card", card: CARD }, REQUEST);
    const challenge: GatewayResult = {
      status: "actionRequired",
      reference: "ref-e",
      action: { kind: "challenge", url: "https://bank.example/3ds", method: "GET", fields: {} },
      brand: "visa",
      last4: "4242",
    };
    const genuine = new Headers({ "x-test-signature": "genuine" });
    // The call's own answer sends the buyer to the bank; the provider's event says the same.
    await engine.scripted.next(challenge);
    const event = JSON.stringify({ eventId: "evt_1", idempotencyKey: `${order.id}:1`, result: challenge });
    expect(await engine.payments.notify(event, genuine)).toBe(true);
    expect(await engine.orders.payments(order.id)).toMatchObject([{ status: "action" }]);
    // The buyer is back from the bank: the payment is being asked about again...
    const resumed = engine.payments.resume(order, "ref-e", {});
    for (let tries = 0; engine.scripted.calls.length < 2 && tries < 100; tries += 1)
      await new Promise((r) => setTimeout(r, 5));
    expect(await engine.orders.payments(order.id)).toMatchObject([{ status: "attempted" }]);
    // ...when the provider delivers the old event again: it must not send the buyer back to the bank.
    expect(await engine.payments.notify(event, genuine)).toBe(true);
    expect(await engine.orders.payments(order.id)).toMatchObject([{ status: "attempted" }]);
    await engine.scripted.next(authorised("ref-e"));
    await resumed;
    expect((await reload(engine, order)).status).toBe("paid");
    const unrelated = JSON.stringify({ eventId: "evt_2", idempotencyKey: "", result: { status: "unknown" } });
    expect(await engine.payments.notify(unrelated, genuine)).toBe(true);
  });

  it("no answer in time is a timeout; an authorisation arriving after it is voided and sells nothing", async () => {
    const engine = build(20);
    const { order } = await basketWith(engine, "6");
    expect(await engine.payments.pay(order, { method: "card", card: CARD }, REQUEST)).toMatchObject({
      kind: "processing",
    });
    expect(await engine.payments.state(order)).toMatchObject({ kind: "processing" });
    seed.clock.set(new Date(seed.clock.now().getTime() + TIMEOUT_MS).toISOString());
    expect(await engine.payments.state(order)).toEqual({ kind: "timedOut", method: "card" });
    expect((await reload(engine, order)).status).toBe("failed");
    await engine.scripted.next(authorised("ref-late"));
    expect(engine.scripted.voided).toEqual(["ref-late"]);
    expect(engine.scripted.captured).toEqual([]);
    expect(await seatStatus("6")).toMatchObject({ status: "held" });
    expect(await engine.orders.payments(order.id)).toMatchObject([{ status: "voided" }]);
  });

  it("an authorisation applied just as the timeout passes: one outcome, never sold seats on a failed order or a paid order without its money", async () => {
    const engine = build(20);
    const voucherId = await insertVoucher(store, { balance: 100 });
    const { order } = await basketWith(engine, "7", voucherId);
    expect(await engine.payments.pay(order, { method: "card", card: CARD }, REQUEST)).toMatchObject({
      kind: "processing",
    });
    // The buyer's verify page asks again at the very moment the answer is being applied.
    const complete = engine.orderLifecycle.completeOrder;
    engine.orderLifecycle.completeOrder = async (placed) => {
      seed.clock.set(new Date(seed.clock.now().getTime() + TIMEOUT_MS).toISOString());
      await engine.payments.state(placed);
      return complete(placed);
    };
    await engine.scripted.next(authorised("ref-race"));
    engine.orderLifecycle.completeOrder = complete;

    const final = await reload(engine, order);
    const [payment] = await engine.orders.payments(order.id);
    if (final.status === "paid") {
      // The answer won: sold, captured once, tickets issued, the voucher's money kept.
      expect(payment).toMatchObject({ status: "succeeded" });
      expect(await seatStatus("7")).toEqual({ status: "sold", order_id: order.id });
      expect(engine.scripted.captured).toEqual(["ref-race"]);
      expect(engine.paid).toEqual([order.id]);
    } else {
      // The timeout won: nothing sold, nothing charged, the voucher's money back.
      expect(final.status).toBe("failed");
      expect(await seatStatus("7")).toMatchObject({ status: "held" });
      expect(engine.scripted.captured).toEqual([]);
      expect(engine.scripted.voided).toEqual(["ref-race"]);
      expect(await engine.vouchers.balanceOf(voucherId)).toBe(100);
    }
  });

  it("two buyers whose holds overlapped after expiry both pay: one order, the seat sold once, the other voided", async () => {
    const engine = build();
    const first = await basketWith(engine, "7");
    // The first buyer goes to their bank's 3-D Secure page…
    const paying = engine.payments.pay(first.order, { method: "card", card: CARD }, REQUEST);
    await engine.scripted.next({
      status: "actionRequired",
      reference: "ref-5a",
      action: { kind: "challenge", url: "/sandbox/challenge/ref-5a", method: "POST", fields: {} },
      brand: "visa",
      last4: "3220",
    });
    expect(await paying).toMatchObject({ kind: "action" });
    // …and stays there past the hold, while a second buyer holds the same seat and pays.
    seed.clock.set(addMinutes(seed.clock.now(), 16).toISOString());
    const second = await basketWith(engine, "7");
    const secondPaying = engine.payments.pay(second.order, { method: "card", card: CARD }, REQUEST);
    await engine.scripted.next(authorised("ref-5b"));
    expect(await secondPaying).toEqual({ kind: "paid" });
    // The first buyer's bank now says yes, too late.
    const resumed = engine.payments.resume(first.order, "ref-5a", { outcome: "pass" });
    await engine.scripted.next(authorised("ref-5a"));
    expect(await resumed).toEqual({ kind: "failed", failure: "holdExpired", method: "card" });
    expect(engine.scripted.voided).toEqual(["ref-5a"]);
    expect(engine.scripted.captured).toEqual(["ref-5b"]);
    expect(await seatStatus("7")).toEqual({ status: "sold", order_id: second.order.id });
    const paidOrders = await store.db
      .selectFrom("orders")
      .select("id")
      .where("status", "=", "paid")
      .where("id", "in", [first.order.id, second.order.id])
      .execute();
    expect(paidOrders).toEqual([{ id: second.order.id }]);
  });

  it("a buyer who gives up at the bank has the authorisation voided and the order given back", async () => {
    const engine = build();
    const voucherId = await insertVoucher(store, { balance: 100 });
    const { order } = await basketWith(engine, "8", voucherId);
    const paying = engine.payments.pay(order, { method: "paypal" }, REQUEST);
    await engine.scripted.next({
      status: "actionRequired",
      reference: "ref-6",
      action: { kind: "approval", url: "/sandbox/paypal/ref-6", method: "GET", fields: {} },
      brand: null,
      last4: null,
    });
    expect(await paying).toMatchObject({ kind: "action" });
    expect(await engine.payments.abandon(order)).toBe(true);
    expect(engine.scripted.voided).toEqual(["ref-6"]);
    expect((await reload(engine, order)).status).toBe("cancelled");
    expect(await engine.vouchers.balanceOf(voucherId)).toBe(100);
    // A return from PayPal after that changes nothing.
    expect(await engine.payments.resume(order, "ref-6", {})).toMatchObject({ kind: "failed", failure: "cancelled" });
    expect(engine.scripted.calls.filter((call) => call.kind === "continue")).toHaveLength(0);
  });

  it("while the gateway is still answering, the order cannot be given up", async () => {
    const engine = build(20);
    const { order } = await basketWith(engine, "9");
    expect(await engine.payments.pay(order, { method: "card", card: CARD }, REQUEST)).toMatchObject({
      kind: "processing",
    });
    expect(await engine.payments.abandon(order)).toBe(false);
    await engine.scripted.next(authorised("ref-7"));
    expect((await reload(engine, order)).status).toBe("paid");
  });

  it("an order the vouchers cover in full is paid without the gateway", async () => {
    const engine = build();
    const voucherId = await insertVoucher(store, { balance: 100_000 });
    const { order } = await basketWith(engine, "3", voucherId);
    expect(order.to_pay).toBe(0);
    expect(await engine.payments.pay(order, { method: "card", card: CARD }, REQUEST)).toEqual({ kind: "paid" });
    expect(engine.scripted.calls).toHaveLength(0);
    expect(await engine.orders.payments(order.id)).toMatchObject([{ method: "voucher", status: "succeeded" }]);
  });
});
