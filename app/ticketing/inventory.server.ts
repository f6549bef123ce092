import { randomUUID } from "node:crypto";
import { addMinutes } from "date-fns";
import type { ExpressionBuilder, Kysely, Transaction } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { Database, SeatClaimTable } from "~/db/schema";
import type { Restriction } from "./catalogue-file";
import { isBusy, refuse, type Refusal } from "./errors";
import { UNCOUNTED, type Counted } from "~/monitoring/counted";
import { saleRefusal, saleWindowOf } from "./sale-window";

export interface HoldPolicy {
  /** A new hold lasts this long. */
  holdMinutes: number;
  /** Each extension adds this much… */
  extensionMinutes: number;
  /** …up to this long after the hold was taken (WCAG 2.2.1: a buyer who needs more time gets it). */
  maxHoldMinutes: number;
}

export const DEFAULT_HOLD_POLICY: HoldPolicy = { holdMinutes: 15, extensionMinutes: 10, maxHoldMinutes: 45 };

/** What a buyer may book beyond ordinary seats, and how they qualify for presale. */
export interface Entitlements {
  /** Restricted seats this buyer may take (amex seats are open to anyone and flagged instead). */
  restrictions: ReadonlySet<Restriction>;
  /** Presale audiences this buyer belongs to ("plus-member", "promo"). */
  presale: ReadonlySet<string>;
  /** How many companion seats (beside wheelchair spaces) one basket may hold for a performance. */
  companions: number;
}

export const GUEST: Entitlements = { restrictions: new Set(["amex"]), presale: new Set(), companions: 0 };

export interface Held {
  ok: true;
  holdId: string;
  expiresAt: string;
}

type Db = Transaction<Database>;

/**
 * The seat limit: one basket holds at most the performance's limit of seats and places. The
 * engine asks it before every hold, and best available before it searches.
 */
export function seatLimitRefusal(seatLimit: number, places: number): Refusal | null {
  return places > seatLimit ? refuse("seat-limit", { seatSelectionLimit: seatLimit }) : null;
}

/** Seats and places that count as taken at `now`: sold, withheld, house seats, or held and not yet expired. */
export const activeClaim = (now: string) => (eb: ExpressionBuilder<Database, "seat_claims">) =>
  eb.or([eb("seat_claims.status", "!=", "held"), eb("seat_claims.held_until", ">", now)]);

/**
 * The claims on a performance's seats (all of them, or these) that count at `now` (activeClaim),
 * each seat's status; in or out of a transaction. A seat nobody has is not in it.
 */
export async function claimStatuses(
  db: Kysely<Database> | Transaction<Database>,
  performanceId: string,
  now: string,
  seatIds?: readonly number[],
): Promise<Map<number, SeatClaimTable["status"]>> {
  if (seatIds?.length === 0) return new Map();
  let query = db
    .selectFrom("seat_claims")
    .select(["seat_id", "status"])
    .where("performance_id", "=", performanceId)
    .where(activeClaim(now));
  if (seatIds) query = query.where("seat_id", "in", [...seatIds]);
  const claims = await query.execute();
  return new Map(claims.map((claim) => [Number(claim.seat_id), claim.status]));
}

/** The seats of a performance taken at `now` (activeClaim), in or out of a transaction. */
export async function takenSeatIds(db: Kysely<Database>, performanceId: string, now: string): Promise<Set<number>> {
  return new Set((await claimStatuses(db, performanceId, now)).keys());
}

/**
 * One claim per seat, in one insert, inside the caller's transaction: the (performance, seat) key
 * lets each in only where nobody has the seat, or where a buyer's hold on it has lapsed at `now`
 * (an expired claim still has the key: it is taken over, as good as a new claim), or, with
 * `overHouse`, over a house seat. The seats it could not claim; the caller refuses, and so rolls
 * back, when there are any.
 */
export async function insertClaims(
  trx: Transaction<Database>,
  performanceId: string,
  seatIds: readonly number[],
  claim: Pick<SeatClaimTable, "status" | "hold_id" | "held_until" | "order_id">,
  now: string,
  overHouse = false,
): Promise<number[]> {
  const claimed = await trx
    .insertInto("seat_claims")
    .values(seatIds.map((seatId) => ({ performance_id: performanceId, seat_id: seatId, ...claim })))
    .onConflict((oc) =>
      oc
        .columns(["performance_id", "seat_id"])
        .doUpdateSet({ ...claim, price_option_id: null })
        .where((eb) => {
          const lapsed = eb.and([eb("seat_claims.status", "=", "held"), eb("seat_claims.held_until", "<=", now)]);
          return overHouse ? eb.or([lapsed, eb("seat_claims.status", "=", "house")]) : lapsed;
        }),
    )
    .returning("seat_id")
    .execute();
  const got = new Set(claimed.map((row) => Number(row.seat_id)));
  return seatIds.filter((seatId) => !got.has(seatId));
}

/** Standing places that count as taken at `now`: sold, or held and not yet expired. */
export const activeStandingClaim = (now: string) => (eb: ExpressionBuilder<Database, "standing_claims">) =>
  eb.or([eb("standing_claims.status", "!=", "held"), eb("standing_claims.held_until", ">", now)]);

/**
 * A refund gives sold places back for sale, inside the refund's transaction: only this order's own
 * sold claims for these tickets (`seat:perf:id`, `standing:claimId:n`), so a seat sold since to
 * someone else is never touched. A seat's claim goes, which frees it; a standing claim loses one
 * place per ticket. Returns the performances whose availability changed.
 */
export async function releaseSoldPlaces(trx: Db, orderId: string, refs: readonly string[]): Promise<Set<string>> {
  const seats = new Map<string, number[]>();
  const standing = new Map<string, number>();
  for (const ref of refs) {
    const [kind, first, second] = ref.split(":");
    if (kind === "seat" && first && second) seats.set(first, [...(seats.get(first) ?? []), Number(second)]);
    else if (kind === "standing" && first) standing.set(first, (standing.get(first) ?? 0) + 1);
  }
  const changed = new Set<string>();
  for (const [performanceId, seatIds] of seats) {
    const freed = await trx
      .deleteFrom("seat_claims")
      .where("performance_id", "=", performanceId)
      .where("seat_id", "in", seatIds)
      .where("status", "=", "sold")
      .where("order_id", "=", orderId)
      .executeTakeFirst();
    if (Number(freed.numDeletedRows) > 0) changed.add(performanceId);
  }
  for (const [claimId, places] of standing) {
    const claim = await trx
      .selectFrom("standing_claims")
      .select(["performance_id", "quantity"])
      .where("id", "=", claimId)
      .where("status", "=", "sold")
      .where("order_id", "=", orderId)
      .executeTakeFirst();
    if (!claim) continue;
    if (claim.quantity <= places) await trx.deleteFrom("standing_claims").where("id", "=", claimId).execute();
    else
      await trx
        .updateTable("standing_claims")
        .set({ quantity: claim.quantity - places })
        .where("id", "=", claimId)
        .execute();
    changed.add(claim.performance_id);
  }
  return changed;
}

/**
 * `changed` hears, after the commit, of every hold and release that changes how many places of a
 * performance are taken (the availability cache listens).
 */
/** How long the claims of an expired hold are kept before the sweeper removes them. */
export const EXPIRED_CLAIMS_KEPT_MS = 10 * 60_000;

export function createInventory(
  store: Store,
  clock: Clock,
  policy: HoldPolicy = DEFAULT_HOLD_POLICY,
  changed: (performanceId: string) => void = () => {},
  counted: Pick<Counted, "holds"> = UNCOUNTED,
) {
  const { db } = store;
  const reported = <T extends { ok: boolean } | void>(performanceId: string | undefined, result: T): T => {
    if (performanceId && (result === undefined || result.ok)) changed(performanceId);
    return result;
  };
  const held = <T extends { ok: boolean }>(performanceId: string, result: T): T => {
    if (result.ok) counted.holds("made");
    return reported(performanceId, result);
  };

  /**
   * The performance, when it is on sale to this buyer now. `lock`: on PostgreSQL, one buyer at a
   * time per performance goes on from here (SQLite's immediate transaction already serialises
   * every writer).
   */
  async function saleCheck(trx: Db, performanceId: string, entitlements: Entitlements, now: string, lock = false) {
    const query = trx.selectFrom("performances").selectAll().where("id", "=", performanceId);
    const performance = await (lock && store.dialect === "postgres" ? query.forUpdate() : query).executeTakeFirst();
    if (!performance) return { refusal: refuse("not-found") } as const;
    const refusal = saleRefusal(saleWindowOf(performance), new Date(now), entitlements.presale);
    if (refusal) return { refusal: refuse(refusal) } as const;
    return { performance } as const;
  }

  /**
   * What this basket already has at the performance, in one statement: the seats and standing
   * places it holds or has bought (for the seat limit), its companion seats, and its live hold.
   * The basket's row is written first (made if new), so it stays locked until the transaction
   * ends: two requests for one basket (copies of one buyer's cookies, issue 41) take their turns,
   * and the second counts what the first held against the seat limit. SQLite's immediate
   * transaction serialises them already; on PostgreSQL this row lock does.
   */
  async function basketAt(trx: Db, basketId: string, performanceId: string, now: string) {
    await trx
      .insertInto("baskets")
      .values({ id: basketId, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column("id").doUpdateSet({ updated_at: now }))
      .execute();
    const seatsOfBasket = () =>
      trx
        .selectFrom("seat_claims")
        .innerJoin("holds", "holds.id", "seat_claims.hold_id")
        // By the basket's holds (holds_by_basket, then seat_claims_by_hold): a hold's claims are
        // for its performance, and asking the claims' own performance would have the planner read
        // every claim of the house.
        .where("holds.basket_id", "=", basketId)
        .where("holds.performance_id", "=", performanceId)
        .where(activeClaim(now));
    const liveHold = () =>
      trx
        .selectFrom("holds")
        .where("holds.basket_id", "=", basketId)
        .where("holds.performance_id", "=", performanceId)
        .where("holds.expires_at", ">", now)
        .orderBy("holds.expires_at", "desc")
        .limit(1);
    const row = await trx
      .selectNoFrom((eb) => [
        seatsOfBasket()
          .select((inner) => inner.fn.countAll<number>().as("count"))
          .as("seats"),
        seatsOfBasket()
          .innerJoin("seats", "seats.id", "seat_claims.seat_id")
          .where("seats.seat_type", "=", "companion")
          .select((inner) => inner.fn.countAll<number>().as("count"))
          .as("companions"),
        eb
          .selectFrom("standing_claims")
          .innerJoin("holds", "holds.id", "standing_claims.hold_id")
          .where("holds.basket_id", "=", basketId)
          .where("holds.performance_id", "=", performanceId)
          .where(activeStandingClaim(now))
          .select((inner) => inner.fn.sum<number>("standing_claims.quantity").as("count"))
          .as("standing"),
        liveHold().select("holds.id").as("hold_id"),
        liveHold().select("holds.expires_at").as("hold_expires_at"),
      ])
      .executeTakeFirstOrThrow();
    return {
      places: Number(row.seats ?? 0) + Number(row.standing ?? 0),
      companions: Number(row.companions ?? 0),
      hold: row.hold_id && row.hold_expires_at ? { id: row.hold_id, expires_at: row.hold_expires_at } : null,
    };
  }

  /** The basket's live hold for this performance, or a new one; new places share its expiry. */
  async function holdFor(
    trx: Db,
    basketId: string,
    performanceId: string,
    now: Date,
    live: { id: string; expires_at: string } | null,
  ) {
    // The basket's row is there: basketAt wrote it, in this transaction.
    if (live) return live;
    const hold = {
      id: randomUUID(),
      basket_id: basketId,
      performance_id: performanceId,
      created_at: now.toISOString(),
      expires_at: addMinutes(now, policy.holdMinutes).toISOString(),
    };
    await trx.insertInto("holds").values(hold).execute();
    return hold;
  }

  /** Frees some of the seats this basket holds for a performance (only its own, only held ones). */
  async function releaseBasketSeats(trx: Db, basketId: string, performanceId: string, seatIds: number[]) {
    const holds = trx.selectFrom("holds").select("id").where("basket_id", "=", basketId);
    await trx
      .deleteFrom("seat_claims")
      .where("performance_id", "=", performanceId)
      .where("seat_id", "in", seatIds)
      .where("status", "=", "held")
      .where("hold_id", "in", holds)
      .execute();
  }

  async function releaseBasketStanding(trx: Db, basketId: string, performanceId: string, sectionId?: string) {
    let query = trx
      .deleteFrom("standing_claims")
      .where("performance_id", "=", performanceId)
      .where("status", "=", "held")
      .where("hold_id", "in", trx.selectFrom("holds").select("id").where("basket_id", "=", basketId));
    if (sectionId) query = query.where("section_id", "=", sectionId);
    await query.execute();
  }

  async function inTransaction<T>(work: (trx: Db) => Promise<T | Refusal>): Promise<T | Refusal> {
    try {
      return await db.transaction().execute(async (trx) => {
        const result = await work(trx);
        // A refusal must leave nothing behind: throw to roll back, and return it below.
        if ((result as Refusal | null)?.ok === false) throw new RolledBack(result as Refusal);
        return result;
      });
    } catch (error) {
      if (error instanceof RolledBack) return error.refusal;
      if (isBusy(error)) return refuse("busy");
      throw error;
    }
  }

  /**
   * The claim itself, inside the caller's transaction: checks the seats against the buyer's
   * entitlements and the seat limit, then one insert of one claim per seat, which the (performance,
   * seat) key lets succeed only if no one else has any of them.
   */
  async function claimSeats(
    trx: Db,
    input: { basketId: string; performanceId: string; entitlements: Entitlements },
    performance: { price_plan_id: string; seat_limit: number },
    seatIds: number[],
    now: Date,
  ): Promise<Held | Refusal> {
    const nowIso = now.toISOString();
    const seats = await trx
      .selectFrom("seats")
      .innerJoin("price_plan_seats", "price_plan_seats.seat_id", "seats.id")
      .select(["seats.id", "seats.restrictions", "seats.seat_type"])
      .where("price_plan_seats.price_plan_id", "=", performance.price_plan_id)
      .where("seats.id", "in", seatIds)
      .execute();
    if (seats.length !== seatIds.length) return refuse("not-found");
    // A companion seat sits beside a wheelchair space and is kept for the wheelchair user's
    // companion: it needs the same entitlement as the space.
    const restricted = seats.some((seat) =>
      [...seat.restrictions.split(","), seat.seat_type === "companion" ? "wheelchair" : ""]
        .filter(Boolean)
        .some((key) => !input.entitlements.restrictions.has(key as Restriction)),
    );
    if (restricted) return refuse("restricted");
    const companions = seats.filter((seat) => seat.seat_type === "companion").length;
    const basket = await basketAt(trx, input.basketId, input.performanceId, nowIso);
    if (companions > 0 && basket.companions + companions > input.entitlements.companions)
      return refuse("companion-limit", { companionLimit: input.entitlements.companions });
    const overLimit = seatLimitRefusal(performance.seat_limit, basket.places + seatIds.length);
    if (overLimit) return overLimit;
    const hold = await holdFor(trx, input.basketId, input.performanceId, now, basket.hold);
    const missed = await insertClaims(
      trx,
      input.performanceId,
      seatIds,
      { status: "held", hold_id: hold.id, held_until: hold.expires_at, order_id: null },
      nowIso,
    );
    // Rolled back (the refusal undoes the transaction): the buyer gets all of them or none.
    if (missed.length > 0) return refuse("unavailable", { seatIds: missed });
    return { ok: true as const, holdId: hold.id, expiresAt: hold.expires_at };
  }

  return {
    /** Holds every requested seat for the basket, or none. */
    async holdSeats(input: {
      basketId: string;
      performanceId: string;
      seatIds: number[];
      /** Seats of this basket to give up in the same transaction (a swap at the seat limit). */
      releaseSeatIds?: number[];
      entitlements?: Entitlements;
    }): Promise<Held | Refusal> {
      const seatIds = [...new Set(input.seatIds)].sort((a, b) => a - b);
      const releaseSeatIds = [...new Set(input.releaseSeatIds ?? [])].filter((id) => !seatIds.includes(id));
      if (seatIds.length === 0) return refuse("not-found");
      const entitlements = input.entitlements ?? GUEST;
      const now = clock.now();
      const result = await inTransaction(async (trx) => {
        const check = await saleCheck(trx, input.performanceId, entitlements, now.toISOString());
        if (check.refusal) return check.refusal;
        if (releaseSeatIds.length) await releaseBasketSeats(trx, input.basketId, input.performanceId, releaseSeatIds);
        return claimSeats(trx, { ...input, entitlements }, check.performance, seatIds, now);
      });
      return held(input.performanceId, result);
    },

    /**
     * Best available, held: `choose` picks the seats from what is free at this moment, inside the
     * transaction that claims them, so two buyers searching at once never pick the same block
     * (SQLite serialises every writer; on PostgreSQL the performance's row is locked for the
     * choice). A seat taken on the map in the same instant can still win the seat's key: the
     * refusal names it and the caller chooses again. "no-block" when nothing that fits is free.
     */
    async holdBest(input: {
      basketId: string;
      performanceId: string;
      choose: (taken: ReadonlySet<number>) => number[] | null;
      /** Seats of this basket to give up in the same transaction (the block replaces them). */
      releaseSeatIds?: number[];
      entitlements?: Entitlements;
    }): Promise<Held | Refusal> {
      const entitlements = input.entitlements ?? GUEST;
      const now = clock.now();
      const nowIso = now.toISOString();
      const result = await inTransaction(async (trx) => {
        const check = await saleCheck(trx, input.performanceId, entitlements, nowIso, true);
        if (check.refusal) return check.refusal;
        const release = input.releaseSeatIds ?? [];
        if (release.length) await releaseBasketSeats(trx, input.basketId, input.performanceId, release);
        const chosen = input.choose(await takenSeatIds(trx, input.performanceId, nowIso)) ?? [];
        if (chosen.length === 0) return refuse("no-block");
        return claimSeats(trx, { ...input, entitlements }, check.performance, chosen, now);
      });
      return held(input.performanceId, result);
    },

    /** Holds standing places in a general-admission area, within its capacity. */
    async holdStanding(input: {
      basketId: string;
      performanceId: string;
      sectionId: string;
      quantity: number;
      /** Replace what the basket already holds in this area (the buyer changed the quantity). */
      replace?: boolean;
      entitlements?: Entitlements;
    }): Promise<Held | Refusal> {
      if (!Number.isInteger(input.quantity) || input.quantity < 1) return refuse("not-found");
      const now = clock.now();
      const nowIso = now.toISOString();
      const result = await inTransaction(async (trx) => {
        await trx
          .deleteFrom("standing_claims")
          .where("performance_id", "=", input.performanceId)
          .where("status", "=", "held")
          .where("held_until", "<=", nowIso)
          .execute();
        // One buyer at a time per performance counts and claims standing places.
        const check = await saleCheck(trx, input.performanceId, input.entitlements ?? GUEST, nowIso, true);
        if (check.refusal) return check.refusal;
        const { performance } = check;
        if (input.replace) await releaseBasketStanding(trx, input.basketId, input.performanceId, input.sectionId);
        const area = await trx
          .selectFrom("sections")
          .innerJoin("price_plan_areas", "price_plan_areas.section_id", "sections.id")
          .select(["sections.id", "sections.capacity"])
          .where("price_plan_areas.price_plan_id", "=", performance.price_plan_id)
          .where("sections.id", "=", input.sectionId)
          .where("sections.kind", "=", "standing")
          .executeTakeFirst();
        if (!area) return refuse("not-found");
        const basket = await basketAt(trx, input.basketId, input.performanceId, nowIso);
        const overLimit = seatLimitRefusal(performance.seat_limit, basket.places + input.quantity);
        if (overLimit) return overLimit;
        const taken = await trx
          .selectFrom("standing_claims")
          .select((eb) => eb.fn.sum<number>("quantity").as("taken"))
          .where("performance_id", "=", input.performanceId)
          .where("section_id", "=", input.sectionId)
          .executeTakeFirstOrThrow();
        if (Number(taken.taken ?? 0) + input.quantity > area.capacity) return refuse("unavailable");
        const hold = await holdFor(trx, input.basketId, input.performanceId, now, basket.hold);
        await trx
          .insertInto("standing_claims")
          .values({
            id: randomUUID(),
            performance_id: input.performanceId,
            section_id: input.sectionId,
            quantity: input.quantity,
            status: "held",
            hold_id: hold.id,
            held_until: hold.expires_at,
            order_id: null,
          })
          .execute();
        return { ok: true as const, holdId: hold.id, expiresAt: hold.expires_at };
      });
      return held(input.performanceId, result);
    },

    /** Gives the buyer more time, up to the policy's maximum; an expired hold cannot come back. */
    async extendHold(holdId: string): Promise<Held | Refusal> {
      const now = clock.now();
      return inTransaction(async (trx) => {
        const hold = await trx.selectFrom("holds").selectAll().where("id", "=", holdId).executeTakeFirst();
        if (!hold) return refuse("not-found");
        if (hold.expires_at <= now.toISOString()) return refuse("expired");
        const ceiling = addMinutes(new Date(hold.created_at), policy.maxHoldMinutes).toISOString();
        if (hold.expires_at >= ceiling) return refuse("extension-limit");
        const extended = addMinutes(new Date(hold.expires_at), policy.extensionMinutes).toISOString();
        const expiresAt = extended < ceiling ? extended : ceiling;
        await trx.updateTable("holds").set({ expires_at: expiresAt }).where("id", "=", holdId).execute();
        await trx
          .updateTable("seat_claims")
          .set({ held_until: expiresAt })
          .where("hold_id", "=", holdId)
          .where("status", "=", "held")
          .execute();
        await trx
          .updateTable("standing_claims")
          .set({ held_until: expiresAt })
          .where("hold_id", "=", holdId)
          .where("status", "=", "held")
          .execute();
        return { ok: true as const, holdId, expiresAt };
      });
    },

    /** Frees some of a basket's held seats, or all its places in one standing area. */
    async releasePart(input: {
      basketId: string;
      performanceId: string;
      seatIds?: number[];
      standingSectionId?: string;
    }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (input.seatIds?.length) await releaseBasketSeats(trx, input.basketId, input.performanceId, input.seatIds);
        if (input.standingSectionId)
          await releaseBasketStanding(trx, input.basketId, input.performanceId, input.standingSectionId);
      });
      reported(input.performanceId, undefined);
    },

    /** Frees the held seats and places at once (sold ones stay sold). */
    async releaseHold(holdId: string): Promise<void> {
      const performanceId = await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("seat_claims").where("hold_id", "=", holdId).where("status", "=", "held").execute();
        await trx.deleteFrom("standing_claims").where("hold_id", "=", holdId).where("status", "=", "held").execute();
        await trx
          .updateTable("holds")
          .set({ expires_at: clock.now().toISOString() })
          .where("id", "=", holdId)
          .execute();
        const hold = await trx.selectFrom("holds").select("performance_id").where("id", "=", holdId).executeTakeFirst();
        return hold?.performance_id;
      });
      reported(performanceId, undefined);
    },

    /**
     * Turns a hold into sold seats for an order, all or nothing: if any part of the hold has
     * expired (and may have gone to someone else) nothing is sold.
     */
    /**
     * Payment succeeded: exactly the places the order bought (its tickets' refs: `seat:perf:id`,
     * `standing:claimId:n`) become sold, all of them or none. "expired" when any is no longer held
     * by this basket (its hold ran out while the buyer was paying): nothing is sold, so no seat is
     * ever sold twice or sold without being paid for.
     */
    async sellPlaces(basketId: string, orderId: string, refs: readonly string[]): Promise<{ ok: true } | Refusal> {
      const seats = new Map<string, number[]>();
      const claims = new Set<string>();
      for (const ref of refs) {
        const [kind, first, second] = ref.split(":");
        if (kind === "seat" && first && second) seats.set(first, [...(seats.get(first) ?? []), Number(second)]);
        else if (kind === "standing" && first) claims.add(first);
      }
      if (seats.size === 0 && claims.size === 0) return { ok: true };
      const nowIso = clock.now().toISOString();
      return inTransaction(async (trx) => {
        const holds = trx.selectFrom("holds").select("id").where("basket_id", "=", basketId);
        const sold = { status: "sold" as const, held_until: null, order_id: orderId };
        for (const [performanceId, seatIds] of seats) {
          const result = await trx
            .updateTable("seat_claims")
            .set(sold)
            .where("performance_id", "=", performanceId)
            .where("seat_id", "in", seatIds)
            .where("hold_id", "in", holds)
            .where("status", "=", "held")
            .where("held_until", ">", nowIso)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) !== seatIds.length) return refuse("expired");
        }
        if (claims.size > 0) {
          const result = await trx
            .updateTable("standing_claims")
            .set(sold)
            .where("id", "in", [...claims])
            .where("hold_id", "in", holds)
            .where("status", "=", "held")
            .where("held_until", ">", nowIso)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) !== claims.size) return refuse("expired");
        }
        return { ok: true as const };
      });
    },

    async sellHold(holdId: string, orderId: string): Promise<{ ok: true; seats: number; standing: number } | Refusal> {
      const nowIso = clock.now().toISOString();
      return inTransaction(async (trx) => {
        const hold = await trx.selectFrom("holds").selectAll().where("id", "=", holdId).executeTakeFirst();
        if (!hold) return refuse("not-found");
        if (hold.expires_at <= nowIso) return refuse("expired");
        const seats = await trx
          .updateTable("seat_claims")
          .set({ status: "sold", held_until: null, order_id: orderId })
          .where("hold_id", "=", holdId)
          .where("status", "=", "held")
          .where("held_until", ">", nowIso)
          .executeTakeFirst();
        const standing = await trx
          .updateTable("standing_claims")
          .set({ status: "sold", held_until: null, order_id: orderId })
          .where("hold_id", "=", holdId)
          .where("status", "=", "held")
          .where("held_until", ">", nowIso)
          .executeTakeFirst();
        return { ok: true as const, seats: Number(seats.numUpdatedRows), standing: Number(standing.numUpdatedRows) };
      });
    },

    /**
     * Deletes what expired holds left behind, once they have been expired for a while; returns how
     * many seat and standing claims it removed. An expired claim never blocks anyone (claims expire
     * at read time), so keeping it costs nothing, and the buyer's page can still say which seats
     * the reservation had when it says the reservation expired. Sweeping them the moment they
     * expired made that page depend on when the sweeper last ran.
     */
    async sweepExpired(): Promise<number> {
      const before = new Date(clock.now().getTime() - EXPIRED_CLAIMS_KEPT_MS).toISOString();
      const freed = await db.transaction().execute(async (trx) => {
        const seats = await trx
          .deleteFrom("seat_claims")
          .where("status", "=", "held")
          .where("held_until", "<=", before)
          .executeTakeFirst();
        const standing = await trx
          .deleteFrom("standing_claims")
          .where("status", "=", "held")
          .where("held_until", "<=", before)
          .executeTakeFirst();
        return Number(seats.numDeletedRows) + Number(standing.numDeletedRows);
      });
      counted.holds("expired", freed);
      return freed;
    },
  };
}

class RolledBack extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.reason);
  }
}

export type Inventory = ReturnType<typeof createInventory>;
