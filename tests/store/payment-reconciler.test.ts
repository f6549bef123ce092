import { addMinutes, addSeconds } from "date-fns";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openPostgres, openSqlite, type Store } from "~/db/connection.server";
import type { GatewayResult } from "~/payments/gateway";
import { createSandboxGateway, SANDBOX_CARDS, type SandboxGateway } from "~/payments/sandbox.server";
import { createLogger } from "~/logging/logger.server";
import { createPaymentService } from "~/use-cases/pay.server";
import type { Order } from "~/ticketing/orders.server";
import { createEngine, seedSmallCatalogue } from "../support/engine";
import { insertPromo, insertVoucher } from "../support/money";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// Payments nobody came back for, settled by the reconciler with the sandbox gateway kept in the
// store: the buyer passes 3-D Secure (or approves at PayPal) and closes the browser, or the server
// dies while they are at the bank. After the deadline the reconciler asks the gateway and sells,
// captures and issues tickets while the seats are held, voids when they are not, and gives up
// what was never authorised — once, however many servers reconcile at the same moment.

const JO = { name: "Jo Bloggs", email: "jo@example.com" };
const CARD = { number: SANDBOX_CARDS.threeDSecure, expiryMonth: 12, expiryYear: 2030, cvv: "123", holderName: "Jo" };
const REQUEST = { description: "Test order", returnUrl: "/checkout/verify" };
const TIMEOUT_MS = 30_000;
/** Shorter than the default, as a deployment may set it: the tests move the clock past it. */
const RECONCILE_AFTER_MS = 5 * 60_000;

describe.each(DIALECTS)("the payment reconciler on %s", (dialect) => {
  let store: TestStore;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  const extraStores: Store[] = [];

  /** Another connection to the same database, as a second server process has. */
  function anotherConnection(): Store {
    const connection = dialect === "sqlite" ? openSqlite(store.location) : openPostgres(store.location, 5);
    extraStores.push(connection);
    return connection;
  }

  /** One server's payment service, over its own connection and its own sandbox gateway object. */
  function server(on: Store = store, inlineWaitMs = 2000) {
    const engine = createEngine(on, seed.clock);
    const sandbox = createSandboxGateway({ store: on, clock: seed.clock, idPrefix: "rec" });
    const captures: string[] = [];
    const statusCalls: string[] = [];
    const paid: string[] = [];
    // The sandbox itself, counting what this server asks of it.
    const gateway: SandboxGateway = Object.assign(Object.create(sandbox) as SandboxGateway, {
      capture: async (reference: string, amount: number) => {
        captures.push(reference);
        return sandbox.capture(reference, amount);
      },
      status: async (key: string): Promise<GatewayResult> => {
        statusCalls.push(key);
        return sandbox.status(key);
      },
    });
    const payments = createPaymentService({
      orders: engine.orders,
      orderLifecycle: engine.orderLifecycle,
      gateway,
      clock: seed.clock,
      logger: createLogger("silent"),
      timeoutMs: TIMEOUT_MS,
      inlineWaitMs,
      reconcileAfterMs: RECONCILE_AFTER_MS,
      onPaid: async (order) => {
        paid.push(order.id);
      },
    });
    return { ...engine, sandbox, payments, captures, statusCalls, paid };
  }

  async function placed(
    engine: ReturnType<typeof server>,
    seat: string,
    extras: { voucherId?: string; promoId?: string } = {},
  ) {
    return (await engine.holdAndPlace(seed.onSale.id, [seed.seat("B", seat)], extras, JO)).order;
  }

  /** Pays by the 3-D Secure card and does the device data step, leaving the buyer at the challenge. */
  async function atChallenge(engine: ReturnType<typeof server>, order: Order) {
    const started = await engine.payments.pay(order, { method: "card", card: CARD }, REQUEST);
    expect(started).toMatchObject({ kind: "action", action: { kind: "deviceData" } });
    const [attempt] = await engine.orders.payments(order.id);
    const reference = attempt!.provider_reference!;
    const back = new URL((await engine.sandbox.completeDeviceData(reference))!, "http://x");
    expect(await engine.payments.resume(order, reference, Object.fromEntries(back.searchParams))).toMatchObject({
      kind: "action",
      action: { kind: "challenge" },
    });
    return reference;
  }

  const seatStatus = (seat: string) => seed.seatStatus("B", seat);
  const orderStatus = async (order: Order) =>
    (await store.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow()).status;
  const sandboxRow = async (reference: string) =>
    store.db
      .selectFrom("sandbox_payments")
      .select(["state", "captured", "voided", "amount"])
      .where("reference", "=", reference)
      .executeTakeFirstOrThrow();
  const later = (ms: number) => seed.clock.set(new Date(seed.clock.now().getTime() + ms).toISOString());

  beforeAll(async () => {
    store = await createTestStore(dialect, 20);
    seed = await seedSmallCatalogue(store);
  });
  afterAll(async () => {
    for (const connection of extraStores) await connection.close();
    await store.drop();
  });
  beforeEach(async () => {
    seed.clock.set("2026-11-23T12:00:00.000Z");
    // Each test's payments only: what earlier tests left is long settled.
    await store.db.updateTable("order_payments").set({ reconciled_at: "done" }).execute();
    await store.db.deleteFrom("order_payments").where("status", "in", ["attempted", "action"]).execute();
    await store.db.deleteFrom("seat_claims").where("status", "!=", "withheld").execute();
  });

  it("a buyer who passed 3-D Secure and closed the browser: after the deadline the order is paid, the seat sold, the money captured once", async () => {
    const engine = server();
    const order = await placed(engine, "3");
    const reference = await atChallenge(engine, order);
    await engine.sandbox.completeChallenge(reference, true);
    // The gateway says "authorised, not yet charged"; nobody follows the redirect back.
    expect(await sandboxRow(reference)).toMatchObject({ state: "authorised", captured: 0, voided: 0 });

    later(RECONCILE_AFTER_MS - 1000);
    await engine.payments.reconcile();
    expect(await orderStatus(order)).toBe("pending_payment");

    later(2000);
    expect(await engine.payments.reconcile()).toBe(1);
    expect(await orderStatus(order)).toBe("paid");
    expect(await seatStatus("3")).toEqual({ status: "sold", order_id: order.id });
    expect(await sandboxRow(reference)).toMatchObject({ captured: order.to_pay, voided: 0 });
    expect(engine.captures).toEqual([reference]);
    expect(engine.paid).toEqual([order.id]);
    expect(await engine.orders.payments(order.id)).toMatchObject([{ status: "succeeded", brand: "visa" }]);
    // The buyer's return, late, shows the order paid and changes nothing.
    expect(await engine.payments.resume(order, reference, { reference })).toEqual({ kind: "paid" });
    expect(await engine.payments.reconcile()).toBe(0);
    expect(engine.captures).toEqual([reference]);
  });

  it("a buyer who approved at PayPal and never came back is paid the same way", async () => {
    const engine = server();
    const order = await placed(engine, "4");
    expect(await engine.payments.pay(order, { method: "paypal" }, REQUEST)).toMatchObject({ kind: "action" });
    const [attempt] = await engine.orders.payments(order.id);
    await engine.sandbox.decidePayPal(attempt!.provider_reference!, true);
    later(RECONCILE_AFTER_MS);
    await engine.payments.reconcile();
    expect(await orderStatus(order)).toBe("paid");
    expect(engine.captures).toEqual([attempt!.provider_reference]);
  });

  it("when the hold ran out first, the authorisation is voided, the order failed and the voucher and promo code given back", async () => {
    const engine = server();
    const voucherId = await insertVoucher(store, { balance: 300 });
    const promoId = await insertPromo(store, { usage_limit: 1 });
    const order = await placed(engine, "5", { voucherId, promoId });
    expect(order.promo_code_id).toBe(promoId);
    const used = () =>
      store.db.selectFrom("promo_codes").select("used_count").where("id", "=", promoId).executeTakeFirstOrThrow();
    expect(await used()).toEqual({ used_count: 1 });
    expect(await engine.vouchers.balanceOf(voucherId)).toBe(0);
    const reference = await atChallenge(engine, order);
    await engine.sandbox.completeChallenge(reference, true);

    // The hold is 15 minutes; the reconciler comes later (its interval, or a restart).
    seed.clock.set(addMinutes(seed.clock.now(), 16).toISOString());
    await engine.payments.reconcile();
    expect(await sandboxRow(reference)).toMatchObject({ state: "authorised", captured: 0, voided: 1 });
    expect(engine.captures).toEqual([]);
    expect(await orderStatus(order)).toBe("failed");
    expect(await engine.orders.payments(order.id)).toMatchObject([{ status: "voided", failure: "holdExpired" }]);
    expect(await engine.vouchers.balanceOf(voucherId)).toBe(300);
    expect(await used()).toEqual({ used_count: 0 });
    expect(await seatStatus("5")).not.toMatchObject({ status: "sold" });
    expect(engine.paid).toEqual([]);
  });

  it("a challenge never completed is timed out after the deadline, the order failed, and the bank's page can no longer authorise it", async () => {
    const engine = server();
    const voucherId = await insertVoucher(store, { balance: 200 });
    const order = await placed(engine, "6", { voucherId });
    const reference = await atChallenge(engine, order);

    later(RECONCILE_AFTER_MS);
    await engine.payments.reconcile();
    expect(await engine.orders.payments(order.id)).toMatchObject([{ status: "timedOut", failure: "timeout" }]);
    expect(await orderStatus(order)).toBe("failed");
    expect(await engine.vouchers.balanceOf(voucherId)).toBe(200);
    expect(await sandboxRow(reference)).toMatchObject({ state: "declined:cancelled", captured: 0, voided: 1 });
    // The buyer presses Complete at the bank afterwards: nothing is authorised.
    await engine.sandbox.completeChallenge(reference, true);
    expect(await engine.sandbox.status(`${order.id}:1`)).toMatchObject({ status: "declined", failure: "cancelled" });
    expect(await engine.payments.state(order)).toEqual({ kind: "timedOut", method: "card" });
    expect(engine.captures).toEqual([]);
    // Settled for good: the next pass does not ask again.
    const asked = engine.statusCalls.length;
    later(RECONCILE_AFTER_MS);
    expect(await engine.payments.reconcile()).toBe(0);
    expect(engine.statusCalls).toHaveLength(asked);
  });

  it("a card whose bank never answered, left by a dead server, is timed out and cancelled at the gateway", async () => {
    const engine = server(store, 20);
    const order = await placed(engine, "7");
    const card = { ...CARD, number: SANDBOX_CARDS.noAnswer };
    expect(await engine.payments.pay(order, { method: "card", card }, REQUEST)).toMatchObject({ kind: "processing" });
    later(RECONCILE_AFTER_MS);
    await engine.payments.reconcile();
    expect(await engine.orders.payments(order.id)).toMatchObject([{ status: "timedOut" }]);
    expect(await orderStatus(order)).toBe("failed");
    expect(await engine.sandbox.status(`${order.id}:1`)).toMatchObject({ status: "declined", failure: "cancelled" });
  });

  it("an attempt given up on our side but authorised at the gateway anyway is voided, once", async () => {
    const engine = server();
    const order = await placed(engine, "8");
    expect(await engine.payments.pay(order, { method: "paypal" }, REQUEST)).toMatchObject({ kind: "action" });
    const [attempt] = await engine.orders.payments(order.id);
    // The buyer went back and changed the basket: the attempt was abandoned, but the server died
    // before it could void at the gateway — and the buyer, in another tab, approved at PayPal.
    await engine.orders.updatePayment(attempt!.id, ["action"], { status: "failed", failure: "cancelled" });
    await engine.orderLifecycle.failOrder(order, "cancelled");
    await engine.sandbox.decidePayPal(attempt!.provider_reference!, true);
    expect(await sandboxRow(attempt!.provider_reference!)).toMatchObject({ state: "authorised", voided: 0 });

    later(RECONCILE_AFTER_MS);
    expect(await engine.payments.reconcile()).toBe(1);
    expect(await sandboxRow(attempt!.provider_reference!)).toMatchObject({ voided: 1, captured: 0 });
    expect(await engine.orders.payments(order.id)).toMatchObject([{ status: "voided" }]);
    expect(await orderStatus(order)).toBe("cancelled");
    expect(await engine.payments.reconcile()).toBe(0);
  });

  it("an order the vouchers cover, left half-paid by a server that died, is completed without the gateway", async () => {
    const engine = server();
    const voucherId = await insertVoucher(store, { balance: 100_000 });
    const order = await placed(engine, "5", { voucherId });
    expect(order.to_pay).toBe(0);
    // The attempt was written, then the process died before completing the order.
    await engine.orders.recordPaymentAttempt(order.id, "voucher", 0, `${order.id}:1`, {
      currency: order.currency,
      accepted_brands: null,
    });
    later(RECONCILE_AFTER_MS);
    expect(await engine.payments.reconcile()).toBe(1);
    expect(await orderStatus(order)).toBe("paid");
    expect(await seatStatus("5")).toEqual({ status: "sold", order_id: order.id });
    expect(engine.statusCalls).toEqual([]);
    expect(engine.paid).toEqual([order.id]);
    expect(await engine.payments.reconcile()).toBe(0);
  });

  it("two servers reconciling the same payment at the same moment capture it once", async () => {
    // On PostgreSQL each has its own pool, as two processes do. Two SQLite connections in one
    // process would block each other's event loop on the file's lock, so there the two share one
    // connection (separate services and gateway objects, and the database decides the race).
    const first = server(dialect === "postgres" ? anotherConnection() : store);
    const second = server(dialect === "postgres" ? anotherConnection() : store);
    const order = await placed(first, "9");
    const reference = await atChallenge(first, order);
    // Passed at the bank page, served by the second server.
    await second.sandbox.completeChallenge(reference, true);
    later(RECONCILE_AFTER_MS);
    await Promise.all([first.payments.reconcile(), second.payments.reconcile()]);
    // Both may ask the gateway, or one may find the other already settling it: either way, one
    // capture. (Which happens depends on timing; on a loaded machine it was one call.)
    const asked = first.statusCalls.length + second.statusCalls.length;
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(asked).toBeLessThanOrEqual(2);
    expect([...first.captures, ...second.captures]).toEqual([reference]);
    expect([...first.paid, ...second.paid]).toEqual([order.id]);
    expect(await orderStatus(order)).toBe("paid");
    expect(await sandboxRow(reference)).toMatchObject({ captured: order.to_pay, voided: 0 });
    expect(await seatStatus("9")).toEqual({ status: "sold", order_id: order.id });
  });

  it("a server restarted while the buyer was at the bank sees the sandbox's payment and settles it", async () => {
    const before = anotherConnection();
    const dying = server(before);
    const order = await placed(dying, "3");
    const reference = await atChallenge(dying, order);
    await before.close();
    extraStores.splice(extraStores.indexOf(before), 1);

    const restarted = server(anotherConnection());
    // The bank's page, now served by the new process, knows the payment.
    expect(await restarted.sandbox.step(reference, "challenge")).toMatchObject({ outstanding: true, last4: "3220" });
    await restarted.sandbox.completeChallenge(reference, true);
    later(RECONCILE_AFTER_MS);
    await restarted.payments.reconcile();
    expect(await orderStatus(order)).toBe("paid");
    expect(restarted.captures).toEqual([reference]);
    expect(await sandboxRow(reference)).toMatchObject({ captured: order.to_pay });
    expect(await seatStatus("3")).toEqual({ status: "sold", order_id: order.id });
  });

  it("an answer that won its attempt on a server that died before completing the order is finished after the deadline, captured once", async () => {
    const dying = server();
    const order = await placed(dying, "6");
    const reference = await atChallenge(dying, order);
    await dying.sandbox.completeChallenge(reference, true);
    // The buyer comes back; the server wins the attempt and dies before the order is completed.
    dying.orderLifecycle.completeOrder = async () => {
      throw new Error("killed");
    };
    expect(await dying.payments.resume(order, reference, {})).toMatchObject({ kind: "processing" });
    expect(await dying.orders.payments(order.id)).toMatchObject([{ status: "succeeded" }]);
    expect(await orderStatus(order)).toBe("pending_payment");
    expect(dying.captures).toEqual([]);

    const first = server(dialect === "postgres" ? anotherConnection() : store);
    const second = server(dialect === "postgres" ? anotherConnection() : store);
    later(RECONCILE_AFTER_MS);
    await Promise.all([first.payments.reconcile(), second.payments.reconcile()]);
    expect(await orderStatus(order)).toBe("paid");
    expect([...first.captures, ...second.captures]).toEqual([reference]);
    expect([...first.paid, ...second.paid]).toEqual([order.id]);
    expect(await sandboxRow(reference)).toMatchObject({ captured: order.to_pay, voided: 0 });
    expect(await seatStatus("6")).toEqual({ status: "sold", order_id: order.id });
  });

  it("an order placed but never sent for payment (the server died in between) is given up after the deadline, its voucher and code given back", async () => {
    const engine = server();
    const voucherId = await insertVoucher(store, { balance: 300 });
    const promoId = await insertPromo(store, { usage_limit: 1 });
    const order = await placed(engine, "7", { voucherId, promoId });
    const other = await placed(engine, "8");
    expect(await engine.vouchers.balanceOf(voucherId)).toBe(0);
    // Before the deadline it is left alone: the buyer may be about to press Pay.
    seed.clock.set(addMinutes(seed.clock.now(), 4).toISOString());
    await engine.payments.reconcile();
    expect(await orderStatus(order)).toBe("pending_payment");
    // The other buyer presses Pay in time: their order is not theirs to lose.
    const reference = await atChallenge(engine, other);

    seed.clock.set(addMinutes(seed.clock.now(), 2).toISOString());
    await engine.payments.reconcile();
    expect(await orderStatus(order)).toBe("cancelled");
    expect(await engine.vouchers.balanceOf(voucherId)).toBe(300);
    expect(
      await store.db.selectFrom("promo_codes").select("used_count").where("id", "=", promoId).executeTakeFirstOrThrow(),
    ).toEqual({ used_count: 0 });
    expect(await orderStatus(other)).toBe("pending_payment");
    expect(reference).toBeTruthy();
    // Nothing was authorised for it, so nothing is asked of the gateway or captured.
    expect(engine.captures).toEqual([]);
  });

  it("a deadline in seconds after a restart: nothing settled before it, however often reconcile runs", async () => {
    const engine = server();
    const order = await placed(engine, "4");
    const reference = await atChallenge(engine, order);
    await engine.sandbox.completeChallenge(reference, true);
    for (let step = 0; step < 4; step += 1) {
      seed.clock.set(addSeconds(seed.clock.now(), 60).toISOString());
      expect(await engine.payments.reconcile()).toBe(0);
    }
    expect(engine.statusCalls).toEqual([]);
    expect(await orderStatus(order)).toBe("pending_payment");
  });
});
