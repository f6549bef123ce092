import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Insertable } from "kysely";
import { fixedClock } from "~/clock";
import type { OrderTable } from "~/db/schema";
import { createAuth, DEFAULT_AUTH_POLICY } from "~/use-cases/auth.server";
import { createCustomers, type Customers } from "~/use-cases/customers.server";
import { createOrders } from "~/ticketing/orders.server";
import { seedSmallCatalogue } from "../support/engine";
import { registerCustomer } from "../support/customers";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// The customer profile service (details, saved address, orders made theirs) on both dialects.

const POLICY = { ...DEFAULT_AUTH_POLICY, passwordCost: { N: 1024, r: 8, p: 1 } };
const NOW = "2026-11-23T12:00:00.000Z";
const ADDRESS = {
  line1: "1 High Street",
  line2: "",
  city: "London",
  postcode: "SW1A 1AA",
  state: null,
  country: "GB" as const,
};

describe.each(DIALECTS)("customers on %s", (dialect) => {
  let store: TestStore;
  let customers: Customers;
  let performances: Awaited<ReturnType<typeof seedSmallCatalogue>>["performances"];
  const clock = fixedClock(NOW);

  beforeAll(async () => {
    store = await createTestStore(dialect);
    ({ performances } = await seedSmallCatalogue(store));
    customers = createCustomers(store, clock);
  });
  afterAll(() => store.drop());
  beforeEach(() => clock.set(NOW));

  async function register(email: string) {
    const made = await registerCustomer(createAuth(store, clock, POLICY), {
      email,
      password: "correct horse",
      firstName: "Jo",
      lastName: "Bloggs",
    });
    return made.customer.id;
  }

  async function insertOrder(values: Partial<Insertable<OrderTable>> = {}) {
    const id = randomUUID();
    await store.db
      .insertInto("orders")
      .values({
        id,
        number: id.slice(0, 11).toUpperCase(),
        basket_id: randomUUID(),
        status: "paid",
        currency: "GBP",
        customer_name: "Jo Bloggs",
        email: "jo@example.com",
        performance_id: performances[0]!.id,
        show_name: "Test Show",
        delivery_method: "eTicket",
        lines: "{}",
        total: 4_250,
        to_pay: 4_250,
        promo_code_id: null,
        contacts: null,
        paid_at: NOW,
        language: "en-GB",
        access_key: randomUUID(),
        customer_id: null,
        created_at: NOW,
        updated_at: NOW,
        ...values,
      })
      .execute();
    return id;
  }

  const customerOf = async (orderId: string) =>
    (await store.db.selectFrom("orders").select("customer_id").where("id", "=", orderId).executeTakeFirstOrThrow())
      .customer_id;

  it("keeps a customer's details and saved address, and can remove the address again", async () => {
    const id = await register("details@example.com");
    expect(await customers.profile(id)).toEqual({
      customerId: id,
      email: "details@example.com",
      firstName: "Jo",
      lastName: "Bloggs",
      phone: null,
      address: null,
      contactConsent: false,
    });
    clock.advance(60_000);
    const changes = {
      firstName: "Joanna",
      lastName: "Bloggs-Smith",
      phone: "+442079460000",
      address: ADDRESS,
      contactConsent: true,
    };
    expect(await customers.updateProfile(id, changes)).toBe(true);
    expect(await customers.profile(id)).toMatchObject(changes);
    const row = await store.db
      .selectFrom("customers")
      .select("updated_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.updated_at).toBe("2026-11-23T12:01:00.000Z");

    expect(await customers.updateProfile(id, { address: null, phone: null, contactConsent: false })).toBe(true);
    expect(await customers.profile(id)).toMatchObject({ firstName: "Joanna", address: null, phone: null });
  });

  it("saves nothing for a customer that does not exist, and says so", async () => {
    expect(await customers.updateProfile(randomUUID(), { firstName: "Nobody" })).toBe(false);
    expect(await customers.profile(randomUUID())).toBeNull();
  });

  it("makes a paid order a customer's once: never an order someone has already, nor one not paid", async () => {
    const [first, second] = [await register("claim-1@example.com"), await register("claim-2@example.com")];
    const order = await insertOrder();
    expect(await customers.claimOrder(order, first)).toBe(true);
    expect(await customers.claimOrder(order, second)).toBe(false);
    expect(await customerOf(order)).toBe(first);

    const pending = await insertOrder({ status: "pending_payment", paid_at: null });
    expect(await customers.claimOrder(pending, first)).toBe(false);
    expect(await customerOf(pending)).toBeNull();
    expect(await customers.claimOrder(randomUUID(), first)).toBe(false);
  });

  it("two claims at once: exactly one customer gets the order", async () => {
    const [first, second] = [await register("race-1@example.com"), await register("race-2@example.com")];
    const order = await insertOrder();
    const results = await Promise.all([customers.claimOrder(order, first), customers.claimOrder(order, second)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await customerOf(order)).toBe(results[0] ? first : second);
  });

  it("lists a customer's paid orders with the venue's time zone and the places bought, memberships too", async () => {
    const id = await register("orders@example.com");
    const later = performances[2]!;
    const sooner = performances[1]!;
    const forLater = await insertOrder({ customer_id: id, performance_id: later.id, total: 9_000 });
    const forSooner = await insertOrder({ customer_id: id, performance_id: sooner.id });
    const membership = await insertOrder({ customer_id: id, performance_id: null, show_name: "Plus membership" });
    await insertOrder({ customer_id: id, status: "failed", paid_at: null });
    await insertOrder({ customer_id: await register("someone-else@example.com") });
    await store.db
      .insertInto("order_tickets")
      .values(
        ["Stalls, row B, seat 4", "Stalls, row B, seat 3"].map((label, index) => ({
          id: randomUUID(),
          order_id: forLater,
          ref: `seat:${index}`,
          label,
          barcode: randomUUID(),
          sort_order: index === 0 ? 2 : 1,
        })),
      )
      .execute();

    const listed = await createOrders(store, clock).paidByCustomer(id);
    const performanceOrders = listed.filter((order) => order.performance_id !== null);
    expect(performanceOrders.map((order) => order.id)).toEqual([forSooner, forLater]);
    expect(performanceOrders[1]).toMatchObject({
      starts_at: later.starts_at,
      venue_name: "Test Hall",
      time_zone: "Europe/London",
      total: 9_000,
      delivery_method: "eTicket",
      refund_status: null,
      refunded: 0,
      tickets: [
        { label: "Stalls, row B, seat 3", refunded: false },
        { label: "Stalls, row B, seat 4", refunded: false },
      ],
    });
    expect(performanceOrders[0]!.tickets).toEqual([]);
    expect(listed.find((order) => order.id === membership)).toMatchObject({
      performance_id: null,
      starts_at: null,
      time_zone: null,
      show_name: "Plus membership",
    });
    expect(listed).toHaveLength(3);
  });
});
