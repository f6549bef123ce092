import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { openPostgres, type Store } from "~/db/connection.server";
import { createHouseSeats } from "~/ticketing/house-seats.server";
import { createInventory } from "~/ticketing/inventory.server";
import { createPerformanceReports } from "~/ticketing/performance-report.server";
import type { PricedBasket } from "~/ticketing/pricing";
import type { AppServices } from "~/web/context";
import { testServices } from "../support/app";
import { seedSmallCatalogue } from "../support/engine";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// House seats and comps (issue 55 item 5, decision 0063) over the site's own services on SQLite
// and PostgreSQL: a house seat is taken for buyers and a taken seat cannot become one, all or
// nothing; a release frees only house seats; staff and a buyer after one seat at the same moment
// (over two connections) get it once; a comp is a paid order of nothing with e-tickets and its
// email queued, refused a taken seat and more seats than the limit; the report counts house seats
// as held.

const NOON = "2026-11-23T12:00:00.000Z";
const PASSWORD = "a long staff password";

describe.each(DIALECTS)("house seats and comps on %s", (dialect) => {
  let scratch: TestStore | undefined;
  let services: AppServices;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  let staffId: string;
  /** Performances on general sale at noon on import day: each test keeps to its own. */
  let onSale: string[];
  const clock = fixedClock(NOON);

  beforeAll(async () => {
    scratch = dialect === "postgres" ? await createTestStore("postgres", 5) : undefined;
    services = await testServices(scratch ? { DATABASE_URL: scratch.location } : {}, clock);
    seed = await seedSmallCatalogue(services.store);
    onSale = seed.performances.filter((performance) => performance.presale_from === null).map(({ id }) => id);
    const added = await services.staff.add({
      email: `box-${randomUUID()}@venue.example`,
      name: "Sam Box",
      role: "boxOffice",
      password: PASSWORD,
    });
    if (!added.ok) throw new Error(added.reason);
    staffId = added.staff.id;
  });
  afterAll(async () => {
    await services?.close();
    await scratch?.drop();
  });
  beforeEach(() => {
    clock.set(NOON);
  });

  const seat = (row: string, label: string) => seed.seat(row, label);
  const claimOf = async (performanceId: string, seatId: number) =>
    (await services.store.db
      .selectFrom("seat_claims")
      .select(["status", "order_id"])
      .where("performance_id", "=", performanceId)
      .where("seat_id", "=", seatId)
      .executeTakeFirst()) ?? null;
  const hold = (performanceId: string, seatIds: number[], reason = "Director's guests") =>
    services.houseSeats.hold({ performanceId, seatIds, reason, staffId });
  const buyerHolds = (performanceId: string, seatIds: number[]) =>
    services.inventory.holdSeats({ basketId: randomUUID(), performanceId, seatIds });

  it("holds free seats off sale with a reason: taken for buyers, listed with who and why, audited", async () => {
    const performanceId = onSale[0]!;
    const held = await hold(performanceId, [seat("B", "4"), seat("B", "5")], "  Press night  ");
    expect(held).toEqual({
      ok: true,
      seats: [
        { seatId: seat("B", "4"), section: "Stalls", row: "B", seat: "4" },
        { seatId: seat("B", "5"), section: "Stalls", row: "B", seat: "5" },
      ],
    });
    expect(await claimOf(performanceId, seat("B", "4"))).toEqual({ status: "house", order_id: null });

    const refused = await buyerHolds(performanceId, [seat("B", "5"), seat("B", "6")]);
    expect(refused).toMatchObject({ ok: false, reason: "unavailable", seatIds: [seat("B", "5")] });
    // All or nothing for the buyer too: B6 was not held either.
    expect(await claimOf(performanceId, seat("B", "6"))).toBeNull();

    const choices = (await services.houseSeats.choices(performanceId))!;
    const rowB = choices.sections[0]!.rows.find((row) => row.row === "B")!;
    expect(rowB.seats.filter((choice) => choice.state === "house").map((choice) => choice.seat)).toEqual(["4", "5"]);
    expect(rowB.seats.find((choice) => choice.seat === "10")?.state).toBe("taken");

    expect(await services.houseSeats.list(performanceId)).toEqual([
      expect.objectContaining({
        seat: "4",
        row: "B",
        reason: "Press night",
        staffId,
        staffName: "Sam Box",
        heldAt: NOON,
      }),
      expect.objectContaining({
        seat: "5",
        row: "B",
        reason: "Press night",
        staffId,
        staffName: "Sam Box",
        heldAt: NOON,
      }),
    ]);
    const audit = (await services.staff.auditFor({ staffId })).filter((entry) => entry.action === "holdSeats");
    expect(audit.at(-1)).toMatchObject({
      performanceId,
      detail: { seats: ["Stalls B4", "Stalls B5"], reason: "Press night" },
    });
  });

  it("refuses, by name and all or nothing, a seat sold, held by a buyer, withheld or already a house seat", async () => {
    const performanceId = onSale[1]!;
    expect((await buyerHolds(performanceId, [seat("A", "5")])).ok).toBe(true);
    expect((await hold(performanceId, [seat("A", "6")])).ok).toBe(true);
    const refused = await hold(performanceId, [seat("A", "4"), seat("A", "5"), seat("A", "6"), seat("B", "10")]);
    expect(refused).toEqual({
      ok: false,
      reason: "unavailable",
      seats: [
        { seatId: seat("A", "5"), section: "Stalls", row: "A", seat: "5", state: "held" },
        { seatId: seat("A", "6"), section: "Stalls", row: "A", seat: "6", state: "house" },
        { seatId: seat("B", "10"), section: "Stalls", row: "B", seat: "10", state: "withheld" },
      ],
    });
    // A4 was free, and stays so: nothing of the refused hold is kept.
    expect(await claimOf(performanceId, seat("A", "4"))).toBeNull();
    expect((await services.houseSeats.list(performanceId)).map((house) => house.seat)).toEqual(["6"]);

    // A buyer's hold that has lapsed is no one's: a house seat may take it.
    clock.set(new Date(Date.parse(NOON) + 60 * 60_000));
    expect((await hold(performanceId, [seat("A", "5")])).ok).toBe(true);

    const comp = await services.comps.issue({
      performanceId,
      seatIds: [seat("A", "7")],
      name: "Pat Guest",
      email: "pat@example.com",
      reason: "Sold first",
      staffId,
      restrictedConfirmed: false,
    });
    expect(comp.ok).toBe(true);
    expect(await hold(performanceId, [seat("A", "7")])).toMatchObject({
      ok: false,
      reason: "unavailable",
      seats: [{ seat: "7", state: "sold" }],
    });
    expect(await hold(performanceId, [seat("A", "8")], "")).toEqual({ ok: false, reason: "not-found" });
    expect(await hold(performanceId, [seat("A", "8")], "x".repeat(201))).toEqual({ ok: false, reason: "not-found" });
  });

  it("releases house seats only: back on sale, audited with their reason; a seat that is not one is refused", async () => {
    const performanceId = onSale[2]!;
    expect((await hold(performanceId, [seat("B", "4"), seat("B", "5")], "Understudy's family")).ok).toBe(true);
    expect((await buyerHolds(performanceId, [seat("B", "6")])).ok).toBe(true);
    const refused = await services.houseSeats.release({
      performanceId,
      seatIds: [seat("B", "5"), seat("B", "6")],
      staffId,
    });
    expect(refused).toMatchObject({ ok: false, reason: "unavailable", seats: [{ seat: "6", state: "held" }] });
    expect(await claimOf(performanceId, seat("B", "6"))).toMatchObject({ status: "held" });
    expect(await claimOf(performanceId, seat("B", "5"))).toMatchObject({ status: "house" });

    const released = await services.houseSeats.release({ performanceId, seatIds: [seat("B", "5")], staffId });
    expect(released).toMatchObject({ ok: true, seats: [{ seat: "5" }] });
    expect(await claimOf(performanceId, seat("B", "5"))).toBeNull();
    expect((await services.houseSeats.list(performanceId)).map((house) => house.seat)).toEqual(["4"]);
    expect((await buyerHolds(performanceId, [seat("B", "5")])).ok).toBe(true);
    const audit = (await services.staff.auditFor({ staffId })).filter((entry) => entry.action === "releaseSeats");
    expect(audit.at(-1)).toMatchObject({
      performanceId,
      detail: { seats: ["Stalls B5"], reasons: ["Understudy's family"] },
    });
  });

  it("tells the availability cache, as a buyer's hold does", async () => {
    const performanceId = onSale[3]!;
    const before = (await services.availability.summary([performanceId])).get(performanceId)!;
    expect((await hold(performanceId, [seat("B", "3"), seat("B", "4"), seat("B", "5")])).ok).toBe(true);
    const after = (await services.availability.summary([performanceId])).get(performanceId)!;
    expect(after.left).toBe(before.left - 3);
    expect(
      (await services.houseSeats.release({ performanceId, seatIds: [seat("B", "3"), seat("B", "4")], staffId })).ok,
    ).toBe(true);
    expect((await services.availability.summary([performanceId])).get(performanceId)!.left).toBe(before.left - 1);
  });

  it("issues a comp: a paid order of nothing, its e-tickets issued and its email queued, audited", async () => {
    const performanceId = onSale[4]!;
    expect((await hold(performanceId, [seat("B", "6")], "Kept for the producer")).ok).toBe(true);
    const issued = await services.comps.issue({
      performanceId,
      seatIds: [seat("B", "5"), seat("B", "6")],
      name: "Pat Guest",
      email: "pat@example.com",
      reason: "Producer's guest",
      staffId,
      restrictedConfirmed: false,
    });
    if (!issued.ok) throw new Error(issued.reason);
    const { order } = issued;
    expect(issued.fromHouse.map((name) => name.seat)).toEqual(["6"]);
    expect(order).toMatchObject({
      status: "paid",
      total: 0,
      to_pay: 0,
      paid_at: NOON,
      customer_name: "Pat Guest",
      email: "pat@example.com",
      performance_id: performanceId,
      delivery_method: "eTicket",
      show_name: "Test Show",
      currency: "GBP",
    });
    const priced = JSON.parse(order.lines) as PricedBasket;
    expect(priced.lines.filter((line) => line.kind === "ticket").map((line) => line.amount)).toEqual([0, 0]);
    for (const seatId of [seat("B", "5"), seat("B", "6")])
      expect(await claimOf(performanceId, seatId)).toEqual({ status: "sold", order_id: order.id });
    // The house seat went into the comp: no longer listed.
    expect(await services.houseSeats.list(performanceId)).toEqual([]);

    const tickets = await services.orders.tickets(order.id);
    expect(tickets.map((ticket) => ticket.label)).toEqual(["Stalls, row B, seat 5", "Stalls, row B, seat 6"]);
    expect(tickets.every((ticket) => /^[0-9A-Z]{20,}$/.test(ticket.barcode))).toBe(true);
    const emails = await services.store.db
      .selectFrom("email_outbox")
      .select(["kind", "to_address", "text_body"])
      .where("order_id", "=", order.id)
      .execute();
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ kind: "orderConfirmation", to_address: "pat@example.com" });
    expect(emails[0]!.text_body).toContain(order.number);
    expect(emails[0]!.text_body).toContain(`/e-tickets/${order.access_key}`);

    const audit = await services.staff.auditFor({ orderId: order.id });
    expect(audit.map((entry) => entry.action)).toEqual(["releaseSeats", "issueComp"]);
    expect(audit[1]).toMatchObject({
      staffId,
      performanceId,
      detail: { orderNumber: order.number, reason: "Producer's guest", seats: ["Stalls B5", "Stalls B6"] },
    });

    const report = (await createPerformanceReports(services.store, clock).performanceReport(performanceId))!;
    expect(report.total).toMatchObject({ sold: 2, held: 0 });
    expect(report.gross).toBe(0);
    expect(report.orders).toBe(1);
    expect(report.tickets).toBe(2);

    // Refunded like any order: nothing goes back, and its seats are on sale again.
    expect(await services.refunds.refund(order.number)).toMatchObject({ ok: true, outcome: "refunded" });
    expect(await claimOf(performanceId, seat("B", "5"))).toBeNull();
  });

  it("refuses a comp a taken seat, more seats than the limit, and restricted seats unless confirmed", async () => {
    const performanceId = onSale[5]!;
    const comp = (seatIds: number[], restrictedConfirmed = false) =>
      services.comps.issue({
        performanceId,
        seatIds,
        name: "Pat Guest",
        email: "pat@example.com",
        reason: "Guest",
        staffId,
        restrictedConfirmed,
      });
    const ordersBefore = await services.store.db.selectFrom("orders").select("id").execute();

    expect((await buyerHolds(performanceId, [seat("A", "8")])).ok).toBe(true);
    expect(await comp([seat("A", "7"), seat("A", "8")])).toMatchObject({
      ok: false,
      reason: "unavailable",
      seats: [{ seat: "8", state: "held" }],
    });
    expect(await claimOf(performanceId, seat("A", "7"))).toBeNull();
    expect(await comp([seat("B", "10")])).toMatchObject({ reason: "unavailable", seats: [{ state: "withheld" }] });

    // The performance's seat limit is 4, as for a buyer's basket.
    expect(await comp(["3", "4", "5", "6", "7"].map((label) => seat("B", label)))).toEqual({
      ok: false,
      reason: "seat-limit",
      seatLimit: 4,
    });
    expect(await claimOf(performanceId, seat("B", "3"))).toBeNull();

    // A wheelchair space and its companion seat: only when the staff confirm the recipient needs them.
    expect(await comp([seat("A", "1"), seat("A", "2")])).toEqual({
      ok: false,
      reason: "restricted",
      seats: [
        { seatId: seat("A", "1"), section: "Stalls", row: "A", seat: "1" },
        { seatId: seat("A", "2"), section: "Stalls", row: "A", seat: "2" },
      ],
    });
    // An Amex seat is open to anyone on the buyer's side: no confirmation asked.
    expect((await comp([seat("B", "1")])).ok).toBe(true);
    expect((await services.store.db.selectFrom("orders").select("id").execute()).length).toBe(ordersBefore.length + 1);
    const confirmed = await comp([seat("A", "1"), seat("A", "2")], true);
    expect(confirmed.ok).toBe(true);
    if (confirmed.ok)
      expect((await services.staff.auditFor({ orderId: confirmed.order.id }))[0]?.detail).toMatchObject({
        restrictedConfirmed: ["Stalls A1", "Stalls A2"],
      });
    expect(
      await services.comps.issue({
        performanceId,
        seatIds: [seat("A", "9")],
        name: "",
        email: "pat@example.com",
        reason: "Guest",
        staffId,
        restrictedConfirmed: false,
      }),
    ).toEqual({ ok: false, reason: "incomplete" });
  });

  it("finds typed seat names, and says which it cannot", async () => {
    const performanceId = onSale[0]!;
    expect(await services.houseSeats.seatsByName(performanceId, "a3, B 4\nstalls a5")).toEqual({
      ok: true,
      seatIds: [seat("A", "3"), seat("B", "4"), seat("A", "5")],
    });
    expect(await services.houseSeats.seatsByName(performanceId, "A3, Z9, Circle A1")).toEqual({
      ok: false,
      unknown: ["Z9", "Circle A1"],
      ambiguous: [],
    });
  });

  it("counts house seats as held in the performance's report", async () => {
    // Row A's and B's third seats are free there (the refusals' test keeps to seats 4 to 8).
    const performanceId = onSale[1]!;
    const reports = createPerformanceReports(services.store, clock);
    const before = (await reports.performanceReport(performanceId))!.total;
    expect((await hold(performanceId, [seat("A", "3"), seat("B", "3")])).ok).toBe(true);
    const report = (await reports.performanceReport(performanceId))!;
    expect(report.total).toEqual({ ...before, held: before.held + 2, free: before.free - 2 });
    const stalls = report.sections.find((section) => section.name === "Stalls")!;
    expect(stalls.sold + stalls.held + stalls.free).toBe(stalls.capacity);
    expect(report.bands.map((band) => [band.code, band.held])).toEqual(
      expect.arrayContaining([
        ["A", expect.any(Number)],
        ["B", expect.any(Number)],
      ]),
    );
  });

  describe("staff and a buyer after one seat at the same moment", () => {
    let other: Store;

    beforeAll(() => {
      // On PostgreSQL a second pool, as a second server process has: the two race in the
      // database. SQLite's one writer at a time is the file's lock (BEGIN IMMEDIATE), which a
      // second connection in this same process would wait for without yielding: there they race
      // for the one connection, as two requests of one process do.
      other = dialect === "postgres" ? openPostgres(scratch!.location, 5) : services.store;
    });
    afterAll(async () => {
      if (other !== services.store) await other.close();
    });

    it("gives it to exactly one of them, every time", async () => {
      const performanceId = onSale[0]!;
      const buyerInventory = createInventory(other, clock);
      const staffSide = createHouseSeats(services.store, clock);
      const winners = { staff: 0, buyer: 0 };
      for (const label of ["6", "7", "8", "9"]) {
        const seatId = seat("A", label);
        const [staff, buyer] = await Promise.all([
          staffSide.hold({ performanceId, seatIds: [seatId], reason: "Race", staffId }),
          buyerInventory.holdSeats({ basketId: randomUUID(), performanceId, seatIds: [seatId] }),
        ]);
        expect([staff.ok, buyer.ok].filter(Boolean), `seat A${label}`).toHaveLength(1);
        const claim = await claimOf(performanceId, seatId);
        expect(claim?.status).toBe(staff.ok ? "house" : "held");
        winners[staff.ok ? "staff" : "buyer"] += 1;
      }
      expect(winners.staff + winners.buyer).toBe(4);
    });
  });
});
