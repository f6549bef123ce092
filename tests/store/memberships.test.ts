import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GUEST } from "~/ticketing/inventory.server";
import { benefitsOf, entitlementsOf, NOT_A_MEMBER } from "~/ticketing/memberships";
import { smallCatalogueWithMembership } from "../support/catalogue";
import { insertCustomer } from "../support/customers";
import { createEngine, seedSmallCatalogue } from "../support/engine";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// Memberships against a real store: buying the paid one through a basket, what each membership
// lets its holder book, and what it does to prices.

describe.each(DIALECTS)("memberships on %s", (dialect) => {
  let store: TestStore;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  let engine: ReturnType<typeof build>;

  const build = () => createEngine(store, seed.clock);

  const newCustomer = () => insertCustomer(store, seed.clock);

  /** Buys the paid membership for the customer through a basket, as the checkout does. */
  async function buyPlus(customerId: string) {
    const product = await engine.memberships.product("GBP");
    const basketId = randomUUID();
    await engine.baskets.setMembership(basketId, product!.id);
    const placed = await engine.placeAsShown(basketId, {
      name: "Jo Bloggs",
      email: "jo@example.com",
      customerId,
    });
    if (!placed.ok) throw new Error(placed.reason);
    expect(await engine.orderLifecycle.completeOrder(placed.order)).toEqual({ ok: true });
    return placed.order;
  }

  beforeAll(async () => {
    store = await createTestStore(dialect, 20);
    seed = await seedSmallCatalogue(store, smallCatalogueWithMembership());
    engine = build();
  });
  afterAll(() => store.drop());
  beforeEach(async () => {
    seed.clock.set("2026-11-23T12:00:00.000Z");
    await store.db.deleteFrom("seat_claims").where("status", "!=", "withheld").execute();
  });

  it("a basket with only the membership is priced in its currency, without a transaction fee", async () => {
    const product = await engine.memberships.product("GBP");
    const basketId = randomUUID();
    await engine.baskets.setMembership(basketId, product!.id);
    const price = await engine.baskets.price(basketId);
    expect(price?.priced).toMatchObject({
      currency: "GBP",
      total: 4500,
      lines: [{ kind: "membership", name: "Plus membership", months: 12, amount: 4500 }],
    });
  });

  it("nobody buys a membership without an account", async () => {
    const product = await engine.memberships.product("GBP");
    const basketId = randomUUID();
    await engine.baskets.setMembership(basketId, product!.id);
    expect(await engine.placeAsShown(basketId, { name: "Jo", email: "jo@example.com" })).toEqual({
      ok: false,
      reason: "signInRequired",
    });
    expect(await engine.orders.byBasket(basketId)).toBeUndefined();
  });

  it("paying for it makes the customer a member for 12 months, once per order; renewing adds 12 more", async () => {
    const customerId = await newCustomer();
    expect(await engine.memberships.status(customerId)).toEqual(NOT_A_MEMBER);
    const order = await buyPlus(customerId);
    expect(order.customer_id).toBe(customerId);
    expect(order.performance_id).toBeNull();
    expect((await engine.memberships.status(customerId)).plus).toEqual({ endsAt: "2027-11-23T12:00:00.000Z" });
    // A second completion of the same order (a repeated notification) grants nothing more.
    await engine.orderLifecycle.completeOrder(order);
    expect(await engine.memberships.periods(customerId)).toHaveLength(1);

    seed.clock.set("2027-06-01T09:00:00.000Z");
    await buyPlus(customerId);
    expect((await engine.memberships.status(customerId)).plus).toEqual({ endsAt: "2028-11-23T12:00:00.000Z" });

    seed.clock.set("2028-11-23T12:00:00.000Z");
    expect((await engine.memberships.status(customerId)).plus).toBeNull();
  });

  it("a Plus member books a presale performance a guest cannot, and may choose member prices", async () => {
    const customerId = await newCustomer();
    await buyPlus(customerId);
    const member = await engine.memberships.status(customerId);
    seed.clock.set(seed.inPresale.presale_from!);
    const seatIds = [seed.seat("A", "5")];
    const performanceId = seed.inPresale.id;
    expect(await engine.inventory.holdSeats({ basketId: randomUUID(), performanceId, seatIds })).toMatchObject({
      ok: false,
      reason: "presale",
    });
    const basketId = randomUUID();
    expect(
      await engine.inventory.holdSeats({
        basketId,
        performanceId,
        seatIds,
        entitlements: entitlementsOf(member, GUEST),
      }),
    ).toMatchObject({ ok: true });

    const memberOption = await store.db
      .selectFrom("price_options")
      .select("id")
      .where("kind", "=", "member")
      .executeTakeFirstOrThrow();
    const ticket = { seatId: seatIds[0]! };
    expect(await engine.baskets.choosePriceOption(basketId, ticket, memberOption.id)).toEqual({
      ok: false,
      reason: "not-allowed",
    });
    expect(await engine.baskets.choosePriceOption(basketId, ticket, memberOption.id, benefitsOf(member))).toEqual({
      ok: true,
    });
  });

  it("members pay no transaction fee and have ticket protection included; the lines say so", async () => {
    const basketId = randomUUID();
    await engine.inventory.holdSeats({ basketId, performanceId: seed.onSale.id, seatIds: [seed.seat("A", "5")] });
    const guest = await engine.baskets.price(basketId, benefitsOf(NOT_A_MEMBER));
    expect(guest?.priced.lines).toContainEqual({ kind: "transactionFee", amount: 250, waived: false });
    expect(guest?.priced.lines.some((line) => line.kind === "protection")).toBe(false);

    const customerId = await newCustomer();
    await buyPlus(customerId);
    const member = await engine.baskets.price(basketId, benefitsOf(await engine.memberships.status(customerId)));
    expect(member?.priced.lines).toContainEqual({ kind: "transactionFee", amount: 0, waived: true });
    expect(member?.priced.lines).toContainEqual({
      kind: "protection",
      tickets: 1,
      feePerTicket: 150,
      amount: 0,
      included: true,
    });
    expect(member!.priced.total).toBe(guest!.priced.total - 250);
  });

  it("an access member books a wheelchair space and as many companion seats as they registered", async () => {
    const wheelchair = seed.seat("A", "1");
    const companion = seed.seat("A", "2");
    const accessZone = seed.seat("A", "10");
    const performanceId = seed.onSale.id;
    const customerId = await newCustomer();

    await engine.memberships.registerAccess(customerId, { wheelchair: true, companions: 0, otherNeeds: null });
    let entitlements = entitlementsOf(await engine.memberships.status(customerId), GUEST);
    expect(
      await engine.inventory.holdSeats({
        basketId: randomUUID(),
        performanceId,
        seatIds: [wheelchair, companion],
        entitlements,
      }),
    ).toEqual({ ok: false, reason: "companion-limit", companionLimit: 0 });

    await engine.memberships.registerAccess(customerId, { wheelchair: true, companions: 1, otherNeeds: "  aisle  " });
    const status = await engine.memberships.status(customerId);
    expect(status.access).toEqual({ wheelchair: true, companions: 1, otherNeeds: "aisle" });
    entitlements = entitlementsOf(status, GUEST);
    expect(
      await engine.inventory.holdSeats({
        basketId: randomUUID(),
        performanceId,
        seatIds: [wheelchair, companion],
        entitlements,
      }),
    ).toMatchObject({ ok: true });
    expect(
      await engine.inventory.holdSeats({ basketId: randomUUID(), performanceId, seatIds: [accessZone], entitlements }),
    ).toMatchObject({ ok: true });
  });

  it("an access member who is not a wheelchair user gets access-zone seats, not wheelchair spaces", async () => {
    const customerId = await newCustomer();
    await engine.memberships.registerAccess(customerId, { wheelchair: false, companions: 2, otherNeeds: "Step-free" });
    const entitlements = entitlementsOf(await engine.memberships.status(customerId), GUEST);
    const performanceId = seed.onSale.id;
    expect(
      await engine.inventory.holdSeats({
        basketId: randomUUID(),
        performanceId,
        seatIds: [seed.seat("A", "1")],
        entitlements,
      }),
    ).toMatchObject({ ok: false, reason: "restricted" });
    expect(
      await engine.inventory.holdSeats({
        basketId: randomUUID(),
        performanceId,
        seatIds: [seed.seat("A", "10")],
        entitlements,
      }),
    ).toMatchObject({ ok: true });

    await engine.memberships.leaveAccess(customerId);
    expect(await engine.memberships.status(customerId)).toEqual(NOT_A_MEMBER);
  });
});
