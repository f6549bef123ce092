import type { Kysely, Transaction } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { Database } from "~/db/schema";
import { isBusy } from "./errors";
import { claimStatuses, insertClaims } from "./inventory.server";
import { writeStaffAudit } from "./staff-audit.server";
import { HOUSE_REASON_MAX_LENGTH, type SeatChoices, type SeatName, type SeatRefused } from "~/views/house-seats";

// House seats (issue 55 item 5, decision 0063): seats of a performance the box office keeps off
// sale, with a reason, until it releases them (or gives them away as a comp). A house seat is a
// seat_claims row of status "house", so it is taken wherever a claim counts (activeClaim: the
// buyer's seat map, best available, availability) and the (performance, seat) key keeps it from
// being claimed by anyone else; the house_seats row beside it says why, who and when.

export { HOUSE_REASON_MAX_LENGTH } from "~/views/house-seats";
export type { SeatChoice, SeatChoices, SeatName, SeatRefused, SeatState } from "~/views/house-seats";

export type HouseRefusal =
  | { ok: false; reason: "not-found" }
  /** Some of the seats are taken (or, for a release, not house seats): nothing was done. */
  | { ok: false; reason: "unavailable"; seats: SeatRefused[] }
  | { ok: false; reason: "busy" };

export interface HouseSeat extends SeatName {
  reason: string;
  staffId: string | null;
  /** The member of staff who held it, by their name now; null for the command line or an unknown id. */
  staffName: string | null;
  heldAt: string;
}

type Db = Kysely<Database> | Transaction<Database>;

/** The performance, with what the seat lists and comps need of it; undefined when there is none. */
export function performanceFacts(db: Db, performanceId: string) {
  return db
    .selectFrom("performances")
    .innerJoin("runs", "runs.id", "performances.run_id")
    .innerJoin("titles", "titles.id", "runs.title_id")
    .innerJoin("venues", "venues.id", "runs.venue_id")
    .select([
      "performances.id",
      "performances.price_plan_id",
      "performances.seat_limit",
      "titles.name as title",
      "venues.currency",
    ])
    .where("performances.id", "=", performanceId)
    .executeTakeFirst();
}

/** The seats this plan sells (all of them, or these), in the order of the house. */
export function planSeats(db: Db, pricePlanId: string, seatIds?: readonly number[]) {
  let query = db
    .selectFrom("seats")
    .innerJoin("price_plan_seats", "price_plan_seats.seat_id", "seats.id")
    .innerJoin("sections", "sections.id", "seats.section_id")
    .select([
      "seats.id",
      "seats.label",
      "seats.row_name",
      "seats.restrictions",
      "seats.seat_type",
      "sections.id as section_id",
      "sections.name as section",
    ])
    .where("price_plan_seats.price_plan_id", "=", pricePlanId)
    .orderBy("sections.sort_order")
    .orderBy("seats.row_order")
    .orderBy("seats.position");
  if (seatIds) query = query.where("seats.id", "in", seatIds.length ? [...seatIds] : [-1]);
  return query.execute();
}

type PlanSeat = Awaited<ReturnType<typeof planSeats>>[number];

export const nameOf = (seat: PlanSeat): SeatName => ({
  seatId: seat.id,
  section: seat.section,
  row: seat.row_name,
  seat: seat.label,
});

/** What the buyer's side would ask of a buyer before selling this seat (see SeatChoice). */
export const restrictionsOf = (seat: Pick<PlanSeat, "restrictions" | "seat_type">): string[] =>
  [...seat.restrictions.split(","), seat.seat_type === "companion" ? "wheelchair" : ""].filter(
    (key) => key !== "" && key !== "amex",
  );

/**
 * The refusal of the seats that could not be claimed or freed (`missed`), each named with its
 * state now.
 */
export async function unavailable(
  db: Db,
  performanceId: string,
  seats: readonly PlanSeat[],
  missed: readonly number[],
  now: string,
): Promise<{ ok: false; reason: "unavailable"; seats: SeatRefused[] }> {
  const refused = seats.filter((seat) => missed.includes(seat.id));
  const states = await claimStatuses(
    db,
    performanceId,
    now,
    refused.map((seat) => seat.id),
  );
  return {
    ok: false,
    reason: "unavailable",
    seats: refused.map((seat) => ({ ...nameOf(seat), state: states.get(seat.id) ?? "free" })),
  };
}

/** Deletes these seats' house_seats rows (their claims are gone or going): the reasons they had, once each. */
export async function deleteHouseSeats(db: Db, performanceId: string, seatIds: readonly number[]) {
  const rows = await db
    .deleteFrom("house_seats")
    .where("performance_id", "=", performanceId)
    .where("seat_id", "in", [...seatIds])
    .returning("reason")
    .execute();
  return [...new Set(rows.map((row) => row.reason))];
}

/** These seats of the performance's plan; null for no such performance, or a seat it does not sell. */
async function seatsOfPerformance(db: Db, performanceId: string, seatIds: readonly number[]) {
  const performance = await performanceFacts(db, performanceId);
  if (!performance) return null;
  const seats = await planSeats(db, performance.price_plan_id, seatIds);
  return seats.length === seatIds.length ? seats : null;
}

/** The audit entry of seats held or released, naming them, and the answer that names them. */
async function seatsChanged(
  trx: Transaction<Database>,
  now: Date,
  action: "holdSeats" | "releaseSeats",
  input: { performanceId: string; staffId: string | null },
  seats: readonly PlanSeat[],
  detail: Record<string, unknown>,
): Promise<{ ok: true; seats: SeatName[] }> {
  const names = seats.map(nameOf);
  await writeStaffAudit(trx, now, {
    staffId: input.staffId,
    action,
    performanceId: input.performanceId,
    detail: { seats: names.map(auditName), ...detail },
  });
  return { ok: true, seats: names };
}

/** A refusal inside a transaction: thrown to roll everything back, returned by `inTransaction`. */
class RolledBack<R> extends Error {
  constructor(readonly refusal: R) {
    super("rolled back");
  }
}

/**
 * Runs `work` in a transaction; a result with ok false rolls it back and is returned as it is.
 * `committed` hears of a result with ok true once it is committed (the caches' listeners).
 */
export async function inTransaction<T extends { ok: boolean }>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
  committed: () => void = () => {},
): Promise<T | { ok: false; reason: "busy" }> {
  let result: T;
  try {
    result = await db.transaction().execute(async (trx) => {
      const done = await work(trx);
      if (!done.ok) throw new RolledBack(done);
      return done;
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.refusal as T;
    if (isBusy(error)) return { ok: false, reason: "busy" };
    throw error;
  }
  committed();
  return result;
}

/**
 * `changed` hears, after the commit, of every performance whose seats were held or released (the
 * availability cache listens, as it does to buyers' holds and to refunds).
 */
export function createHouseSeats(store: Store, clock: Clock, changed: (performanceId: string) => void = () => {}) {
  const { db } = store;

  return {
    /** Every seat the performance's plan sells, by part of the house and row, each with its state; null for no such performance. */
    async choices(performanceId: string): Promise<SeatChoices | null> {
      const performance = await performanceFacts(db, performanceId);
      if (!performance) return null;
      const now = clock.now().toISOString();
      const [seats, claimed] = await Promise.all([
        planSeats(db, performance.price_plan_id),
        claimStatuses(db, performanceId, now),
      ]);
      const sections: SeatChoices["sections"] = [];
      for (const seat of seats) {
        let section = sections.at(-1);
        if (section?.sectionId !== seat.section_id) {
          section = { sectionId: seat.section_id, name: seat.section, rows: [] };
          sections.push(section);
        }
        let row = section.rows.at(-1);
        if (row?.row !== seat.row_name) {
          row = { row: seat.row_name, seats: [] };
          section.rows.push(row);
        }
        const status = claimed.get(seat.id);
        row.seats.push({
          seatId: seat.id,
          seat: seat.label,
          state: status === undefined ? "free" : status === "house" ? "house" : "taken",
          restrictions: restrictionsOf(seat),
          seatType: seat.seat_type,
        });
      }
      return { performanceId, seatLimit: performance.seat_limit, sections };
    },

    /** The performance's house seats, in the order of the house, each with why, who and when. */
    async list(performanceId: string): Promise<HouseSeat[]> {
      const rows = await db
        .selectFrom("house_seats")
        .innerJoin("seat_claims", (join) =>
          join
            .onRef("seat_claims.performance_id", "=", "house_seats.performance_id")
            .onRef("seat_claims.seat_id", "=", "house_seats.seat_id"),
        )
        .innerJoin("seats", "seats.id", "house_seats.seat_id")
        .innerJoin("sections", "sections.id", "seats.section_id")
        .leftJoin("staff_users", "staff_users.id", "house_seats.staff_id")
        .select([
          "house_seats.seat_id",
          "house_seats.reason",
          "house_seats.staff_id",
          "house_seats.held_at",
          "staff_users.name as staff_name",
          "seats.label",
          "seats.row_name",
          "sections.name as section",
        ])
        .where("house_seats.performance_id", "=", performanceId)
        .where("seat_claims.status", "=", "house")
        .orderBy("sections.sort_order")
        .orderBy("seats.row_order")
        .orderBy("seats.position")
        .execute();
      return rows.map((row) => ({
        seatId: Number(row.seat_id),
        section: row.section,
        row: row.row_name,
        seat: row.label,
        reason: row.reason,
        staffId: row.staff_id,
        staffName: row.staff_name,
        heldAt: row.held_at,
      }));
    },

    /**
     * Holds these seats off sale, all of them or none: one claim per seat, which the (performance,
     * seat) key lets in only where nobody has the seat (a buyer's hold that has lapsed is taken
     * over, as a buyer's new hold would take it). A seat sold, held by a buyer, withheld or a
     * house seat already is refused by name. The audit entry is written in the same transaction.
     */
    async hold(input: {
      performanceId: string;
      seatIds: readonly number[];
      reason: string;
      staffId: string | null;
    }): Promise<{ ok: true; seats: SeatName[] } | HouseRefusal> {
      const seatIds = [...new Set(input.seatIds)].sort((a, b) => a - b);
      const reason = input.reason.trim();
      if (seatIds.length === 0 || !reason || reason.length > HOUSE_REASON_MAX_LENGTH)
        return { ok: false, reason: "not-found" };
      const now = clock.now();
      const nowIso = now.toISOString();
      return inTransaction(
        db,
        async (trx): Promise<{ ok: true; seats: SeatName[] } | HouseRefusal> => {
          const seats = await seatsOfPerformance(trx, input.performanceId, seatIds);
          if (!seats) return { ok: false, reason: "not-found" };
          const missed = await insertClaims(
            trx,
            input.performanceId,
            seatIds,
            { status: "house", hold_id: null, held_until: null, order_id: null },
            nowIso,
          );
          if (missed.length > 0) return unavailable(trx, input.performanceId, seats, missed, nowIso);
          await trx
            .insertInto("house_seats")
            .values(
              seatIds.map((seatId) => ({
                performance_id: input.performanceId,
                seat_id: seatId,
                reason,
                staff_id: input.staffId,
                held_at: nowIso,
              })),
            )
            // A row left by a claim removed some other way (a script) is replaced: the claim just made decides.
            .onConflict((oc) =>
              oc.columns(["performance_id", "seat_id"]).doUpdateSet((eb) => ({
                reason: eb.ref("excluded.reason"),
                staff_id: eb.ref("excluded.staff_id"),
                held_at: eb.ref("excluded.held_at"),
              })),
            )
            .execute();
          return seatsChanged(trx, now, "holdSeats", input, seats, { seatIds, reason });
        },
        () => changed(input.performanceId),
      );
    },

    /**
     * Puts house seats back on sale, all of them or none: only house seats are freed, so a seat
     * sold or held by a buyer is never touched; one that is not a house seat is refused by name.
     */
    async release(input: {
      performanceId: string;
      seatIds: readonly number[];
      staffId: string | null;
    }): Promise<{ ok: true; seats: SeatName[] } | HouseRefusal> {
      const seatIds = [...new Set(input.seatIds)].sort((a, b) => a - b);
      if (seatIds.length === 0) return { ok: false, reason: "not-found" };
      const now = clock.now();
      const nowIso = now.toISOString();
      return inTransaction(
        db,
        async (trx): Promise<{ ok: true; seats: SeatName[] } | HouseRefusal> => {
          const seats = await seatsOfPerformance(trx, input.performanceId, seatIds);
          if (!seats) return { ok: false, reason: "not-found" };
          const freed = await trx
            .deleteFrom("seat_claims")
            .where("performance_id", "=", input.performanceId)
            .where("seat_id", "in", seatIds)
            .where("status", "=", "house")
            .returning("seat_id")
            .execute();
          const got = new Set(freed.map((row) => Number(row.seat_id)));
          const missed = seatIds.filter((seatId) => !got.has(seatId));
          if (missed.length > 0) return unavailable(trx, input.performanceId, seats, missed, nowIso);
          const reasons = await deleteHouseSeats(trx, input.performanceId, seatIds);
          return seatsChanged(trx, now, "releaseSeats", input, seats, { seatIds, reasons });
        },
        () => changed(input.performanceId),
      );
    },

    /**
     * Seats typed by name ("A3", "A 3", "Stalls A3", comma- or line-separated) as this
     * performance's seat ids. A name more than one part of the house has needs its part first.
     */
    async seatsByName(
      performanceId: string,
      typed: string,
    ): Promise<{ ok: true; seatIds: number[] } | { ok: false; unknown: string[]; ambiguous: string[] }> {
      const performance = await performanceFacts(db, performanceId);
      const entries = typed
        .split(/[,;\n]+/)
        .map((entry) => entry.trim())
        .filter(Boolean);
      if (!performance) return { ok: false, unknown: entries, ambiguous: [] };
      const seats = await planSeats(db, performance.price_plan_id);
      const squash = (text: string) => text.toUpperCase().replace(/[\s,.-]+/g, "");
      const seatIds: number[] = [];
      const unknown: string[] = [];
      const ambiguous: string[] = [];
      for (const entry of entries) {
        const key = squash(entry);
        const matches = seats.filter(
          (seat) =>
            key === squash(`${seat.row_name}${seat.label}`) ||
            key === squash(`${seat.section}${seat.row_name}${seat.label}`),
        );
        const exact = matches.filter((seat) => key === squash(`${seat.section}${seat.row_name}${seat.label}`));
        const found = exact.length === 1 ? exact : matches;
        if (found.length === 1) seatIds.push(found[0]!.id);
        else (found.length === 0 ? unknown : ambiguous).push(entry);
      }
      return unknown.length || ambiguous.length ? { ok: false, unknown, ambiguous } : { ok: true, seatIds };
    },
  };
}

/** A seat as the audit log names it. */
export const auditName = (seat: SeatName) => `${seat.section} ${seat.row}${seat.seat}`;

export type HouseSeats = ReturnType<typeof createHouseSeats>;
