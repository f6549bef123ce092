// `npm run bench -- queue` (issue 41): the waiting room at the scale of a real on-sale. For each
// database, a room holding QUEUE_BENCH_QUEUED visitors (100,000) already waiting, written into the
// store; then, from a process of its own (scripts/bench-queue-load.ts), at once:
// - the first FRONT visitors in line wait on the waiting page as a browser without script does,
//   and each, once let in, buys through every step (the spike's journey);
// - DEEP visitors far down the line refresh their waiting page when it says (a waiting refresh);
// - JOINERS new visitors join at the back (a join, at 100,000 queued).
// Prints join, refresh and admission p50/p95 and admissions per minute while the buyers purchase,
// for information (milliseconds are this machine's: design.md section 8 keeps no budget in them),
// and whether anyone was let in out of turn (checked on the store every half second and at the
// end; the one budget line here).
import { fork } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { ServerBuild } from "@remix-run/node";
import { sql } from "kysely";
import type { Clock } from "~/clock";
import type { DialectName, Store } from "~/db/connection.server";
import { createWaitingRoom, type RoomRule } from "~/ticketing/waiting-room.server";
import { percentile, verdict } from "./bench-baselines";
import { buyersBrief, loadBuild, startSite } from "./bench-pages";
import { ticketsSold } from "./bench-processes";
import type { QueueLoadBrief, QueueLoadDone } from "./bench-queue-load";

const QUEUE = {
  queued: Number(process.env.QUEUE_BENCH_QUEUED ?? 100_000),
  front: Number(process.env.QUEUE_BENCH_FRONT ?? 300),
  deep: Number(process.env.QUEUE_BENCH_DEEP ?? 400),
  joiners: Number(process.env.QUEUE_BENCH_JOINERS ?? 300),
  active: Number(process.env.QUEUE_BENCH_ACTIVE ?? 30),
  runMs: Number(process.env.QUEUE_BENCH_RUN_SECONDS ?? 60) * 1000,
};
const ROOM = "site";

const visitor = (position: number) => `bench-${String(position).padStart(7, "0")}`;

/** QUEUE.queued visitors waiting in places 1…N, the room's counters to match: set-based, in batches. */
async function fill(store: Store, now: Date) {
  const { db } = store;
  await db
    .insertInto("queue_rooms")
    .values({ id: ROOM })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  const BATCH = 2_000;
  for (let start = 1; start <= QUEUE.queued; start += BATCH) {
    const rows = [];
    for (let position = start; position < Math.min(start + BATCH, QUEUE.queued + 1); position += 1)
      rows.push({
        id: randomUUID(),
        room_id: ROOM,
        visitor_id: visitor(position),
        arrived_at: now.toISOString(),
        position,
        state: "waiting" as const,
      });
    await db.insertInto("queue_entries").values(rows).execute();
  }
  await db
    .updateTable("queue_rooms")
    .set({ next_position: QUEUE.queued + 1, admitted_through: 0, admitted_count: 0, pre_queued: 0 })
    .where("id", "=", ROOM)
    .execute();
  // PostgreSQL's autovacuum would analyse a table that grew by 100,000 rows within a minute; the
  // bench does not wait for it, so the planner knows the table's size from the first request.
  if (store.dialect === "postgres") await sql`analyze queue_entries`.execute(db);
}

/** Sequential calls of `work`, each timed (ms). */
async function timeEach(count: number, work: (index: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const at = performance.now();
    await work(index);
    times.push(performance.now() - at);
  }
  return times;
}

/**
 * The store's own cost at 100,000 queued, before any load: what the waiting room does for a
 * waiting refresh (a visitor deep in a full room), a join (a new visitor at the back) and an
 * admission (a buyer leaves; the next in line asks and is let in). Visitors 1…SAMPLES go in and
 * out here; the next QUEUE.active are in when it ends.
 */
async function storeCosts(store: Store, clock: Clock) {
  const SAMPLES = 200;
  const room = createWaitingRoom(store, clock, { idleMs: 10 * 60_000 });
  const rule: RoomRule = { id: ROOM, activeBuyers: QUEUE.active, newBuyersPerMinute: null };
  // The first ask fills the room (the first QUEUE.active in line go in).
  await room.pass(rule, visitor(QUEUE.queued));
  const deep = Math.floor(QUEUE.queued / 2);
  const refresh = await timeEach(SAMPLES * 2, (index) => room.pass(rule, visitor(deep + (index % SAMPLES))));
  const join = await timeEach(SAMPLES, () => room.pass(rule, `joiner-${randomUUID()}`));
  const admission = await timeEach(SAMPLES, async (index) => {
    await room.leave(visitor(index + 1));
    const pass = await room.pass(rule, visitor(index + 1 + QUEUE.active));
    if (!pass.admitted) throw new Error(`bench: place ${index + 1 + QUEUE.active} was not let in after a departure`);
  });
  return { refresh, join, admission, samples: SAMPLES };
}

/**
 * Anyone let in out of turn now: an admitted place behind the last let in, or a waiting one before
 * it. One statement, so one snapshot: read apart, an admission committing between the two reads
 * would look like one out of turn.
 */
async function outOfTurn(store: Store): Promise<number> {
  const { db } = store;
  const through = db.selectFrom("queue_rooms").select("admitted_through").where("id", "=", ROOM);
  const row = await db
    .selectFrom("queue_entries")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("room_id", "=", ROOM)
    .where((eb) =>
      eb.or([
        eb.and([eb("state", "=", "admitted"), eb("position", ">", through)]),
        eb.and([eb("state", "=", "waiting"), eb("position", "<=", through)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function benchQueueOn(root: string, build: ServerBuild, dialect: DialectName) {
  const secret = randomBytes(32).toString("hex");
  const site = await startSite(
    root,
    build,
    {
      SESSION_SECRET: secret,
      QUEUE_ACTIVE_BUYERS: String(QUEUE.active),
      // Every load client comes from 127.0.0.1: the per-address limit would refuse them.
      QUEUE_JOINS_PER_ADDRESS: "0",
    },
    dialect,
  );
  try {
    const { store, sessions, clock } = site.services;
    const filling = performance.now();
    await fill(store, clock.now());
    const filled = (performance.now() - filling) / 1000;
    const costs = await storeCosts(store, clock);
    const base = await buyersBrief(site, secret, QUEUE.front);
    /** A session cookie carrying this visitor id, signed as the site signs it. */
    const sessionFor = async (visitorId: string) => {
      const session = await sessions.getSession(new Request(site.origin));
      session.set("visitorId", visitorId);
      return (await sessions.commitSession(session)).split(";")[0]!;
    };
    const deepFrom = Math.floor(QUEUE.queued / 2);
    const brief: QueueLoadBrief = {
      ...base,
      runMs: QUEUE.runMs,
      front: await Promise.all(
        Array.from({ length: QUEUE.front }, (_, index) => sessionFor(visitor(costs.samples + index + 1))),
      ),
      deep: await Promise.all(Array.from({ length: QUEUE.deep }, (_, index) => sessionFor(visitor(deepFrom + index)))),
      joiners: await Promise.all(Array.from({ length: QUEUE.joiners }, () => sessionFor(randomUUID()))),
    };
    let violations = 0;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        violations = Math.max(violations, await outOfTurn(store));
        await sleep(500);
      }
    })();
    const load = fork(new URL("./bench-queue-load.ts", import.meta.url), {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const done = await new Promise<QueueLoadDone>((resolve, reject) => {
      load.on("message", (message: QueueLoadDone) => resolve(message));
      load.once("error", reject);
      load.once("exit", (code) => code !== 0 && reject(new Error(`bench: the queue's load exited with ${code}`)));
      load.send(brief);
    });
    watching = false;
    await watcher;
    violations = Math.max(violations, await outOfTurn(store));
    const { tickets, oversold } = await ticketsSold(store, base.performanceId);
    const room = await store.db.selectFrom("queue_rooms").selectAll().where("id", "=", ROOM).executeTakeFirstOrThrow();
    const label = `queue (${dialect}, ${QUEUE.queued.toLocaleString("en-GB")} queued, ${QUEUE.active} at once)`;
    const q = (times: number[]) =>
      `p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms`;
    console.log(
      `${label}: in the store (the waiting room's own calls, one at a time, before the load), for information: ` +
        `waiting refresh ${q(costs.refresh)}; join ${q(costs.join)}; admission ${q(costs.admission)}`,
    );
    const p = (name: keyof QueueLoadDone["times"]) =>
      `p50 ${percentile(done.times[name], 50).toFixed(1)} ms, p95 ${percentile(done.times[name], 95).toFixed(1)} ms (${done.times[name].length})`;
    console.log(
      `${label}: filled in ${filled.toFixed(1)} s; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(", ")} at the end`,
    );
    console.log(
      `${label}: through the site under load (whole page, from the load's process), for information: join ${p("join")}; ` +
        `waiting refresh ${p("refresh")}; admission (the request that let its buyer in) ${p("admission")}`,
    );
    const minutes = done.seconds / 60;
    console.log(
      `${label}: ${room.admitted_through - costs.samples} let in over ${done.seconds.toFixed(0)} s of load, ${((room.admitted_through - costs.samples) / minutes).toFixed(0)} per minute, ` +
        `while ${done.orders} orders were paid (${tickets} tickets, oversold seats: ${oversold})`,
    );
    console.log(
      `${label}: let in out of turn: ${violations} (checked every half second: no admitted place behind the last let in, ` +
        `no waiting one before it; budget 0): ${verdict(violations === 0)}`,
    );
    const stops = Object.entries(done.stopped)
      .map(([why, count]) => `${count} at ${why}`)
      .join(", ");
    if (stops) console.log(`${label}: journeys stopped short: ${stops}`);
  } finally {
    await site.close();
  }
}

export async function benchQueue(root: string, dialects: DialectName[], build?: ServerBuild) {
  const loaded = build ?? (await loadBuild(root));
  for (const dialect of dialects) await benchQueueOn(root, loaded, dialect);
}
