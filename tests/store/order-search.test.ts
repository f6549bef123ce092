import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCheckIn } from "~/ticketing/check-in.server";
import { createOrderSearch, orderNumberOf, type OrderSearch } from "~/ticketing/order-search.server";
import { createEngine, seedSmallCatalogue } from "../support/engine";
import { paidOrders } from "../support/paid-orders";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// The box office's search and order record (issue 55 item 3, decision 0061) on SQLite and
// PostgreSQL: an order found by its number however it is typed, by its email in any case, by a
// part of its name; newest first and bounded; and one order read whole, its tickets' prices,
// check-ins and refunds, its payments and emails.

describe("an order number as typed", () => {
  it("is read in any case, with spaces or dashes or none, and O, I and L as the digits they look like", () => {
    expect(orderNumberOf("7k2q9-xm4pd")).toBe("7K2Q9-XM4PD");
    expect(orderNumberOf(" 7K2Q9 XM4PD ")).toBe("7K2Q9-XM4PD");
    expect(orderNumberOf("7K2Q9XM4PD")).toBe("7K2Q9-XM4PD");
    expect(orderNumberOf("7K 2Q 9X M4 PD")).toBe("7K2Q9-XM4PD");
    expect(orderNumberOf("O1ILO-00000")).toBe("01110-00000");
  });

  it("is no number with a letter the alphabet lacks or the wrong length", () => {
    expect(orderNumberOf("7K2Q9-XM4PU")).toBeNull();
    expect(orderNumberOf("7K2Q9-XM4P")).toBeNull();
    expect(orderNumberOf("Jo Bloggs")).toBeNull();
    expect(orderNumberOf("")).toBeNull();
  });
});

describe.each(DIALECTS)("the box office's order search on %s", (dialect) => {
  let store: TestStore;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  let engine: ReturnType<typeof createEngine>;
  let search: OrderSearch;
  let performanceId: string;
  const marker = randomUUID().slice(0, 8);

  beforeAll(async () => {
    store = await createTestStore(dialect);
    seed = await seedSmallCatalogue(store);
    engine = createEngine(store, seed.clock);
    search = createOrderSearch(store);
    performanceId = seed.onSale.id;
    seed.clock.set("2026-11-23T12:00:00.000Z");
  });
  afterAll(() => store.drop());

  const paidOrder = (seats: [string, string][], name: string, email: string) =>
    paidOrders(store, seed, engine).paidOrder(performanceId, seats, {
      customer: { name, email },
      cardPayment: true,
    });

  const firstOf = (result: Awaited<ReturnType<OrderSearch["find"]>>) => result.orders[0];

  it("finds an order by its number, however it is typed, and no other", async () => {
    const { order } = await paidOrder([["A", "3"]], "Ada Lovelace", "ada@example.com");
    await paidOrder([["A", "4"]], "Ada Lovelace", "ada@example.com");
    for (const typed of [order.number, order.number.toLowerCase(), ` ${order.number.replace("-", " ")} `]) {
      const found = await search.find(typed);
      expect(
        found.orders.map((hit) => hit.number),
        typed,
      ).toEqual([order.number]);
    }
    expect(firstOf(await search.find(order.number))).toMatchObject({
      customerName: "Ada Lovelace",
      email: "ada@example.com",
      showName: "Test Show",
      startsAt: seed.onSale.starts_at,
      venueName: "Test Hall",
      timeZone: "Europe/London",
      status: "paid",
      refundStatus: null,
      total: order.total,
      currency: "GBP",
    });
    expect((await search.find("ZZZZZ-99999")).orders).toEqual([]);
  });

  it("finds orders by their email in any case, but only the whole address", async () => {
    const email = `Grace.${marker}@Example.com`;
    const { order } = await paidOrder([["A", "5"]], "Grace Hopper", email);
    expect((await search.find(email.toLowerCase())).orders.map((hit) => hit.number)).toEqual([order.number]);
    expect((await search.find(` ${email.toUpperCase()} `)).orders.map((hit) => hit.number)).toEqual([order.number]);
    expect((await search.find(`grace.${marker}@example`)).orders).toEqual([]);
  });

  it("finds orders by a part of their name in any case, newest first, and takes % and _ as themselves", async () => {
    const surname = `Hamilton${marker}`;
    const first = await paidOrder([["A", "6"]], `Margaret ${surname}`, "mh@example.com");
    seed.clock.advance(60_000);
    const second = await paidOrder([["A", "7"]], `Alex ${surname.toUpperCase()}`, "ah@example.com");
    seed.clock.advance(60_000);
    const third = await paidOrder([["A", "8"]], `Sam ${surname} 50%_off`, "sh@example.com");
    const numbers = (await search.find(surname.toLowerCase())).orders.map((hit) => hit.number);
    expect(numbers).toEqual([third.order.number, second.order.number, first.order.number]);
    expect((await search.find(`garet ${surname}`)).orders.map((hit) => hit.number)).toEqual([first.order.number]);
    expect((await search.find(`${surname} 50%_off`)).orders.map((hit) => hit.number)).toEqual([third.order.number]);
    // Unescaped, "%" and "_" would match any name.
    expect((await search.find(`${surname}%`)).orders).toEqual([]);
    expect((await search.find(`Margaret_${surname}`)).orders).toEqual([]);
    // Bounded, saying there were more.
    const two = await search.find(surname, 2);
    expect(two.orders.map((hit) => hit.number)).toEqual([third.order.number, second.order.number]);
    expect(two.more).toBe(true);
    expect((await search.find(surname, 3)).more).toBe(false);
  });

  it("finds nothing for an empty query, nor one longer than anything worth looking for", async () => {
    expect(await search.find("   ")).toEqual({ orders: [], more: false });
    expect(await search.find("a".repeat(201))).toEqual({ orders: [], more: false });
  });

  it("reads one order whole: tickets with band, price, check-in and refund; payments, refunds and emails", async () => {
    const { order, tickets } = await paidOrder(
      [
        ["B", "3"],
        ["B", "4"],
        ["B", "5"],
      ],
      "Jo Bloggs",
      `jo.${marker}@example.com`,
    );
    const [used, refunded, valid] = tickets;
    seed.clock.set("2026-11-23T19:10:00.000Z");
    const checkIn = createCheckIn(store, seed.clock);
    expect(
      (await checkIn.checkIn({ performanceId, code: used!.barcode, door: "Stalls door", staffId: "s1" })).outcome,
    ).toBe("admitted");
    const refund = await paidOrders(store, seed, engine).refund(order, [refunded!]);
    await store.db
      .insertInto("email_outbox")
      .values({
        id: randomUUID(),
        kind: "orderConfirmation",
        to_address: order.email,
        subject: "Your tickets",
        text_body: "",
        html_body: "",
        order_id: order.id,
        status: "sent",
        next_attempt_at: "2026-11-23T12:00:00.000Z",
        last_error: null,
        created_at: "2026-11-23T12:00:00.000Z",
        sent_at: "2026-11-23T12:00:01.000Z",
      })
      .execute();

    const record = (await search.record(order.number))!;
    expect(record.order).toMatchObject({ id: order.id, number: order.number, refund_status: "partlyRefunded" });
    expect(record.performance).toEqual({
      startsAt: seed.onSale.starts_at,
      venueName: "Test Hall",
      timeZone: "Europe/London",
    });
    expect(record.tickets).toEqual([
      {
        id: used!.id,
        label: "Stalls, row B, seat 3",
        code: used!.barcode,
        band: "Band B",
        priceOption: expect.any(String),
        price: 4750,
        refundId: null,
        voidedAt: null,
        checkedIn: { at: "2026-11-23T19:10:00.000Z", door: "Stalls door" },
      },
      expect.objectContaining({
        id: refunded!.id,
        band: "Band B",
        price: 4750,
        refundId: refund.id,
        voidedAt: "2026-11-23T19:10:00.000Z",
        checkedIn: null,
      }),
      expect.objectContaining({ id: valid!.id, refundId: null, voidedAt: null, checkedIn: null }),
    ]);
    expect(record.payments).toEqual([
      expect.objectContaining({
        method: "card",
        status: "succeeded",
        amount: order.to_pay,
        provider_reference: `ref-${order.id}`,
        last4: "4242",
      }),
    ]);
    expect(record.refunds).toEqual([
      expect.objectContaining({
        id: refund.id,
        status: "succeeded",
        amount: 4750,
        card_amount: 4750,
        whole: 0,
        ticketIds: [refunded!.id],
      }),
    ]);
    expect(record.emails).toEqual([
      expect.objectContaining({ kind: "orderConfirmation", to_address: order.email, status: "sent" }),
    ]);
    expect(await search.record("ZZZZZ-99999")).toBeNull();
  });
});
