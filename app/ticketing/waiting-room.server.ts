import { randomInt, randomUUID } from "node:crypto";
import { sql, type Kysely, type Transaction } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { Database, QueueEntryTable } from "~/db/schema";
import { CATALOGUE_MAX_AGE_MS, remembered } from "./catalogue-facts.server";

// The waiting room (issue 20): when more buyers want seats than a room lets in at once, the rest
// wait in the store, in order, and are let in as places free. Everything is in the store, so every
// server process shares one queue; admissions lock the room's row, so together they never let in
// more than the room allows.

/** A room and its limits: the deployment's (QUEUE_*), or a run's scheduled on-sale. */
export interface RoomRule {
  /** "site" for the deployment's room; a run's own room is "run:" and its id. */
  id: string;
  /** How many admitted buyers may be choosing seats or checking out at once. */
  activeBuyers: number;
  /** How many may be let in in any minute; null for no limit but activeBuyers. */
  newBuyersPerMinute: number | null;
  /** A scheduled on-sale: whoever arrives from preQueueFrom until `at` gets a place drawn at `at`. */
  onSale?: { preQueueFrom: string; at: string };
}

export type Pass =
  | {
      admitted: true;
      /** The one basket this place may hold seats in; null until the place claims one (`claimBasket`). */
      basketId: string | null;
    }
  | {
      admitted: false;
      preQueue: false;
      /** 1 for the next buyer in. */
      place: number;
      /** The place's number in the room's whole line, as the place cookie carries it. */
      position: number;
      waiting: number;
      /** Null while nobody has been let in lately and the room has no per-minute rate to go by. */
      estimatedWaitSeconds: number | null;
    }
  | { admitted: false; preQueue: true; waiting: number; opensAt: string }
  | {
      admitted: false;
      /** Too many new places from this client address or session lately (issue 41): no place taken. */
      refused: "tooManyJoins";
      retryAfterSeconds: number;
    };

/** How many new places one client address, or one session, may take in a window; 0: no limit. */
export interface JoinLimits {
  perAddress: number;
  perSession: number;
  windowMs: number;
}

/**
 * A room's numbers for operators and metrics: read from the room's own row and its last few
 * minutes' admissions, never by counting its queue. Stable shape: metrics read it (issue 41).
 */
export interface RoomStatus {
  room: string;
  queueing: boolean;
  waiting: number;
  admitted: number;
  /** How long the last buyer in the queue can expect to wait. */
  estimatedWaitSeconds: number | null;
}

export interface WaitingRoomOptions {
  /** An admitted buyer who asks for nothing for this long gives up their place. */
  idleMs: number;
  joinLimits?: JoinLimits;
}

/**
 * A buyer let in while not looking (someone else's request admitted them in turn) has this long
 * to come back before the place goes to the next: a closed tab must not hold a place for idleMs.
 * Longer than the waiting page's slowest refresh, so one who is still waiting always makes it.
 */
export const ARRIVAL_GRACE_MS = 90_000;
/** The rate the estimate goes by: admissions over the last few minutes. */
const RATE_WINDOW_MS = 5 * 60_000;
/** An admitted buyer's place is moved on at most this often, not on every request. */
const RENEW_EVERY_MS = 60_000;
/** Most admitted in one request: a room that empties at once fills over a few requests. */
const MOST_PER_ADMISSION = 1_000;
/** How old the line a process's door compares places with may be (issue 54): one read a second. */
export const LINE_MAX_AGE_MS = 1_000;
/** Most arrivals written in one transaction: 4 values each, well inside both stores' limits. */
const MOST_JOINS_PER_BATCH = 500;
/** A pre-queue entry's draw: uniform in [0, DRAW_RANGE), fits PostgreSQL's integer. */
const DRAW_RANGE = 2 ** 31 - 1;

type Tx = Transaction<Database>;

/** The room as the door compares a place with it. */
export interface Line {
  /** Every place at or before this has been let in. */
  admittedThrough: number;
  /** Everyone waiting, the pre-queue included. */
  waiting: number;
  /** Let in over the last few minutes: what estimates go by. */
  lately: number;
  /** Before a scheduled on-sale: places are drawn when it opens. */
  preQueue: boolean;
}

interface PendingJoin {
  visitorId: string;
  address: string | undefined;
  resolve: (pass: Pass) => void;
  reject: (error: unknown) => void;
}
type Executor = Tx | Kysely<Database>;

/** What one request needs to know of a room and a visitor's place in it. */
interface Standing {
  nextPosition: number;
  admittedThrough: number;
  admittedCount: number;
  preQueued: number;
  shuffledAt: string | null;
  lastMinute: number;
  lately: number;
  /** Some admitted place has lapsed: the next admission would free it. */
  lapsed: boolean;
  entry: {
    id: string;
    position: number | null;
    state: QueueEntryTable["state"];
    activeUntil: string | null;
    basketId: string | null;
  } | null;
}

const number = (value: unknown) => Number(value ?? 0);
/** SQLite answers EXISTS with 1/0, PostgreSQL with true/false. */
const truth = (value: unknown) => value === true || Number(value) === 1;

export function createWaitingRoom(store: Store, clock: Clock, options: WaitingRoomOptions) {
  const { db } = store;
  const iso = (ms: number) => new Date(ms).toISOString();

  /**
   * The room's counters, its recent admissions and the visitor's entry: one statement, every part
   * of it an index or primary-key lookup whatever the queue's length. Undefined: no such room yet.
   */
  async function standing(executor: Executor, roomId: string, visitorId: string | null, now: number) {
    const row = await executor
      .selectFrom("queue_rooms as r")
      .leftJoin("queue_entries as e", (join) =>
        join.onRef("e.room_id", "=", "r.id").on("e.visitor_id", "=", visitorId ?? ""),
      )
      .select((eb) => [
        "r.next_position",
        "r.admitted_through",
        "r.admitted_count",
        "r.pre_queued",
        "r.shuffled_at",
        eb
          .selectFrom("queue_admissions as a")
          .select((inner) => inner.fn.sum<number>("a.admitted").as("n"))
          .whereRef("a.room_id", "=", "r.id")
          .where("a.admitted_at", ">", iso(now - 60_000))
          .as("last_minute"),
        eb
          .selectFrom("queue_admissions as a")
          .select((inner) => inner.fn.sum<number>("a.admitted").as("n"))
          .whereRef("a.room_id", "=", "r.id")
          .where("a.admitted_at", ">", iso(now - RATE_WINDOW_MS))
          .as("lately"),
        eb
          .exists(
            eb
              .selectFrom("queue_entries as l")
              .select("l.id")
              .whereRef("l.room_id", "=", "r.id")
              .where("l.state", "=", "admitted")
              .where("l.active_until", "<=", iso(now)),
          )
          .as("lapsed"),
        "e.id as entry_id",
        "e.position",
        "e.state",
        "e.active_until",
        "e.basket_id",
      ])
      .where("r.id", "=", roomId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      nextPosition: number(row.next_position),
      admittedThrough: number(row.admitted_through),
      admittedCount: number(row.admitted_count),
      preQueued: number(row.pre_queued),
      shuffledAt: row.shuffled_at,
      lastMinute: number(row.last_minute),
      lately: number(row.lately),
      lapsed: truth(row.lapsed),
      entry:
        row.entry_id && row.state
          ? {
              id: row.entry_id,
              position: row.position,
              state: row.state,
              activeUntil: row.active_until,
              basketId: row.basket_id,
            }
          : null,
    } satisfies Standing;
  }

  const slotsFor = (rule: RoomRule, count: { admittedCount: number; lastMinute: number }) =>
    Math.min(
      rule.activeBuyers - count.admittedCount,
      rule.newBuyersPerMinute === null ? Number.POSITIVE_INFINITY : rule.newBuyersPerMinute - count.lastMinute,
    );

  /** Seconds until `ahead + 1` more have been let in, at the recent rate (or the room's own). */
  function estimate(rule: RoomRule, lately: number, ahead: number): number | null {
    const perMinute = lately > 0 ? lately / (RATE_WINDOW_MS / 60_000) : rule.newBuyersPerMinute;
    if (!perMinute) return null;
    return Math.ceil(((ahead + 1) / perMinute) * 60);
  }

  /** Everyone with a place who has not been let in yet, and everyone in the pre-queue. */
  const waitingIn = (room: Standing) => room.nextPosition - 1 - room.admittedThrough + room.preQueued;

  /** The room's row, made if new, and locked until the transaction ends (SQLite's BEGIN IMMEDIATE locks it all). */
  async function lockRoom(trx: Tx, roomId: string) {
    await trx
      .insertInto("queue_rooms")
      .values({ id: roomId })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    if (store.dialect === "postgres")
      await trx.selectFrom("queue_rooms").select("id").where("id", "=", roomId).forUpdate().execute();
  }

  /** Admitted places that lapsed are gone, and the room's count with them. */
  async function sweepLapsed(trx: Tx, roomId: string, now: number) {
    const gone = await trx
      .deleteFrom("queue_entries")
      .where("room_id", "=", roomId)
      .where("state", "=", "admitted")
      .where("active_until", "<=", iso(now))
      .executeTakeFirst();
    const count = Number(gone.numDeletedRows);
    if (count > 0)
      await trx
        .updateTable("queue_rooms")
        .set((eb) => ({ admitted_count: eb("admitted_count", "-", count) }))
        .where("id", "=", roomId)
        .execute();
  }

  /**
   * At the on-sale time, everyone in the pre-queue gets a place ahead of anyone later, in the
   * order of the draws they were given on arrival (crypto's randomInt): one set-based statement.
   */
  async function drawPreQueue(trx: Tx, roomId: string, room: Standing, now: number) {
    const base = room.nextPosition - 1;
    await sql`update queue_entries set position = drawn.n + ${base}
      from (select id, row_number() over (order by draw, id) as n from queue_entries
            where room_id = ${roomId} and position is null) as drawn
      where queue_entries.id = drawn.id`.execute(trx);
    await trx
      .updateTable("queue_rooms")
      .set({ next_position: room.nextPosition + room.preQueued, pre_queued: 0, shuffled_at: iso(now) })
      .where("id", "=", roomId)
      .execute();
  }

  /** Lets in the next buyers in order, as many as the room has places for now; how many. */
  async function admitInTurn(trx: Tx, rule: RoomRule, room: Standing, now: number): Promise<number> {
    const slots = slotsFor(rule, room);
    if (slots <= 0) return 0;
    const next = await trx
      .selectFrom("queue_entries")
      .select(["id", "position"])
      .where("room_id", "=", rule.id)
      .where("state", "=", "waiting")
      .where("position", ">", room.admittedThrough)
      .orderBy("position")
      .limit(Math.min(slots, MOST_PER_ADMISSION))
      .execute();
    if (next.length === 0) return 0;
    await trx
      .updateTable("queue_entries")
      .set({ state: "admitted", admitted_at: iso(now), active_until: iso(now + ARRIVAL_GRACE_MS) })
      .where(
        "id",
        "in",
        next.map((entry) => entry.id),
      )
      .execute();
    await trx
      .updateTable("queue_rooms")
      .set((eb) => ({
        admitted_count: eb("admitted_count", "+", next.length),
        admitted_through: next.at(-1)!.position!,
      }))
      .where("id", "=", rule.id)
      .execute();
    await trx
      .insertInto("queue_admissions")
      .values({ room_id: rule.id, admitted_at: iso(now), admitted: next.length })
      .execute();
    await trx
      .deleteFrom("queue_admissions")
      .where("room_id", "=", rule.id)
      .where("admitted_at", "<=", iso(now - RATE_WINDOW_MS))
      .execute();
    return next.length;
  }

  const inPreQueue = (rule: RoomRule, now: number) => rule.onSale !== undefined && iso(now) < rule.onSale.at;

  /** Joins (or rejoins, at the back) and lets in whoever's turn it is; then where this buyer stands. */
  async function joinAndAdmit(rule: RoomRule, visitorId: string, now: number): Promise<Pass> {
    return db.transaction().execute(async (trx) => {
      await lockRoom(trx, rule.id);
      await sweepLapsed(trx, rule.id, now);
      let room = (await standing(trx, rule.id, visitorId, now))!;
      const preQueue = inPreQueue(rule, now);
      if (!preQueue && rule.onSale && room.shuffledAt === null) {
        await drawPreQueue(trx, rule.id, room, now);
        room = (await standing(trx, rule.id, visitorId, now))!;
      }
      if (!room.entry) {
        const entry = { id: randomUUID(), position: preQueue ? null : room.nextPosition, state: "waiting" as const };
        await trx
          .insertInto("queue_entries")
          .values({
            ...entry,
            room_id: rule.id,
            visitor_id: visitorId,
            arrived_at: iso(now),
            draw: preQueue ? randomInt(DRAW_RANGE) : null,
          })
          .execute();
        await trx
          .updateTable("queue_rooms")
          .set((eb) =>
            preQueue ? { pre_queued: eb("pre_queued", "+", 1) } : { next_position: eb("next_position", "+", 1) },
          )
          .where("id", "=", rule.id)
          .execute();
        // The room as these two statements left it (it is locked): not read again, since in a
        // rush every arrival joins and each statement is a share of the server's time.
        room = {
          ...room,
          nextPosition: preQueue ? room.nextPosition : room.nextPosition + 1,
          preQueued: preQueue ? room.preQueued + 1 : room.preQueued,
          entry: { ...entry, activeUntil: null, basketId: null },
        };
      }
      if (preQueue) return { admitted: false, preQueue: true, waiting: waitingIn(room), opensAt: rule.onSale!.at };
      if ((await admitInTurn(trx, rule, room, now)) > 0) room = (await standing(trx, rule.id, visitorId, now))!;
      const mine = room.entry!;
      if (mine.state === "admitted") {
        await renew(trx, mine.id, now);
        return { admitted: true, basketId: mine.basketId };
      }
      return waitingPass(rule, room);
    });
  }

  function waitingPass(rule: RoomRule, room: Standing): Pass {
    const position = room.entry?.position ?? room.nextPosition;
    const ahead = position - room.admittedThrough - 1;
    return {
      admitted: false,
      preQueue: false,
      place: ahead + 1,
      position,
      waiting: waitingIn(room),
      estimatedWaitSeconds: estimate(rule, room.lately, ahead),
    };
  }

  function renew(executor: Executor, entryId: string, now: number) {
    return executor
      .updateTable("queue_entries")
      .set({ active_until: iso(now + options.idleMs) })
      .where("id", "=", entryId)
      .execute();
  }

  /**
   * Counts one more join for a key in its window (restarted once it has passed): one upsert.
   * Seconds until the window ends when this join is past the limit, else null.
   */
  async function overLimit(key: string, limit: number, windowMs: number, now: number): Promise<number | null> {
    if (limit <= 0) return null;
    const stale = iso(now - windowMs);
    const row = await db
      .insertInto("queue_joins")
      .values({ key, window_started_at: iso(now), joins: 1 })
      .onConflict((oc) =>
        oc.column("key").doUpdateSet({
          joins: sql`case when queue_joins.window_started_at <= ${stale} then 1 else queue_joins.joins + 1 end`,
          window_started_at: sql`case when queue_joins.window_started_at <= ${stale} then ${iso(now)} else queue_joins.window_started_at end`,
        }),
      )
      .returning(["joins", "window_started_at"])
      .executeTakeFirstOrThrow();
    if (Number(row.joins) <= limit) return null;
    return Math.max(1, Math.ceil((new Date(row.window_started_at).getTime() + windowMs - now) / 1000));
  }

  /** Whether this join is one too many for the client's address or session in the window. */
  async function joinRefusal(visitorId: string, address: string | undefined, now: number): Promise<Pass | null> {
    const limits = options.joinLimits;
    if (!limits) return null;
    // Windows that have passed are forgotten (by the index on window_started_at): the table
    // holds only the last window's clients.
    await db
      .deleteFrom("queue_joins")
      .where("window_started_at", "<=", iso(now - limits.windowMs))
      .execute();
    const waits = [
      await overLimit(`session:${visitorId}`, limits.perSession, limits.windowMs, now),
      address === undefined ? null : await overLimit(`address:${address}`, limits.perAddress, limits.windowMs, now),
    ].filter((wait): wait is number => wait !== null);
    if (waits.length === 0) return null;
    return { admitted: false, refused: "tooManyJoins", retryAfterSeconds: Math.max(...waits) };
  }

  /** Numbers for operators and metrics from a room's row; no lock, no count of its queue. */
  async function statusOf(rule: RoomRule): Promise<RoomStatus> {
    const room = await standing(db, rule.id, null, clock.now().getTime());
    if (!room) return { room: rule.id, queueing: false, waiting: 0, admitted: 0, estimatedWaitSeconds: 0 };
    const waiting = waitingIn(room);
    return {
      room: rule.id,
      queueing: waiting > 0,
      waiting,
      admitted: room.admittedCount,
      estimatedWaitSeconds: waiting > 0 ? estimate(rule, room.lately, waiting - 1) : 0,
    };
  }

  // ---- The door (issue 54): arrivals written in batches, refreshes read against the line. ----

  /** The room's line as this process last read it, per room: at most LINE_MAX_AGE_MS old. */
  const lines = new Map<string, { at: number; line: Promise<Line> }>();

  const lineOf = (rule: RoomRule, room: Standing | undefined, now: number): Line => ({
    admittedThrough: room?.admittedThrough ?? 0,
    waiting: room ? waitingIn(room) : 0,
    lately: room?.lately ?? 0,
    preQueue: inPreQueue(rule, now),
  });

  /** Whether the room can let someone in now: a place is free, or one lapsed, and someone waits. */
  const canAdmit = (rule: RoomRule, room: Standing, now: number) =>
    !inPreQueue(rule, now) &&
    ((rule.onSale !== undefined && room.shuffledAt === null && room.preQueued > 0) ||
      (room.nextPosition - 1 > room.admittedThrough && (room.lapsed || slotsFor(rule, room) > 0)));

  /**
   * Reads the room, and lets in whoever's turn it is when a place is free: what every process
   * does at most once a second while its visitors wait, instead of on every refresh.
   */
  async function readLine(rule: RoomRule, now: number): Promise<Line> {
    // Join windows that have passed are forgotten here, once a second, not with every batch of
    // joins (by the index on window_started_at): the table holds only the last window's clients.
    if (options.joinLimits)
      await db
        .deleteFrom("queue_joins")
        .where("window_started_at", "<=", iso(now - options.joinLimits.windowMs))
        .execute();
    const room = await standing(db, rule.id, null, now);
    if (!room || !canAdmit(rule, room, now)) return lineOf(rule, room, now);
    const admitted = await db.transaction().execute(async (trx) => {
      await lockRoom(trx, rule.id);
      await sweepLapsed(trx, rule.id, now);
      let locked = (await standing(trx, rule.id, null, now))!;
      if (rule.onSale && locked.shuffledAt === null) {
        await drawPreQueue(trx, rule.id, locked, now);
        locked = (await standing(trx, rule.id, null, now))!;
      }
      await admitInTurn(trx, rule, locked, now);
      return (await standing(trx, rule.id, null, now))!;
    });
    return lineOf(rule, admitted, now);
  }

  /** Joins waiting to be written, per room, and whether a batch of that room's is being written. */
  const pendingJoins = new Map<string, { rule: RoomRule; joins: PendingJoin[]; writing: boolean }>();

  /** Writes the room's waiting joins, a batch at a time, until none wait. */
  async function writeJoins(roomId: string) {
    const pending = pendingJoins.get(roomId)!;
    pending.writing = true;
    try {
      while (pending.joins.length > 0) {
        const batch = pending.joins.splice(0, MOST_JOINS_PER_BATCH);
        try {
          const passes = await joinBatch(pending.rule, batch, clock.now().getTime());
          batch.forEach((join, index) => join.resolve(passes[index]!));
        } catch (error) {
          for (const join of batch) join.reject(error);
        }
      }
    } finally {
      pending.writing = false;
      pendingJoins.delete(roomId);
    }
  }

  /**
   * One transaction for a batch of arrivals: each keeps the place it has, or takes the next (or,
   * before an on-sale, a draw), counted against its address's and session's limits; then whoever's
   * turn it is is let in, so that with a room that has space an arrival goes straight on.
   */
  async function joinBatch(rule: RoomRule, batch: PendingJoin[], now: number): Promise<Pass[]> {
    const preQueue = inPreQueue(rule, now);
    const { passes, room } = await db.transaction().execute(async (trx) => {
      const visitors = [...new Set(batch.map((join) => join.visitorId))];
      // One arrival at a time (a quiet moment): the room and their place in one read.
      const alone = visitors.length === 1 ? visitors[0]! : null;
      // SQLite's transaction holds the whole file already; PostgreSQL locks the room's row.
      let room = store.dialect === "sqlite" ? await standing(trx, rule.id, alone, now) : undefined;
      if (!room) {
        await lockRoom(trx, rule.id);
        room = (await standing(trx, rule.id, alone, now))!;
      }
      // Lapsed places matter only to whoever would be let in in their stead.
      if (!preQueue && room.lapsed) {
        await sweepLapsed(trx, rule.id, now);
        room = (await standing(trx, rule.id, alone, now))!;
      }
      if (!preQueue && rule.onSale && room.shuffledAt === null) {
        await drawPreQueue(trx, rule.id, room, now);
        room = (await standing(trx, rule.id, alone, now))!;
      }
      const entries =
        alone !== null
          ? room.entry
            ? [
                {
                  visitor_id: alone,
                  position: room.entry.position,
                  state: room.entry.state,
                  basket_id: room.entry.basketId,
                },
              ]
            : []
          : await trx
              .selectFrom("queue_entries")
              .select(["visitor_id", "position", "state", "basket_id"])
              .where("room_id", "=", rule.id)
              .where("visitor_id", "in", visitors)
              .execute();
      const held = new Map(entries.map((entry) => [entry.visitor_id, entry]));
      const newcomers = batch.filter((join) => !held.has(join.visitorId));
      const refusals = await joinRefusals(trx, newcomers, now);
      const fresh: { id: string; visitor_id: string; position: number | null; draw: number | null }[] = [];
      let nextPosition = room.nextPosition;
      for (const join of newcomers) {
        if (refusals.has(join) || held.has(join.visitorId)) continue;
        const entry = {
          id: randomUUID(),
          visitor_id: join.visitorId,
          position: preQueue ? null : nextPosition,
          draw: preQueue ? randomInt(DRAW_RANGE) : null,
        };
        if (!preQueue) nextPosition += 1;
        fresh.push(entry);
        held.set(join.visitorId, {
          visitor_id: join.visitorId,
          position: entry.position,
          state: "waiting",
          basket_id: null,
        });
      }
      if (fresh.length > 0) {
        await trx
          .insertInto("queue_entries")
          .values(fresh.map((entry) => ({ ...entry, room_id: rule.id, state: "waiting", arrived_at: iso(now) })))
          .execute();
        await trx
          .updateTable("queue_rooms")
          .set((eb) =>
            preQueue
              ? { pre_queued: eb("pre_queued", "+", fresh.length) }
              : { next_position: eb("next_position", "+", fresh.length) },
          )
          .where("id", "=", rule.id)
          .execute();
        room = preQueue
          ? { ...room, preQueued: room.preQueued + fresh.length }
          : { ...room, nextPosition: nextPosition };
      }
      if (!preQueue && slotsFor(rule, room) > 0 && (await admitInTurn(trx, rule, room, now)) > 0)
        room = (await standing(trx, rule.id, null, now))!;
      const passes = batch.map((join): Pass => {
        const refused = refusals.get(join);
        if (refused !== undefined) return { admitted: false, refused: "tooManyJoins", retryAfterSeconds: refused };
        const entry = held.get(join.visitorId)!;
        if (entry.position === null)
          return { admitted: false, preQueue: true, waiting: waitingIn(room), opensAt: rule.onSale!.at };
        if (entry.state === "admitted" || entry.position <= room.admittedThrough)
          return { admitted: true, basketId: entry.basket_id };
        return waitingPass(rule, {
          ...room,
          entry: { id: "", position: entry.position, state: "waiting", activeUntil: null, basketId: null },
        });
      });
      return { passes, room };
    });
    // What this process's door goes by is now at least as far on as this batch left the room.
    lines.set(rule.id, { at: now, line: Promise.resolve(lineOf(rule, room, now)) });
    return passes;
  }

  /**
   * Which of a batch's new arrivals are one too many for their client address or session in the
   * window, with the seconds until it ends: every key counted in one statement.
   */
  async function joinRefusals(trx: Tx, joins: PendingJoin[], now: number): Promise<Map<PendingJoin, number>> {
    const limits = options.joinLimits;
    const refused = new Map<PendingJoin, number>();
    if (!limits || joins.length === 0) return refused;
    const keysOf = (join: PendingJoin) =>
      [
        limits.perSession > 0 ? { key: `session:${join.visitorId}`, limit: limits.perSession } : null,
        limits.perAddress > 0 && join.address !== undefined
          ? { key: `address:${join.address}`, limit: limits.perAddress }
          : null,
      ].filter((key): key is { key: string; limit: number } => key !== null);
    const added = new Map<string, number>();
    for (const join of joins) for (const { key } of keysOf(join)) added.set(key, (added.get(key) ?? 0) + 1);
    if (added.size === 0) return refused;
    const stale = iso(now - limits.windowMs);
    const counted = await trx
      .insertInto("queue_joins")
      .values([...added].map(([key, joins]) => ({ key, window_started_at: iso(now), joins })))
      .onConflict((oc) =>
        oc.column("key").doUpdateSet({
          joins: sql`case when queue_joins.window_started_at <= ${stale} then excluded.joins else queue_joins.joins + excluded.joins end`,
          window_started_at: sql`case when queue_joins.window_started_at <= ${stale} then excluded.window_started_at else queue_joins.window_started_at end`,
        }),
      )
      .returning(["key", "joins", "window_started_at"])
      .execute();
    // Each key's count before this batch, then one more for each of the batch's joins in turn.
    const seen = new Map(counted.map((row) => [row.key, Number(row.joins) - added.get(row.key)!]));
    const endsOf = new Map(
      counted.map((row) => [row.key, new Date(row.window_started_at).getTime() + limits.windowMs]),
    );
    for (const join of joins) {
      const waits: number[] = [];
      for (const { key, limit } of keysOf(join)) {
        const count = seen.get(key)! + 1;
        seen.set(key, count);
        if (count > limit) waits.push(Math.max(1, Math.ceil((endsOf.get(key)! - now) / 1000)));
      }
      if (waits.length > 0) refused.set(join, Math.max(...waits));
    }
    return refused;
  }

  return {
    /**
     * Whether this visitor may choose seats now: yes while admitted and active (their place moves
     * on as they go); otherwise they join the queue, or keep their place in it, and whoever's turn
     * it is gets in. A buyer waiting in a full room costs one indexed read, not a write.
     */
    async pass(rule: RoomRule, visitorId: string, address?: string): Promise<Pass> {
      const now = clock.now().getTime();
      const room = await standing(db, rule.id, visitorId, now);
      const entry = room?.entry;
      if (entry?.state === "admitted" && (entry.activeUntil ?? "") > iso(now)) {
        if ((entry.activeUntil ?? "") < iso(now + options.idleMs - RENEW_EVERY_MS)) await renew(db, entry.id, now);
        return { admitted: true, basketId: entry.basketId };
      }
      const settled = room && !inPreQueue(rule, now) && entry?.state === "waiting" && entry.position !== null;
      if (settled && !room.lapsed && slotsFor(rule, room) <= 0) return waitingPass(rule, room);
      // A new place (none yet, or an admission that lapsed): counted against the client's limits first.
      if (entry?.state !== "waiting") {
        const refused = await joinRefusal(visitorId, address, now);
        if (refused) return refused;
      }
      const joined = await joinAndAdmit(rule, visitorId, now);
      // The room has moved on: this process's door reads it again rather than go by the old line.
      lines.delete(rule.id);
      return joined;
    },

    /**
     * The basket an admitted place holds seats in: the first offered wins (an atomic
     * compare-and-set, so two clients of one session racing both get the same one); every later
     * client of the same session is given that one. Null when the visitor holds no admitted place.
     */
    async claimBasket(rule: RoomRule, visitorId: string, basketId: string): Promise<string | null> {
      await db
        .updateTable("queue_entries")
        .set({ basket_id: basketId })
        .where("room_id", "=", rule.id)
        .where("visitor_id", "=", visitorId)
        .where("state", "=", "admitted")
        .where("basket_id", "is", null)
        .execute();
      const entry = await db
        .selectFrom("queue_entries")
        .select("basket_id")
        .where("room_id", "=", rule.id)
        .where("visitor_id", "=", visitorId)
        .where("state", "=", "admitted")
        .executeTakeFirst();
      return entry?.basket_id ?? null;
    },

    /**
     * Keeps an admitted buyer's place while they check out (each step's request), at most once a
     * minute; nothing for a visitor who holds no place.
     */
    async stillActive(visitorId: string): Promise<void> {
      const now = clock.now().getTime();
      await db
        .updateTable("queue_entries")
        .set({ active_until: iso(now + options.idleMs) })
        .where("visitor_id", "=", visitorId)
        .where("state", "=", "admitted")
        .where("active_until", ">", iso(now))
        .where("active_until", "<", iso(now + options.idleMs - RENEW_EVERY_MS))
        .execute();
    },

    /** The buyer is done (paid, released their seats, let their hold lapse): the next may come in. */
    async leave(visitorId: string): Promise<void> {
      const rooms = await db.transaction().execute(async (trx) => {
        const gone = await trx
          .deleteFrom("queue_entries")
          .where("visitor_id", "=", visitorId)
          .where("state", "=", "admitted")
          .returning("room_id")
          .execute();
        for (const { room_id } of gone)
          await trx
            .updateTable("queue_rooms")
            .set((eb) => ({ admitted_count: eb("admitted_count", "-", 1) }))
            .where("id", "=", room_id)
            .execute();
        return gone.map((entry) => entry.room_id);
      });
      // A place is free: this process's door reads the line again (and lets the next in) at once.
      for (const room of rooms) lines.delete(room);
    },

    /** For operators' monitoring: is the room queueing, how many wait and are in, how long the wait. */
    status: statusOf,

    /**
     * The room's line as this process knows it, read from the store at most once a
     * LINE_MAX_AGE_MS whoever asks (and whoever's turn it is let in then): what the door compares
     * a place with, so that a refresh costs the store nothing.
     */
    line(rule: RoomRule): Promise<Line> {
      const now = clock.now().getTime();
      const kept = lines.get(rule.id);
      if (kept && now >= kept.at && now - kept.at < LINE_MAX_AGE_MS) return kept.line;
      const line = readLine(rule, now);
      lines.set(rule.id, { at: now, line });
      // A failed read is not kept: the next request reads again.
      line.catch(() => lines.get(rule.id)?.line === line && lines.delete(rule.id));
      return line;
    },

    /**
     * An arrival at the door: the visitor's place (the one they hold, or a new one), written with
     * the other arrivals of the same moment in one transaction (SQLite has one writer).
     */
    arrive(rule: RoomRule, visitorId: string, address?: string): Promise<Pass> {
      return new Promise<Pass>((resolve, reject) => {
        let pending = pendingJoins.get(rule.id);
        if (!pending) {
          pending = { rule, joins: [], writing: false };
          pendingJoins.set(rule.id, pending);
          // Arrivals read in the same turn of the event loop join the same batch.
          setImmediate(() => void writeJoins(rule.id));
        }
        pending.joins.push({ visitorId, address, resolve, reject });
      });
    },

    /** A visitor's place in the line, once the pre-queue's draw has given it one; null for none. */
    async positionOf(rule: RoomRule, visitorId: string): Promise<number | null> {
      const entry = await db
        .selectFrom("queue_entries")
        .select("position")
        .where("room_id", "=", rule.id)
        .where("visitor_id", "=", visitorId)
        .executeTakeFirst();
      return entry?.position ?? null;
    },

    /** Where a place stands against the line as this process last read it (the door's refresh). */
    placeOnLine(rule: RoomRule, line: Line, position: number): Pass {
      const ahead = position - line.admittedThrough - 1;
      if (ahead < 0) return { admitted: true, basketId: null };
      return {
        admitted: false,
        preQueue: false,
        place: ahead + 1,
        position,
        // The line may be a second older than the place: never fewer waiting than up to it.
        waiting: Math.max(line.waiting, ahead + 1),
        estimatedWaitSeconds: estimate(rule, line.lately, ahead),
      };
    },
  };
}

export type WaitingRoom = ReturnType<typeof createWaitingRoom>;

export interface SiteQueue {
  /** 0: no queue. */
  activeBuyers: number;
  newBuyersPerMinute: number | null;
  idleMs: number;
  /** Unset: no limit on joins. */
  joinLimits?: JoinLimits;
}

/** What a performance's run says of its scheduled on-sale, if it has one. */
interface OnSale {
  runId: string;
  preQueueFrom: string;
  at: string;
  activeBuyers: number;
  newBuyersPerMinute: number | null;
}

const runRule = (room: OnSale): RoomRule => ({
  id: `run:${room.runId}`,
  activeBuyers: room.activeBuyers,
  newBuyersPerMinute: room.newBuyersPerMinute,
  onSale: { preQueueFrom: room.preQueueFrom, at: room.at },
});

/**
 * The rooms a deployment has: its own (QUEUE_ACTIVE_BUYERS), which every performance's tickets
 * page shares, and a run's own from its scheduled on-sale (the catalogue file's schedule.onSale),
 * which its performances use instead from the moment its pre-queue opens. With neither, nothing
 * here reads the store more than once a minute.
 */
export function createWaitingRooms(
  store: Store,
  clock: Clock,
  site: SiteQueue,
  maxAgeMs: number = CATALOGUE_MAX_AGE_MS,
) {
  const { db } = store;
  const siteRule: RoomRule | null =
    site.activeBuyers > 0
      ? { id: "site", activeBuyers: site.activeBuyers, newBuyersPerMinute: site.newBuyersPerMinute }
      : null;
  const room = createWaitingRoom(store, clock, { idleMs: site.idleMs, joinLimits: site.joinLimits });
  // Each run's on-sale: its room's limits, and its times as its performances' sale windows have
  // them (decision 0029: stored once, there), so the room draws its pre-queue at the moment holds
  // are first allowed. Every performance of a scheduled run has the same times; min() makes one
  // row per run whatever an edit has done to a single performance.
  const onSales = () =>
    db
      .selectFrom("on_sale_rooms")
      .innerJoin("performances", "performances.run_id", "on_sale_rooms.run_id")
      .where("performances.queue_opens_at", "is not", null)
      .select((eb) => [
        "on_sale_rooms.run_id as runId",
        "on_sale_rooms.active_buyers as activeBuyers",
        "on_sale_rooms.new_buyers_per_minute as newBuyersPerMinute",
        eb.fn.min<string>("performances.queue_opens_at").as("preQueueFrom"),
        eb.fn.min<string>("performances.on_sale_from").as("at"),
      ])
      .groupBy(["on_sale_rooms.run_id", "on_sale_rooms.active_buyers", "on_sale_rooms.new_buyers_per_minute"]);
  // A run's on-sale never changes once imported (decision 0024): kept per performance, as the
  // catalogue's facts are. `null`: the performance exists and its run has none.
  const onSaleOf = remembered(
    clock,
    async (performanceId: string): Promise<OnSale | null | undefined> => {
      const row = await db
        .selectFrom("performances")
        .leftJoin(onSales().as("on_sale"), "on_sale.runId", "performances.run_id")
        .select([
          "on_sale.runId",
          "on_sale.preQueueFrom",
          "on_sale.at",
          "on_sale.activeBuyers",
          "on_sale.newBuyersPerMinute",
        ])
        .where("performances.id", "=", performanceId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { runId, preQueueFrom, at, activeBuyers, newBuyersPerMinute } = row;
      if (!runId || !preQueueFrom || !at || activeBuyers === null) return null;
      return { runId, preQueueFrom, at, activeBuyers, newBuyersPerMinute };
    },
    maxAgeMs,
  );
  const anyOnSales = remembered(
    clock,
    async (_: "any") =>
      (await db.selectFrom("on_sale_rooms").select("run_id").limit(1).executeTakeFirst()) !== undefined,
    maxAgeMs,
  );

  async function rules(): Promise<RoomRule[]> {
    const open = await db
      .selectFrom(onSales().as("on_sale"))
      .selectAll()
      .where("on_sale.preQueueFrom", "<=", clock.now().toISOString())
      .orderBy("on_sale.at", "desc")
      .limit(100)
      .execute();
    return [...(siteRule ? [siteRule] : []), ...open.map(runRule)];
  }
  const roomStatuses = async () => Promise.all((await rules()).map((rule) => room.status(rule)));
  // What anyone may ask of /queuez: sums only, read at most once a second whoever asks (one key,
  // a few numbers: bounded by construction).
  const totals = remembered(
    clock,
    async (_: "all"): Promise<QueueTotals> => {
      const rooms = await roomStatuses();
      return {
        queueing: rooms.some((one) => one.queueing),
        waiting: rooms.reduce((sum, one) => sum + one.waiting, 0),
        admitted: rooms.reduce((sum, one) => sum + one.admitted, 0),
      };
    },
    QUEUE_TOTALS_MAX_AGE_MS,
  );

  return {
    ...room,
    /**
     * Every open room's numbers (its waiting and admitted counts from the room's row, its
     * estimate): what /queuez shows operators and metrics read. Keep the name and shape stable.
     */
    roomStatuses,
    /** Every room's numbers summed, at most a second old: all /queuez says without the operator's token. */
    async totals(): Promise<QueueTotals> {
      return (await totals("all"))!;
    },
    /** Whether any room may be queueing buyers: when not, nobody need be told they left one. */
    async enabled(): Promise<boolean> {
      return siteRule !== null || (await anyOnSales("any")) === true;
    },
    /** The room a performance's buyers wait in now, or null when they go straight in. */
    async ruleFor(performanceId: string): Promise<RoomRule | null> {
      if (!/^[0-9A-Fa-f-]{36}$/.test(performanceId)) return siteRule;
      const onSale = await onSaleOf(performanceId.toUpperCase());
      if (onSale && clock.now().toISOString() >= onSale.preQueueFrom) return runRule(onSale);
      return siteRule;
    },
    /** Every room whose queue is open now, for operators' monitoring. */
    rules,
  };
}

export type WaitingRooms = ReturnType<typeof createWaitingRooms>;

/** Every room's numbers summed: nothing about any one room or buyer. */
export interface QueueTotals {
  queueing: boolean;
  waiting: number;
  admitted: number;
}

/** How old the public totals may be: many asking at once cost one read a second. */
export const QUEUE_TOTALS_MAX_AGE_MS = 1_000;
