import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openPostgres, openSqlite, type Store } from "~/db/connection.server";
import type { Entitlements } from "~/ticketing/inventory.server";
import { createCheckIn, type CheckIn, type CheckInOutcome } from "~/ticketing/check-in.server";
import type { IssuedTicket, Order } from "~/ticketing/orders.server";
import { ticketCodeOf } from "~/ticketing/ticket-code";
import { newBarcode } from "~/use-cases/barcode.server";
import { insertCustomer } from "../support/customers";
import { createEngine, seedSmallCatalogue } from "../support/engine";
import { JO, paidOrders, type PaidOrderOptions } from "../support/paid-orders";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// Door check-in (issue 55 item 2, decision 0060) on SQLite and PostgreSQL: each answer the door
// gives, a typed code read as the stored one, the running count, and two doors scanning one ticket
// at the same moment (over two connections to one database) admitting it once.

const NOON = "2026-11-23T12:00:00.000Z";
const STALLS = { door: "Stalls door", staffId: "staff-stalls" };
const CIRCLE = { door: "Circle door", staffId: "staff-circle" };
/** A wheelchair user with one companion: what their booking may hold. */
const WHEELCHAIR_USER: Entitlements = {
  restrictions: new Set(["amex", "wheelchair"]),
  presale: new Set(),
  companions: 1,
};

describe("a typed code", () => {
  const code = newBarcode();

  it("is read as the stored code whatever its case, spaces and hyphens", () => {
    const typed = `  ${code.slice(0, 5).toLowerCase()} ${code.slice(5, 10)}-${code.slice(10, 15)} \u2013 ${code.slice(15)}\t`;
    expect(ticketCodeOf(typed)).toBe(code);
    expect(ticketCodeOf(code)).toBe(code);
  });

  it("is read from the full-width letters some keyboards type", () => {
    const wide = [...code].map((symbol) => String.fromCodePoint(symbol.codePointAt(0)! + 0xfee0)).join("");
    expect(ticketCodeOf(wide)).toBe(code);
  });

  it("is no code at all with a character the alphabet lacks, or the wrong length", () => {
    expect(ticketCodeOf(`0${code.slice(1)}`)).toBeNull();
    expect(ticketCodeOf(`O${code.slice(1)}`)).toBeNull();
    expect(ticketCodeOf(`I${code.slice(1)}`)).toBeNull();
    expect(ticketCodeOf(code.slice(1))).toBeNull();
    expect(ticketCodeOf(`${code}A`)).toBeNull();
    expect(ticketCodeOf("")).toBeNull();
    expect(ticketCodeOf(`${code}${" ".repeat(200)}`)).toBeNull();
  });
});

describe.each(DIALECTS)("door check-in on %s", (dialect) => {
  let store: TestStore;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  let engine: ReturnType<typeof createEngine>;
  let checkIn: CheckIn;
  /** Performances on general sale at noon on import day, soonest first: each test keeps to its own. */
  let onSale: string[];

  beforeAll(async () => {
    store = await createTestStore(dialect);
    seed = await seedSmallCatalogue(store);
    engine = createEngine(store, seed.clock);
    checkIn = createCheckIn(store, seed.clock);
    onSale = seed.performances.filter((performance) => performance.presale_from === null).map(({ id }) => id);
  });
  afterAll(() => store.drop());
  beforeEach(() => {
    seed.clock.set(NOON);
  });

  const paidOrder = (performanceId: string, seats: [string, string][], options: PaidOrderOptions = {}) =>
    paidOrders(store, seed, engine).paidOrder(performanceId, seats, options);
  const refund = (order: Order, tickets: IssuedTicket[] | "whole", settle = true) =>
    paidOrders(store, seed, engine).refund(order, tickets, settle);

  const at = (performanceId: string, code: string, door = STALLS) => checkIn.checkIn({ performanceId, code, ...door });

  it("admits a paid ticket with its seat as the e-ticket names it, the buyer's name and no access needs", async () => {
    const { order, tickets } = await paidOrder(onSale[0]!, [["A", "3"]]);
    const answer = await at(onSale[0]!, tickets[0]!.barcode);
    expect(answer).toEqual({
      outcome: "admitted",
      label: "Stalls, row A, seat 3",
      name: "Jo Bloggs",
      orderNumber: order.number,
      access: {
        place: null,
        booking: { wheelchairSpaces: 0, companionSeats: 0, accessSeats: 0 },
        services: [],
        registered: null,
      },
    });
    const row = await store.db
      .selectFrom("ticket_check_ins")
      .selectAll()
      .where("ticket_id", "=", tickets[0]!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      ticket_id: tickets[0]!.id,
      performance_id: onSale[0],
      order_id: order.id,
      checked_in_at: NOON,
      door: "Stalls door",
      staff_id: "staff-stalls",
    });
  });

  it("admits a code typed in lower case with spaces and hyphens as the code itself", async () => {
    const { tickets } = await paidOrder(onSale[0]!, [["A", "4"]]);
    const code = tickets[0]!.barcode;
    const typed = ` ${code.slice(0, 4).toLowerCase()} ${code.slice(4, 8)}-${code.slice(8, 12).toLowerCase()}-${code.slice(12)} `;
    expect((await at(onSale[0]!, typed)).outcome).toBe("admitted");
    expect((await at(onSale[0]!, code, CIRCLE)).outcome).toBe("alreadyUsed");
  });

  it("says a ticket already admitted was used, when and at which door", async () => {
    const { tickets } = await paidOrder(onSale[0]!, [["B", "3"]]);
    seed.clock.set("2026-11-23T19:00:00.000Z");
    expect((await at(onSale[0]!, tickets[0]!.barcode, STALLS)).outcome).toBe("admitted");
    seed.clock.set("2026-11-23T19:05:00.000Z");
    expect(await at(onSale[0]!, tickets[0]!.barcode, CIRCLE)).toEqual({
      outcome: "alreadyUsed",
      label: "Stalls, row B, seat 3",
      name: "Jo Bloggs",
      checkedInAt: "2026-11-23T19:00:00.000Z",
      door: "Stalls door",
    });
    const rows = await store.db
      .selectFrom("ticket_check_ins")
      .selectAll()
      .where("ticket_id", "=", tickets[0]!.id)
      .execute();
    expect(rows.map((row) => row.door)).toEqual(["Stalls door"]);
  });

  it("refuses a refunded ticket as void, and its order's other tickets still admit", async () => {
    const { order, tickets } = await paidOrder(onSale[0]!, [
      ["B", "4"],
      ["B", "5"],
    ]);
    seed.clock.set("2026-11-23T15:00:00.000Z");
    await refund(order, [tickets[0]!]);
    seed.clock.set("2026-11-23T19:00:00.000Z");
    expect(await at(onSale[0]!, tickets[0]!.barcode)).toEqual({
      outcome: "void",
      label: "Stalls, row B, seat 4",
      name: "Jo Bloggs",
      voidedAt: "2026-11-23T15:00:00.000Z",
    });
    expect((await at(onSale[0]!, tickets[1]!.barcode)).outcome).toBe("admitted");
  });

  it("refuses every ticket of an order refunded whole as void", async () => {
    const { order, tickets } = await paidOrder(onSale[0]!, [
      ["B", "6"],
      ["B", "7"],
    ]);
    await refund(order, "whole");
    for (const ticket of tickets) expect((await at(onSale[0]!, ticket.barcode)).outcome).toBe("void");
    const rows = await store.db
      .selectFrom("ticket_check_ins")
      .select("ticket_id")
      .where("order_id", "=", order.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it("refuses a ticket a refund has taken and not yet settled as void, with no time yet", async () => {
    const { order, tickets } = await paidOrder(onSale[0]!, [["B", "8"]]);
    await refund(order, tickets, false);
    expect(await at(onSale[0]!, tickets[0]!.barcode)).toEqual({
      outcome: "void",
      label: "Stalls, row B, seat 8",
      name: "Jo Bloggs",
      voidedAt: null,
    });
  });

  it("says which performance a ticket for another one is for, and does not admit it", async () => {
    const { tickets } = await paidOrder(onSale[1]!, [["A", "3"]]);
    const other = seed.performances.find((performance) => performance.id === onSale[1])!;
    expect(await at(onSale[0]!, tickets[0]!.barcode)).toEqual({
      outcome: "otherPerformance",
      label: "Stalls, row A, seat 3",
      performance: {
        id: onSale[1],
        title: "Test Show",
        startsAt: other.starts_at,
        timeZone: "Europe/London",
        venue: "Test Hall",
      },
    });
    // Still good for its own performance.
    expect((await at(onSale[1]!, tickets[0]!.barcode)).outcome).toBe("admitted");
  });

  it("does not know a code no ticket has, nor one that cannot be a code", async () => {
    expect(await at(onSale[0]!, newBarcode())).toEqual({ outcome: "unknown" });
    expect(await at(onSale[0]!, "not a ticket")).toEqual({ outcome: "unknown" });
    expect(await at(onSale[0]!, "")).toEqual({ outcome: "unknown" });
    expect(await at(onSale[0]!, "' or 1=1 --")).toEqual({ outcome: "unknown" });
  });

  it("tells the door a booking's wheelchair space, companion seat, services and registered needs", async () => {
    const performanceId = onSale[2]!;
    await store.db
      .updateTable("performances")
      .set({ access_services: "captioned,audio-described" })
      .where("id", "=", performanceId)
      .execute();
    // The wheelchair space has good headset reception for the audio description.
    await store.db
      .updateTable("seats")
      .set({ suits: "audio-described" })
      .where("id", "=", seed.seat("A", "1"))
      .execute();
    const customerId = await insertCustomer(store, seed.clock);
    await engine.memberships.registerAccess(customerId, {
      wheelchair: true,
      companions: 1,
      otherNeeds: "Step-free route, please",
    });
    const { tickets } = await paidOrder(
      performanceId,
      [
        ["A", "1"],
        ["A", "2"],
      ],
      { customer: { ...JO, customerId }, entitlements: WHEELCHAIR_USER },
    );
    const [wheelchair, companion] = tickets;
    const booking = { wheelchairSpaces: 1, companionSeats: 1, accessSeats: 0 };
    const registered = { wheelchair: true, companions: 1, otherNeeds: "Step-free route, please" };

    // The companion arrives first: the door knows a wheelchair user is coming.
    const first = await at(performanceId, companion!.barcode);
    expect(first.outcome === "admitted" && first.access).toEqual({
      place: "companion",
      booking,
      services: [
        { service: "captioned", seatSuits: false },
        { service: "audio-described", seatSuits: false },
      ],
      registered,
    });
    const second = await at(performanceId, wheelchair!.barcode);
    expect(second.outcome === "admitted" && second.access).toEqual({
      place: "wheelchair",
      booking,
      services: [
        { service: "captioned", seatSuits: false },
        { service: "audio-described", seatSuits: true },
      ],
      registered,
    });
  });

  it("counts admitted and expected: paid tickets not refunded nor being refunded", async () => {
    const performanceId = onSale[3]!;
    expect(await checkIn.counts(performanceId)).toEqual({ admitted: 0, expected: 0 });
    const three = await paidOrder(performanceId, [
      ["A", "3"],
      ["A", "4"],
      ["A", "5"],
    ]);
    const one = await paidOrder(performanceId, [["A", "6"]]);
    const refundedWhole = await paidOrder(performanceId, [
      ["B", "3"],
      ["B", "4"],
    ]);
    const beingRefunded = await paidOrder(performanceId, [["B", "5"]]);
    await paidOrder(performanceId, [["B", "6"]], { pay: false });
    await refund(three.order, [three.tickets[0]!]);
    await refund(refundedWhole.order, "whole");
    await refund(beingRefunded.order, beingRefunded.tickets, false);
    expect(await checkIn.counts(performanceId)).toEqual({ admitted: 0, expected: 3 });

    expect((await at(performanceId, three.tickets[1]!.barcode)).outcome).toBe("admitted");
    expect((await at(performanceId, one.tickets[0]!.barcode)).outcome).toBe("admitted");
    // Refusals count nothing: used again, void, for another performance, unknown.
    expect((await at(performanceId, one.tickets[0]!.barcode, CIRCLE)).outcome).toBe("alreadyUsed");
    expect((await at(performanceId, three.tickets[0]!.barcode)).outcome).toBe("void");
    expect((await at(onSale[0]!, three.tickets[2]!.barcode)).outcome).toBe("otherPerformance");
    expect((await at(performanceId, newBarcode())).outcome).toBe("unknown");
    expect(await checkIn.counts(performanceId)).toEqual({ admitted: 2, expected: 3 });
  });

  describe("two doors at the same moment", () => {
    let other: Store;
    let otherCheckIn: CheckIn;

    beforeAll(() => {
      // A second connection to the same database, as a second server process has: the two race
      // in the database, not in one connection's queue.
      other = dialect === "postgres" ? openPostgres(store.location, 5) : openSqlite(store.location);
      otherCheckIn = createCheckIn(other, seed.clock);
    });
    afterAll(() => other.close());

    /** Both doors scan each ticket at once; what each was told, per ticket. */
    async function race(performanceId: string, tickets: IssuedTicket[]) {
      const answers: [CheckInOutcome, CheckInOutcome][] = [];
      for (const ticket of tickets)
        answers.push(
          await Promise.all([
            checkIn.checkIn({ performanceId, code: ticket.barcode, ...STALLS }),
            otherCheckIn.checkIn({ performanceId, code: ticket.barcode, ...CIRCLE }),
          ]),
        );
      return answers;
    }

    it("admit each ticket exactly once, and the other door is told which door did", async () => {
      const performanceId = onSale[0]!;
      const { tickets: first } = await paidOrder(performanceId, [
        ["A", "5"],
        ["A", "6"],
        ["A", "7"],
        ["A", "8"],
      ]);
      const { tickets: second } = await paidOrder(performanceId, [
        ["A", "9"],
        ["B", "9"],
        ["B", "1"],
      ]);
      const tickets = [...first, ...second];
      const answers = await race(performanceId, tickets);
      for (const [index, pair] of answers.entries()) {
        const admitted = pair.filter((answer) => answer.outcome === "admitted");
        const refused = pair.filter((answer) => answer.outcome !== "admitted");
        expect(admitted).toHaveLength(1);
        expect(refused).toHaveLength(1);
        const winnersDoor = pair[0].outcome === "admitted" ? STALLS.door : CIRCLE.door;
        expect(refused[0]).toMatchObject({ outcome: "alreadyUsed", door: winnersDoor, checkedInAt: NOON });
        const rows = await store.db
          .selectFrom("ticket_check_ins")
          .select(["door", "staff_id"])
          .where("ticket_id", "=", tickets[index]!.id)
          .execute();
        expect(rows).toEqual([
          { door: winnersDoor, staff_id: pair[0].outcome === "admitted" ? "staff-stalls" : "staff-circle" },
        ]);
      }
    });

    it("ten scans of one ticket at once, over both connections, admit it once", async () => {
      const performanceId = onSale[1]!;
      const { tickets } = await paidOrder(performanceId, [["A", "8"]]);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 ? otherCheckIn : checkIn).checkIn({
            performanceId,
            code: tickets[0]!.barcode,
            door: `Door ${index}`,
            staffId: `staff-${index}`,
          }),
        ),
      );
      expect(answers.filter((answer) => answer.outcome === "admitted")).toHaveLength(1);
      expect(answers.filter((answer) => answer.outcome === "alreadyUsed")).toHaveLength(9);
    });

    it("control: the doors' reads do race, so a look-then-write would admit twice", async () => {
      // The same two connections, each looking for a check-in and writing one if there is none,
      // without the key's say: whenever both looks find nothing, both would admit. The key turns
      // the second write away (here it throws), so counting those shows the race is real.
      const performanceId = onSale[1]!;
      const { order, tickets } = await paidOrder(performanceId, [
        ["A", "4"],
        ["A", "5"],
        ["A", "6"],
        ["A", "7"],
      ]);
      const lookThenWrite = async (db: Store["db"], ticket: IssuedTicket, orderId: string, door: string) => {
        const seen = await db
          .selectFrom("ticket_check_ins")
          .select("ticket_id")
          .where("ticket_id", "=", ticket.id)
          .executeTakeFirst();
        if (seen) return "alreadyUsed";
        try {
          await db
            .insertInto("ticket_check_ins")
            .values({
              ticket_id: ticket.id,
              performance_id: performanceId,
              order_id: orderId,
              checked_in_at: NOON,
              door,
              staff_id: "control",
            })
            .execute();
          return "admitted";
        } catch (error) {
          if (/unique|duplicate key/i.test(String(error))) return "admittedTwice";
          throw error;
        }
      };
      let bothLooked = 0;
      for (const ticket of tickets) {
        const pair = await Promise.all([
          lookThenWrite(store.db, ticket, order.id, STALLS.door),
          lookThenWrite(other.db, ticket, order.id, CIRCLE.door),
        ]);
        if (pair.includes("admittedTwice")) bothLooked += 1;
      }
      expect(bothLooked).toBeGreaterThan(0);
    });
  });
});
