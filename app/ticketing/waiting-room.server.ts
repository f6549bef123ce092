import { randomInt, randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { Database } from "~/db/schema";
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
  | { admitted: true }
  | {
      admitted: false;
      preQueue: false;
      /** 1 for the next buyer in. */
      place: number;
      waiting: number;
      /** Null while nobody has been let in lately and the room has no per-minute rate to go by. */
      estimatedWaitSeconds: number | null;
    }
  | { admitted: false; preQueue: true; waiting: number; opensAt: string };

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

type Tx = Transaction<Database>;

export function createWaitingRoom(store: Store, clock: Clock, options: WaitingRoomOptions) {
  const { db } = store;
  const iso = (ms: number) => new Date(ms).toISOString();

  function entryOf(executor: Tx | typeof db, roomId: string, visitorId: string) {
    return executor
      .selectFrom("queue_entries")
      .select(["id", "position", "state", "active_until"])
      .where("room_id", "=", roomId)
      .where("visitor_id", "=", visitorId)
      .executeTakeFirst();
  }

  /** Who is in, who came in lately, and (for a place) how many wait ahead of it: one statement. */
  async function counts(executor: Tx | typeof db, rule: RoomRule, now: number, position: number | null) {
    const at = iso(now);
    const row = await executor
      .selectFrom("queue_entries")
      .select((eb) => [
        eb.fn
          .sum<number>(
            eb
              .case()
              .when(eb.and([eb("state", "=", "admitted"), eb("active_until", ">", at)]))
              .then(1)
              .else(0)
              .end(),
          )
          .as("active"),
        eb.fn
          .sum<number>(
            eb
              .case()
              .when("admitted_at", ">", iso(now - 60_000))
              .then(1)
              .else(0)
              .end(),
          )
          .as("lastMinute"),
        eb.fn
          .sum<number>(
            eb
              .case()
              .when("admitted_at", ">", iso(now - RATE_WINDOW_MS))
              .then(1)
              .else(0)
              .end(),
          )
          .as("lately"),
        eb.fn.sum<number>(eb.case().when("state", "=", "waiting").then(1).else(0).end()).as("waiting"),
        eb.fn
          .sum<number>(
            eb
              .case()
              .when(eb.and([eb("state", "=", "waiting"), eb("position", "<", position ?? 0)]))
              .then(1)
              .else(0)
              .end(),
          )
          .as("ahead"),
      ])
      .where("room_id", "=", rule.id)
      .executeTakeFirstOrThrow();
    const number = (value: unknown) => Number(value ?? 0);
    return {
      active: number(row.active),
      lastMinute: number(row.lastMinute),
      lately: number(row.lately),
      waiting: number(row.waiting),
      ahead: number(row.ahead),
    };
  }

  const slotsFor = (rule: RoomRule, count: { active: number; lastMinute: number }) =>
    Math.min(
      rule.activeBuyers - count.active,
      rule.newBuyersPerMinute === null ? Number.POSITIVE_INFINITY : rule.newBuyersPerMinute - count.lastMinute,
    );

  /** Seconds until `ahead + 1` more have been let in, at the recent rate (or the room's own). */
  function estimate(rule: RoomRule, lately: number, ahead: number): number | null {
    const perMinute = lately > 0 ? lately / (RATE_WINDOW_MS / 60_000) : rule.newBuyersPerMinute;
    if (!perMinute) return null;
    return Math.ceil(((ahead + 1) / perMinute) * 60);
  }

  /** The room's row, made if new, and locked until the transaction ends (SQLite's BEGIN IMMEDIATE locks it all). */
  async function lockRoom(trx: Tx, roomId: string) {
    await trx
      .insertInto("queue_rooms")
      .values({ id: roomId })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    const query = trx.selectFrom("queue_rooms").select(["next_position", "shuffled_at"]).where("id", "=", roomId);
    return (store.dialect === "postgres" ? query.forUpdate() : query).executeTakeFirstOrThrow();
  }

  /** At the on-sale time, everyone in the pre-queue gets a place, drawn at random, before anyone later. */
  async function shuffle(trx: Tx, roomId: string, nextPosition: number, now: number): Promise<number> {
    const entries = await trx
      .selectFrom("queue_entries")
      .select("id")
      .where("room_id", "=", roomId)
      .where("position", "is", null)
      .orderBy("id")
      .execute();
    const order = entries.map((entry) => entry.id);
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = randomInt(i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const [index, id] of order.entries())
      await trx
        .updateTable("queue_entries")
        .set({ position: nextPosition + index })
        .where("id", "=", id)
        .execute();
    const next = nextPosition + order.length;
    await trx
      .updateTable("queue_rooms")
      .set({ next_position: next, shuffled_at: iso(now) })
      .where("id", "=", roomId)
      .execute();
    return next;
  }

  /** Lets in the next buyers in order, as many as the room has places for now. */
  async function admitInTurn(trx: Tx, rule: RoomRule, now: number) {
    const slots = slotsFor(rule, await counts(trx, rule, now, null));
    if (slots <= 0) return;
    const next = await trx
      .selectFrom("queue_entries")
      .select("id")
      .where("room_id", "=", rule.id)
      .where("state", "=", "waiting")
      .where("position", "is not", null)
      .orderBy("position")
      .limit(Math.min(slots, 1_000))
      .execute();
    if (next.length === 0) return;
    await trx
      .updateTable("queue_entries")
      .set({ state: "admitted", admitted_at: iso(now), active_until: iso(now + ARRIVAL_GRACE_MS) })
      .where(
        "id",
        "in",
        next.map((entry) => entry.id),
      )
      .execute();
  }

  const inPreQueue = (rule: RoomRule, now: number) => rule.onSale !== undefined && iso(now) < rule.onSale.at;

  /** Joins (or rejoins, at the back) and lets in whoever's turn it is; then where this buyer stands. */
  async function joinAndAdmit(rule: RoomRule, visitorId: string, now: number): Promise<Pass> {
    return db.transaction().execute(async (trx) => {
      const room = await lockRoom(trx, rule.id);
      let nextPosition = room.next_position;
      const preQueue = inPreQueue(rule, now);
      if (!preQueue && rule.onSale && room.shuffled_at === null)
        nextPosition = await shuffle(trx, rule.id, nextPosition, now);
      const entry = await entryOf(trx, rule.id, visitorId);
      const lapsed = entry?.state === "admitted" && (entry.active_until ?? "") <= iso(now);
      if (!entry || entry.state === "left" || lapsed) {
        const place = {
          position: preQueue ? null : nextPosition,
          state: "waiting" as const,
          arrived_at: iso(now),
          admitted_at: null,
          active_until: null,
        };
        if (entry) await trx.updateTable("queue_entries").set(place).where("id", "=", entry.id).execute();
        else
          await trx
            .insertInto("queue_entries")
            .values({ id: randomUUID(), room_id: rule.id, visitor_id: visitorId, ...place })
            .execute();
        if (!preQueue)
          await trx
            .updateTable("queue_rooms")
            .set({ next_position: nextPosition + 1 })
            .where("id", "=", rule.id)
            .execute();
      }
      if (preQueue) {
        const { waiting } = await counts(trx, rule, now, null);
        return { admitted: false, preQueue: true, waiting, opensAt: rule.onSale!.at };
      }
      await admitInTurn(trx, rule, now);
      const mine = await entryOf(trx, rule.id, visitorId);
      if (mine?.state === "admitted") {
        await renew(trx, mine.id, now);
        return { admitted: true };
      }
      return waitingPass(rule, await counts(trx, rule, now, mine?.position ?? null));
    });
  }

  function waitingPass(rule: RoomRule, count: Awaited<ReturnType<typeof counts>>): Pass {
    return {
      admitted: false,
      preQueue: false,
      place: count.ahead + 1,
      waiting: count.waiting,
      estimatedWaitSeconds: estimate(rule, count.lately, count.ahead),
    };
  }

  function renew(executor: Tx | typeof db, entryId: string, now: number) {
    return executor
      .updateTable("queue_entries")
      .set({ active_until: iso(now + options.idleMs) })
      .where("id", "=", entryId)
      .execute();
  }

  return {
    /**
     * Whether this visitor may choose seats now: yes while admitted and active (their place moves
     * on as they go); otherwise they join the queue, or keep their place in it, and whoever's turn
     * it is gets in. A buyer at the back of a full room costs one read, not a write.
     */
    async pass(rule: RoomRule, visitorId: string): Promise<Pass> {
      const now = clock.now().getTime();
      const entry = await entryOf(db, rule.id, visitorId);
      if (entry?.state === "admitted" && (entry.active_until ?? "") > iso(now)) {
        if ((entry.active_until ?? "") < iso(now + options.idleMs - RENEW_EVERY_MS)) await renew(db, entry.id, now);
        return { admitted: true };
      }
      const settled = !inPreQueue(rule, now) && entry?.state === "waiting" && entry.position !== null;
      if (settled) {
        const count = await counts(db, rule, now, entry.position);
        if (slotsFor(rule, count) <= 0) return waitingPass(rule, count);
      }
      return joinAndAdmit(rule, visitorId, now);
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
      await db
        .updateTable("queue_entries")
        .set({ state: "left", active_until: null })
        .where("visitor_id", "=", visitorId)
        .where("state", "=", "admitted")
        .execute();
    },

    /** For operators' monitoring: is the room queueing, how many wait and are in, how long the wait. */
    async status(rule: RoomRule): Promise<RoomStatus> {
      const count = await counts(db, rule, clock.now().getTime(), null);
      return {
        room: rule.id,
        queueing: count.waiting > 0,
        waiting: count.waiting,
        admitted: count.active,
        estimatedWaitSeconds: count.waiting > 0 ? estimate(rule, count.lately, count.waiting - 1) : 0,
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
  const room = createWaitingRoom(store, clock, { idleMs: site.idleMs });
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

  return {
    ...room,
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
    async rules(): Promise<RoomRule[]> {
      const open = await db
        .selectFrom(onSales().as("on_sale"))
        .selectAll()
        .where("on_sale.preQueueFrom", "<=", clock.now().toISOString())
        .orderBy("on_sale.at", "desc")
        .limit(100)
        .execute();
      return [...(siteRule ? [siteRule] : []), ...open.map(runRule)];
    },
  };
}

export type WaitingRooms = ReturnType<typeof createWaitingRooms>;
