import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { createLogger } from "~/logging/logger.server";
import type { PaymentGateway } from "~/payments/gateway";
import type { Order } from "~/ticketing/orders.server";
import { createRefundLedger } from "~/ticketing/refunds.server";
import { createRefunds } from "~/use-cases/refunds.server";
import type { AppServices } from "~/web/context";
import { testServices } from "../support/app";
import { insertCustomer } from "../support/customers";
import { smallCatalogueWithMembership } from "../support/catalogue";
import { createEngine, seedSmallCatalogue } from "../support/engine";
import { insertPromo, insertVoucher } from "../support/money";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// Refunds over the site's own services (the composition, the sandbox gateway, the outbox) on
// SQLite and PostgreSQL: a paid order refunded whole or a ticket at a time goes through the
// provider once, frees its seats, voids its e-tickets and emails the buyer, and running the same
// refund again calls nobody. A run that dies halfway is finished by the next one.

const JO = { name: "Jo Bloggs", email: "jo@example.com" };
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvv: "123", holderName: "Jo Bloggs" };
const REQUEST = { description: "Test order", returnUrl: "/checkout/verify" };

// Band B (row B): face value 4500 and booking fee 250; protection 150 a ticket; transaction fee 250.
const B_FACE = 4500;
const B_ALL_IN = 4500 + 250;
const PROTECTION = 150;

describe.each(DIALECTS)("refunds on %s", (dialect) => {
  let scratch: TestStore | undefined;
  let services: AppServices;
  let engine: ReturnType<typeof createEngine>;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  const clock = fixedClock("2026-11-23T12:00:00.000Z");

  beforeAll(async () => {
    // PostgreSQL: a throw-away database the services open by its URL; SQLite: the services' own file.
    scratch = dialect === "postgres" ? await createTestStore("postgres", 5) : undefined;
    services = await testServices(scratch ? { DATABASE_URL: scratch.location } : {}, clock);
    seed = await seedSmallCatalogue(services.store, smallCatalogueWithMembership());
    engine = createEngine(services.store, clock);
  });
  afterAll(async () => {
    await services?.close();
    await scratch?.drop();
  });
  beforeEach(() => {
    clock.set("2026-11-23T12:00:00.000Z");
  });

  /** A gateway that counts refund calls and passes them to the composition's sandbox (or to `instead`). */
  function counting(instead?: PaymentGateway["refund"]) {
    const calls: { reference: string; amount: number; key: string }[] = [];
    const gateway: Pick<PaymentGateway, "refund"> = {
      refund: async (reference, amount, key) => {
        calls.push({ reference, amount, key });
        return (instead ?? services.sandboxGateway!.refund.bind(services.sandboxGateway))(reference, amount, key);
      },
    };
    return { gateway, calls };
  }

  /** The refund use case as the composition builds it, with this gateway. */
  function refundsWith(gateway: Pick<PaymentGateway, "refund">) {
    return createRefunds({
      orders: services.orders,
      ledger: createRefundLedger({ store: services.store, clock, memberships: services.memberships }),
      vouchers: services.vouchers,
      catalogue: services.catalogue,
      gateway,
      outbox: services.outbox,
      i18n: services.i18n,
      config: services.config,
      logger: createLogger("silent"),
    });
  }

  /** Seats of row B held, answered as the checkout would (e-tickets, protection), placed and paid. */
  async function paidOrder(
    seats: string[],
    options: { voucherId?: string; promoId?: string; protection?: boolean; pay?: boolean } = {},
  ): Promise<Order> {
    const basketId = randomUUID();
    const held = await services.inventory.holdSeats({
      basketId,
      performanceId: seed.onSale.id,
      seatIds: seats.map((seat) => seed.seat("B", seat)),
    });
    if (!held.ok) throw new Error(held.reason);
    const eTicket = await services.store.db
      .selectFrom("delivery_methods")
      .select("id")
      .where("kind", "=", "eTicket")
      .executeTakeFirstOrThrow();
    await services.store.db
      .updateTable("baskets")
      .set({ delivery_method_id: eTicket.id, protection_choice: options.protection === false ? 0 : 1, extras_done: 1 })
      .where("id", "=", basketId)
      .execute();
    if (options.voucherId) await engine.baskets.addVoucher(basketId, options.voucherId);
    if (options.promoId) await engine.baskets.setPromo(basketId, options.promoId);
    const placed = await engine.placeAsShown(basketId, JO);
    if (!placed.ok) throw new Error(placed.reason);
    if (options.pay === false) return placed.order;
    const state = await services.payments.pay(
      placed.order,
      placed.order.to_pay === 0 ? { method: "voucher" } : { method: "card", card: CARD },
      REQUEST,
    );
    expect(state).toEqual({ kind: "paid" });
    const order = (await services.orders.byId(placed.order.id))!;
    expect(await services.orders.tickets(order.id)).toHaveLength(seats.length);
    return order;
  }

  const cardPayment = async (order: Order) =>
    (await services.orders.payments(order.id)).find((payment) => payment.status === "succeeded")!;
  /** What the sandbox says it has given back of the order's card payment. */
  const sandboxRefunded = async (order: Order) => {
    const reference = (await cardPayment(order)).provider_reference;
    return (await services.sandboxGateway!.snapshot()).find((payment) => payment.reference === reference)!.refunded;
  };
  const seatClaim = (seat: string) => seed.seatStatus("B", seat);
  /** A new buyer can hold the seats: they are for sale again. */
  const holdable = async (seats: string[]) =>
    (
      await services.inventory.holdSeats({
        basketId: randomUUID(),
        performanceId: seed.onSale.id,
        seatIds: seats.map((seat) => seed.seat("B", seat)),
      })
    ).ok;
  const ticketsOf = (order: Order) => services.orders.tickets(order.id);
  const refundEmails = (order: Order) =>
    services.store.db
      .selectFrom("email_outbox")
      .selectAll()
      .where("order_id", "=", order.id)
      .where("kind", "like", "refund:%")
      .execute();
  const releaseHoldsOn = (seats: string[]) =>
    services.store.db
      .deleteFrom("seat_claims")
      .where("status", "=", "held")
      .where(
        "seat_id",
        "in",
        seats.map((seat) => seed.seat("B", seat)),
      )
      .execute();

  it("refunds a whole paid order once: the provider called once, the seats free, the e-tickets void, the buyer emailed", async () => {
    const order = await paidOrder(["3", "4"]);
    const { gateway, calls } = counting();
    const refunds = refundsWith(gateway);

    const answer = await refunds.refund(order.number, { reason: "Performance moved" });
    expect(answer).toMatchObject({ ok: true, outcome: "refunded" });
    expect(calls).toEqual([
      {
        reference: (await cardPayment(order)).provider_reference,
        amount: order.total,
        key: `refund:${order.id}:order`,
      },
    ]);
    expect(await sandboxRefunded(order)).toBe(order.total);
    expect(await seatClaim("3")).toBeNull();
    expect(await holdable(["3", "4"])).toBe(true);
    expect((await ticketsOf(order)).every((ticket) => ticket.voided_at !== null)).toBe(true);
    const [email] = await refundEmails(order);
    expect(email).toMatchObject({ to_address: "jo@example.com" });
    expect(email!.subject).toContain(order.number);
    expect(email!.text_body).toContain("Stalls, row B, seat 3");
    expect(email!.text_body).toContain("will not admit anyone");
    const after = (await services.orders.byId(order.id))!;
    expect(after).toMatchObject({ status: "paid", refund_status: "refunded" });
    const view = await services.orderViews.view(after);
    expect(view.refund).toEqual({ status: "refunded", amount: order.total, currency: "GBP" });
    expect(view.tickets.map((ticket) => ticket.barcode)).toEqual([null, null]);

    // The same command again: said so, nothing done, nobody called.
    const again = await refunds.refund(order.number, { reason: "Performance moved" });
    expect(again).toMatchObject({ ok: true, outcome: "alreadyRefunded" });
    expect(calls).toHaveLength(1);
    expect(await sandboxRefunded(order)).toBe(order.total);
    expect(await refundEmails(order)).toHaveLength(1);
    await releaseHoldsOn(["3", "4"]);
  });

  it("refunds one ticket by its seat: its price, protection and share of the discount, nothing of the order's fees", async () => {
    const promoId = await insertPromo(services.store, { percent: 10 });
    const order = await paidOrder(["5", "6"], { promoId });
    const { gateway, calls } = counting();
    const refunds = refundsWith(gateway);
    const [five, six] = await ticketsOf(order);

    const answer = await refunds.refund(order.number, { tickets: ["b5"] });
    // 10% off face value: this ticket's half of the discount comes off what it gives back.
    const oneTicket = B_ALL_IN + PROTECTION - (B_FACE * 2 * 10) / 100 / 2;
    expect(answer).toMatchObject({ ok: true, outcome: "refunded", refund: { amount: oneTicket, whole: 0 } });
    expect(calls.map((call) => call.amount)).toEqual([oneTicket]);
    expect(await sandboxRefunded(order)).toBe(oneTicket);
    expect(await seatClaim("5")).toBeNull();
    expect(await seatClaim("6")).toEqual({ status: "sold", order_id: order.id });
    const tickets = await ticketsOf(order);
    expect(tickets.find((ticket) => ticket.id === five!.id)!.voided_at).not.toBeNull();
    expect(tickets.find((ticket) => ticket.id === six!.id)!.voided_at).toBeNull();
    expect((await services.orders.byId(order.id))!.refund_status).toBe("partlyRefunded");
    const [email] = await refundEmails(order);
    expect(email!.text_body).toContain("Stalls, row B, seat 5");
    expect(email!.text_body).not.toContain("Stalls, row B, seat 6");

    // Again, by the ticket's barcode this time: the same ticket, so the same refund, already made.
    const again = await refunds.refund(order.number, { tickets: [five!.barcode] });
    expect(again).toMatchObject({ ok: true, outcome: "alreadyRefunded" });
    expect(calls).toHaveLength(1);

    // The rest of the order, whole: everything paid less what went back already.
    const rest = await refunds.refund(order.number);
    expect(rest).toMatchObject({ ok: true, outcome: "refunded", refund: { amount: order.total - oneTicket } });
    expect(calls).toHaveLength(2);
    expect(await sandboxRefunded(order)).toBe(order.total);
    expect(await seatClaim("6")).toBeNull();
    expect((await services.orders.byId(order.id))!.refund_status).toBe("refunded");
    expect(await refundEmails(order)).toHaveLength(2);
  });

  it("gives a voucher's part back to the voucher and the card's to the card; a voucher-only order calls nobody", async () => {
    const voucherId = await insertVoucher(services.store, { balance: 5000 });
    const mixed = await paidOrder(["7", "8"], { voucherId });
    expect(await services.vouchers.balanceOf(voucherId)).toBe(0);
    const { gateway, calls } = counting();
    const refunds = refundsWith(gateway);
    // One ticket: the card first, up to what it paid.
    const one = await refunds.refund(mixed.number, { tickets: ["B7"] });
    expect(one).toMatchObject({
      ok: true,
      refund: { amount: B_ALL_IN + PROTECTION, card_amount: B_ALL_IN + PROTECTION },
    });
    expect(await services.vouchers.balanceOf(voucherId)).toBe(0);
    const whole = await refunds.refund(mixed.number);
    expect(whole).toMatchObject({ ok: true, refund: { card_amount: mixed.to_pay - (B_ALL_IN + PROTECTION) } });
    expect(await services.vouchers.balanceOf(voucherId)).toBe(5000);
    expect(await sandboxRefunded(mixed)).toBe(mixed.to_pay);
    expect(calls).toHaveLength(2);

    const rich = await insertVoucher(services.store, { balance: 50_000 });
    const covered = await paidOrder(["9"], { voucherId: rich });
    expect(covered.to_pay).toBe(0);
    const { gateway: none, calls: noCalls } = counting(async () => {
      throw new Error("the provider must not be called for an order paid by voucher");
    });
    expect(await refundsWith(none).refund(covered.number)).toMatchObject({ ok: true, outcome: "refunded" });
    expect(noCalls).toEqual([]);
    expect(await services.vouchers.balanceOf(rich)).toBe(50_000);
    expect(await seatClaim("9")).toBeNull();
  });

  it("finishes a refund whose run died before the provider answered, with the same key, refunding once", async () => {
    const order = await paidOrder(["3"]);
    // The connection drops on the way to the provider: nothing reached it.
    const dropped = counting(async () => {
      throw new Error("socket hang up");
    });
    const first = await refundsWith(dropped.gateway).refund(order.number);
    expect(first).toMatchObject({ ok: false, reason: "providerError" });
    // Nothing half-done: the seat still sold, the ticket good, no email; the refund recorded, pending.
    expect(await seatClaim("3")).toEqual({ status: "sold", order_id: order.id });
    expect((await ticketsOf(order))[0]!.voided_at).toBeNull();
    expect(await refundEmails(order)).toEqual([]);
    const pending = await services.store.db
      .selectFrom("refunds")
      .selectAll()
      .where("order_id", "=", order.id)
      .execute();
    expect(pending).toMatchObject([{ status: "pending", amount: order.total }]);

    // The provider refunds, and the run dies before settling: the next run asks again with the
    // same key, and the provider answers without refunding twice.
    const lost = counting(async (reference, amount, key) => {
      await services.sandboxGateway!.refund(reference, amount, key);
      throw new Error("answer lost");
    });
    expect(await refundsWith(lost.gateway).refund(order.number)).toMatchObject({ reason: "providerError" });
    expect(await sandboxRefunded(order)).toBe(order.total);

    const { gateway, calls } = counting();
    expect(await refundsWith(gateway).refund(order.number)).toMatchObject({ ok: true, outcome: "refunded" });
    expect([...dropped.calls, ...lost.calls, ...calls].map((call) => call.key)).toEqual(
      Array(3).fill(pending[0]!.idempotency_key),
    );
    expect(await sandboxRefunded(order)).toBe(order.total);
    expect(await seatClaim("3")).toBeNull();
    expect(await refundEmails(order)).toHaveLength(1);
  });

  it("refuses what it cannot do, and leaves everything as it was", async () => {
    const { gateway, calls } = counting();
    const refunds = refundsWith(gateway);
    expect(await refunds.refund("NOONE-00000")).toEqual({ ok: false, reason: "unknownOrder" });

    const unpaid = await paidOrder(["3"], { pay: false });
    expect(await refunds.refund(unpaid.number)).toMatchObject({ ok: false, reason: "notPaid" });
    await services.orderLifecycle.failOrder(unpaid, "cancelled");
    await releaseHoldsOn(["3"]);

    const order = await paidOrder(["4", "5"]);
    const notHers = await refunds.refund(order.number, { tickets: ["A1"] });
    expect(notHers).toMatchObject({ ok: false, reason: "ticketNotInOrder", given: ["A1"] });
    if (notHers.ok || notHers.reason !== "ticketNotInOrder") throw new Error("expected a ticket not in the order");
    expect(notHers.tickets.map((ticket) => ticket.seat)).toEqual(["B4", "B5"]);
    expect(calls).toEqual([]);

    // The provider says no: nothing given back, nothing released, and it may be asked again.
    const refusing = counting(async () => ({ ok: false }));
    const refused = await refundsWith(refusing.gateway).refund(order.number, { tickets: ["B4"] });
    expect(refused).toMatchObject({ ok: false, reason: "providerRefused", refund: { status: "refused" } });
    expect(await seatClaim("4")).toEqual({ status: "sold", order_id: order.id });
    expect((await ticketsOf(order)).every((ticket) => ticket.voided_at === null && ticket.refund_id === null)).toBe(
      true,
    );
    expect(await refundEmails(order)).toEqual([]);
    expect((await services.orders.byId(order.id))!.refund_status).toBeNull();

    // Asked again once the provider agrees: a new attempt, with a key of its own.
    const retried = await refunds.refund(order.number, { tickets: ["B4"] });
    expect(retried).toMatchObject({ ok: true, outcome: "refunded" });
    expect(calls[0]!.key).toBe(`${refusing.calls[0]!.key}:2`);

    // A ticket refunded already, asked for beside another: refused whole, the other untouched.
    const overlapping = await refunds.refund(order.number, { tickets: ["B4", "B5"] });
    expect(overlapping).toMatchObject({
      ok: false,
      reason: "ticketsAlreadyRefunded",
      tickets: ["Stalls, row B, seat 4"],
    });
    expect(await seatClaim("5")).toEqual({ status: "sold", order_id: order.id });
    expect(calls).toHaveLength(1);
  });

  it("gives standing places back one ticket at a time, named by barcode", async () => {
    const basketId = randomUUID();
    const held = await services.inventory.holdStanding({
      basketId,
      performanceId: seed.onSale.id,
      sectionId: seed.standingId,
      quantity: 2,
    });
    if (!held.ok) throw new Error(held.reason);
    const placed = await engine.placeAsShown(basketId, JO);
    if (!placed.ok) throw new Error(placed.reason);
    expect(await services.payments.pay(placed.order, { method: "card", card: CARD }, REQUEST)).toEqual({
      kind: "paid",
    });
    const claim = () =>
      services.store.db
        .selectFrom("standing_claims")
        .select(["quantity", "status"])
        .where("order_id", "=", placed.order.id)
        .executeTakeFirst();
    expect(await claim()).toEqual({ quantity: 2, status: "sold" });
    const [first] = await ticketsOf(placed.order);
    const refunds = refundsWith(counting().gateway);
    expect(await refunds.refund(placed.order.number, { tickets: [first!.barcode] })).toMatchObject({ ok: true });
    expect(await claim()).toEqual({ quantity: 1, status: "sold" });
    expect(await refunds.refund(placed.order.number)).toMatchObject({ ok: true, outcome: "refunded" });
    expect(await claim()).toBeUndefined();
  });

  it("cancels a membership through the same path: its order refunded whole ends it", async () => {
    const customerId = await insertCustomer(services.store, clock);
    const product = await services.memberships.product("GBP");
    const basketId = randomUUID();
    await engine.baskets.setMembership(basketId, product!.id);
    const placed = await engine.placeAsShown(basketId, { ...JO, customerId });
    if (!placed.ok) throw new Error(placed.reason);
    expect(await services.payments.pay(placed.order, { method: "card", card: CARD }, REQUEST)).toEqual({
      kind: "paid",
    });
    expect((await services.memberships.status(customerId)).plus).not.toBeNull();

    const { gateway, calls } = counting();
    const answer = await refundsWith(gateway).refund(placed.order.number, {
      reason: "Cancelled at the member's request",
    });
    expect(answer).toMatchObject({ ok: true, outcome: "refunded", refund: { amount: product!.price } });
    expect(calls).toHaveLength(1);
    expect((await services.memberships.status(customerId)).plus).toBeNull();
    const [email] = await refundEmails(placed.order);
    expect(email!.text_body).toContain("membership this order bought has ended");
  });
});
