import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { readDemoCatalogue } from "~/ticketing/demo.server";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import type { Entitlements } from "~/ticketing/inventory.server";
import type { IssuedTicket, Order } from "~/ticketing/orders.server";
import {
  createPerformanceReports,
  csvCell,
  csvLine,
  type PerformanceReports,
} from "~/ticketing/performance-report.server";
import { accessServicesOf as servicesOf } from "~/views/access-services";
import { wheelchairBesideCompanion, wheelchairBooking } from "../support/access-bookings";
import { insertCustomer } from "../support/customers";
import { createEngine, seedSmallCatalogue } from "../support/engine";
import { JO, paidOrders, type PaidOrderOptions } from "../support/paid-orders";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// Issue 55 item 4 on SQLite and PostgreSQL: a performance's sold / held / free by band and part of
// the house adding up to its capacity, gross and net takings with a refund, the access list
// (wheelchair and companion bookings, the services booked, refunded ones left out) and the
// orders' CSV with its quoting and formula injection neutralised.

const NOON = "2026-11-23T12:00:00.000Z";
const WHEELCHAIR_USER: Entitlements = {
  restrictions: new Set(["wheelchair"]),
  presale: new Set(),
  companions: 1,
};

describe("a CSV cell", () => {
  it("is quoted as RFC 4180 has it when it holds a comma, a quote or a line break", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("Bloggs, Jo")).toBe('"Bloggs, Jo"');
    expect(csvCell('Jo "JB" Bloggs')).toBe('"Jo ""JB"" Bloggs"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(6800)).toBe("6800");
    expect(csvLine(["a", "b,c", 1])).toBe('a,"b,c",1\r\n');
  });

  it("cannot start a formula: = + - @ tab and CR get a leading single quote", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("+44 20 7946 0000")).toBe("'+44 20 7946 0000");
    expect(csvCell("-2")).toBe("'-2");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("\r=1")).toBe('"\'\r=1"');
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell("Jo = Bloggs")).toBe("Jo = Bloggs");
  });
});

describe.each(DIALECTS)("performance reports on %s", (dialect) => {
  let store: TestStore;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  let engine: ReturnType<typeof createEngine>;
  let reports: PerformanceReports;
  /** Performances on general sale at noon on import day: each test keeps to its own. */
  let onSale: string[];

  beforeAll(async () => {
    store = await createTestStore(dialect);
    seed = await seedSmallCatalogue(store);
    engine = createEngine(store, seed.clock);
    reports = createPerformanceReports(store, seed.clock);
    onSale = seed.performances.filter((performance) => performance.presale_from === null).map(({ id }) => id);
  });
  afterAll(() => store.drop());
  beforeEach(() => {
    seed.clock.set(NOON);
  });

  const paidOrder = (performanceId: string, seats: [string, string][], options: PaidOrderOptions = {}) =>
    paidOrders(store, seed, engine).paidOrder(performanceId, seats, { cardPayment: true, ...options });
  const refund = (order: Order, tickets: IssuedTicket[] | "whole", settle = true) =>
    paidOrders(store, seed, engine).refund(order, tickets, settle);

  it("names the performance's show, venue, time and currency", async () => {
    const performance = seed.performances.find(({ id }) => id === onSale[0])!;
    expect(await reports.about(performance.id)).toEqual({
      performanceId: performance.id,
      show: "Test Show",
      showSlug: "test-show",
      venue: "Test Hall",
      country: "GB",
      startsAt: performance.starts_at,
      timeZone: "Europe/London",
      currency: "GBP",
    });
    expect(await reports.about("no-such-performance")).toBeNull();
  });

  it("counts sold, held and free by band and part of the house, adding up to the capacity", async () => {
    const performanceId = onSale[0]!;
    const empty = await reports.performanceReport(performanceId);
    expect(empty!.total).toEqual({ capacity: 24, sold: 0, held: 0, free: 24, withheld: 1 });

    await paidOrder(performanceId, [
      ["A", "3"],
      ["A", "4"],
    ]);
    await paidOrder(performanceId, [["B", "5"]]);
    // A hold that lapses counts as free; one that has not counts as held.
    const lapsing = await engine.inventory.holdSeats({
      basketId: randomUUID(),
      performanceId,
      seatIds: [seed.seat("B", "6")],
    });
    if (!lapsing.ok) throw new Error(lapsing.reason);
    seed.clock.set(new Date(Date.parse(lapsing.expiresAt) + 1000));
    const live = await engine.inventory.holdSeats({
      basketId: randomUUID(),
      performanceId,
      seatIds: [seed.seat("B", "7"), seed.seat("B", "8")],
    });
    if (!live.ok) throw new Error(live.reason);
    const standing = await engine.inventory.holdStanding({
      basketId: randomUUID(),
      performanceId,
      sectionId: seed.standingId,
      quantity: 3,
    });
    if (!standing.ok) throw new Error(standing.reason);

    const report = (await reports.performanceReport(performanceId))!;
    expect(report.currency).toBe("GBP");
    expect(report.bands).toEqual([
      { bandId: expect.any(String), code: "A", name: "Band A", capacity: 10, sold: 2, held: 0, free: 8, withheld: 0 },
      { bandId: expect.any(String), code: "B", name: "Band B", capacity: 9, sold: 1, held: 2, free: 6, withheld: 1 },
      { bandId: expect.any(String), code: "S", name: "Standing", capacity: 5, sold: 0, held: 3, free: 2, withheld: 0 },
    ]);
    expect(report.sections).toEqual([
      { sectionId: expect.any(String), name: "Stalls", capacity: 19, sold: 3, held: 2, free: 14, withheld: 1 },
      { sectionId: seed.standingId, name: "Standing", capacity: 5, sold: 0, held: 3, free: 2, withheld: 0 },
    ]);
    expect(report.total).toEqual({ capacity: 24, sold: 3, held: 5, free: 16, withheld: 1 });
    for (const counts of [...report.bands, ...report.sections, report.total])
      expect(counts.sold + counts.held + counts.free).toBe(counts.capacity);
    expect(report.total.capacity).toBe(seed.performances.find(({ id }) => id === performanceId)!.capacity);
    expect(await reports.performanceReport("no-such-performance")).toBeNull();
  });

  it("takes gross from what paid orders cost and net after settled refunds only", async () => {
    const performanceId = onSale[1]!;
    const two = await paidOrder(performanceId, [
      ["A", "3"],
      ["A", "4"],
    ]);
    const one = await paidOrder(performanceId, [["B", "3"]]);
    const pending = await paidOrder(performanceId, [["B", "4"]]);
    await paidOrder(performanceId, [["B", "5"]], { pay: false });
    const settled = await refund(two.order, [two.tickets[0]!]);
    await refund(pending.order, pending.tickets, false);

    const report = (await reports.performanceReport(performanceId))!;
    const gross = two.order.total + one.order.total + pending.order.total;
    expect(gross).toBeGreaterThan(0);
    expect(settled.amount).toBe(6800);
    expect(report).toMatchObject({
      gross,
      refunded: 6800,
      net: gross - 6800,
      orders: 3,
      tickets: 2,
      voidTickets: 2,
    });
    // The settled refund's seat is back on sale, the one being refunded is still sold until its
    // refund settles, and the unpaid order's seat is held for it while it waits.
    expect(report.total).toMatchObject({ sold: 3, held: 1 });
  });

  it("lists a wheelchair booking's wheelchair space and companion seat, the services booked and the registered needs", async () => {
    const performanceId = onSale[2]!;
    await store.db
      .updateTable("performances")
      .set({ access_services: "captioned,audio-described" })
      .where("id", "=", performanceId)
      .execute();
    await store.db
      .updateTable("seats")
      .set({ suits: "audio-described" })
      .where("id", "=", seed.seat("A", "1"))
      .execute();
    await store.db.updateTable("seats").set({ suits: "captioned" }).where("id", "=", seed.seat("B", "3")).execute();
    const customerId = await insertCustomer(store, seed.clock);
    await engine.memberships.registerAccess(customerId, {
      wheelchair: true,
      companions: 1,
      otherNeeds: "Step-free route, please",
    });
    const access = await paidOrder(
      performanceId,
      [
        ["A", "2"],
        ["A", "1"],
      ],
      { customer: { name: "Sam Wheeler", email: "sam@example.com", customerId }, entitlements: WHEELCHAIR_USER },
    );
    // Not an access booking: standard seats, no registration.
    await paidOrder(performanceId, [["A", "5"]]);
    // A registered buyer in a standard seat is on the list for what they registered.
    const otherId = await insertCustomer(store, seed.clock);
    await engine.memberships.registerAccess(otherId, { wheelchair: false, companions: 0, otherNeeds: "Hearing loop" });
    const registeredOnly = await paidOrder(performanceId, [["B", "3"]], {
      customer: { name: "Ana Loop", email: "ana@example.com", customerId: otherId },
    });

    const list = (await reports.accessList(performanceId))!;
    expect(list.services).toEqual(["captioned", "audio-described"]);
    expect(list.entries).toEqual([
      {
        orderNumber: access.order.number,
        name: "Sam Wheeler",
        email: "sam@example.com",
        phone: null,
        seats: [
          { label: "Stalls, row A, seat 1", seatType: "wheelchair", services: ["audio-described"] },
          { label: "Stalls, row A, seat 2", seatType: "companion", services: [] },
        ],
        registered: { wheelchair: true, companions: 1, otherNeeds: "Step-free route, please" },
      },
      {
        orderNumber: registeredOnly.order.number,
        name: "Ana Loop",
        email: "ana@example.com",
        phone: null,
        seats: [{ label: "Stalls, row B, seat 3", seatType: "standard", services: ["captioned"] }],
        registered: { wheelchair: false, companions: 0, otherNeeds: "Hearing loop" },
      },
    ]);
    expect(await reports.accessList("no-such-performance")).toBeNull();
  });

  it("leaves out an access order refunded whole and a refunded companion seat, and takes the phone from the contacts", async () => {
    const performanceId = onSale[3]!;
    const refunded = await paidOrder(
      performanceId,
      [
        ["A", "1"],
        ["A", "2"],
      ],
      { entitlements: WHEELCHAIR_USER },
    );
    await refund(refunded.order, "whole");
    const again = await paidOrder(
      performanceId,
      [
        ["A", "1"],
        ["A", "2"],
      ],
      { customer: { name: "Lee Chair", email: "lee@example.com" }, entitlements: WHEELCHAIR_USER },
    );
    await store.db
      .updateTable("orders")
      .set({
        contacts: JSON.stringify({
          firstName: "Lee",
          lastName: "Chair",
          email: "lee.chair@example.com",
          phone: "+447700900123",
          address: null,
          answers: {},
          contactConsent: false,
        }),
      })
      .where("id", "=", again.order.id)
      .execute();
    await refund(again.order, [again.tickets.find((ticket) => ticket.label.endsWith("seat 2"))!]);

    const list = (await reports.accessList(performanceId))!;
    expect(list.services).toEqual([]);
    expect(list.entries).toEqual([
      {
        orderNumber: again.order.number,
        name: "Lee Chair",
        email: "lee.chair@example.com",
        phone: "+447700900123",
        seats: [{ label: "Stalls, row A, seat 1", seatType: "wheelchair", services: [] }],
        registered: null,
      },
    ]);
  });

  it("writes one CSV line per ticket of the paid orders, quoted, with formulas neutralised", async () => {
    const performanceId = onSale[4]!;
    const hostile = await paidOrder(
      performanceId,
      [
        ["A", "3"],
        ["B", "3"],
      ],
      { customer: { name: '=HYPERLINK("http://evil.example","Jo, B")', email: "@jo@example.com" } },
    );
    await refund(hostile.order, [hostile.tickets.find((ticket) => ticket.label.includes("row B"))!]);
    seed.clock.set("2026-11-23T12:05:00.000Z");
    const plain = await paidOrder(performanceId, [["A", "4"]]);
    await paidOrder(performanceId, [["A", "5"]], { pay: false });

    const csv = (await reports.ordersCsv(performanceId))!;
    const paidAt = (order: Order) => order.paid_at!;
    expect(csv.split("\r\n")).toEqual([
      "orderNumber,paidAt,name,email,seat,priceBand,price,refunded",
      `${hostile.order.number},${paidAt(hostile.order)},"'=HYPERLINK(""http://evil.example"",""Jo, B"")",'@jo@example.com,"Stalls, row A, seat 3",Band A,6800,no`,
      `${hostile.order.number},${paidAt(hostile.order)},"'=HYPERLINK(""http://evil.example"",""Jo, B"")",'@jo@example.com,"Stalls, row B, seat 3",Band B,4750,yes`,
      `${plain.order.number},${paidAt(plain.order)},Jo Bloggs,jo@example.com,"Stalls, row A, seat 4",Band A,6800,no`,
      "",
    ]);
    expect(paidAt(hostile.order) < paidAt(plain.order)).toBe(true);

    const worded = (await reports.ordersCsv(performanceId, {
      header: {
        orderNumber: "Order",
        paidAt: "Paid",
        name: "Name",
        email: "Email",
        seat: "Seat",
        priceBand: "Band",
        price: "Price",
        refunded: "Refunded",
      },
      yes: "Yes",
      no: "No",
    }))!;
    expect(worded.split("\r\n")[0]).toBe("Order,Paid,Name,Email,Seat,Band,Price,Refunded");
    expect(worded.split("\r\n")[2]!.endsWith(",Yes")).toBe(true);
    expect(await reports.ordersCsv("no-such-performance")).toBeNull();
  });
});

describe.each(DIALECTS)("the access list of a demo access performance on %s", (dialect) => {
  let store: TestStore;
  const clock = fixedClock(NOON);

  beforeAll(async () => {
    store = await createTestStore(dialect);
    await importCatalogue(store, readDemoCatalogue(process.cwd(), { pictures: false }), clock);
  });
  afterAll(() => store.drop());

  it("lists its wheelchair and companion booking and the services booked", async () => {
    const engine = createEngine(store, clock);
    const reports = createPerformanceReports(store, clock);
    // An access performance on general sale, and a wheelchair space with a companion seat beside it in its plan.
    const beside = await wheelchairBesideCompanion(store, clock);
    // Prefer a wheelchair space placed for one of the performance's services (the demo's wheelchair
    // spaces are at the back, where the catalogue marks none today: then the list's services are
    // the performance's, and the seats' own are rightly empty).
    const chosen =
      beside.find((row) => servicesOf(row.access_services).some((service) => row.wheelchairSuits.includes(service))) ??
      beside[0];
    expect(chosen).toBeDefined();
    const { id: performanceId } = chosen!;
    const order = await wheelchairBooking(engine, performanceId, chosen!, JO);

    const list = (await reports.accessList(performanceId))!;
    const services = servicesOf(chosen!.access_services);
    expect(services.length).toBeGreaterThan(0);
    expect(list.services).toEqual(services);
    expect(list.entries).toHaveLength(1);
    const seats = list.entries[0]!.seats;
    expect(seats.map((seat) => seat.seatType).sort()).toEqual(["companion", "wheelchair"]);
    const wheelchair = seats.find((seat) => seat.seatType === "wheelchair")!;
    expect(wheelchair.services).toEqual(
      services.filter((service) => chosen!.wheelchairSuits.split(",").includes(service)),
    );
    expect(list.entries[0]).toMatchObject({
      orderNumber: order.number,
      name: "Jo Bloggs",
      email: "jo@example.com",
    });
  });
});
