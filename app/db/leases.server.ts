import { randomUUID } from "node:crypto";
import type { Clock } from "~/clock";
import type { Store } from "./connection.server";

/**
 * Which process runs a periodic job (the hold sweeper, the payment reconciler, the email outbox's
 * timer) when several share one database: the first to ask takes a lease row for `ttlMs`, renews
 * it each time its timer fires, and the others stand by until it lapses (the holder stopped, or
 * died). The jobs claim their rows anyway, so two holders at once would do nothing twice; the
 * lease spares the database every process waking at once to race for the same rows.
 *
 * A row rather than pg_try_advisory_lock: it works on SQLite as well, it survives the pool
 * handing each statement a different connection, and it lapses by the injectable clock.
 */
export function createJobLeases(store: Store, clock: Clock, holder = `${process.pid}-${randomUUID()}`) {
  const { db } = store;
  return {
    holder,

    /** True when this process holds the job's lease now (taken or renewed for ttlMs). */
    async acquire(name: string, ttlMs: number): Promise<boolean> {
      const now = clock.now();
      const until = new Date(now.getTime() + ttlMs).toISOString();
      // One statement: insert, or take over a lapsed lease, or renew our own; otherwise no row.
      const row = await db
        .insertInto("job_leases")
        .values({ name, holder, until })
        .onConflict((conflict) =>
          conflict
            .column("name")
            .doUpdateSet({ holder, until })
            .where((eb) =>
              eb.or([eb("job_leases.until", "<=", now.toISOString()), eb("job_leases.holder", "=", holder)]),
            ),
        )
        .returning("holder")
        .executeTakeFirst();
      return row?.holder === holder;
    },

    /** Gives the lease up at once (a clean shutdown), so another process need not wait for it to lapse. */
    async release(name: string): Promise<void> {
      await db.deleteFrom("job_leases").where("name", "=", name).where("holder", "=", holder).execute();
    },
  };
}

export type JobLeases = ReturnType<typeof createJobLeases>;

/**
 * `run` every `intervalMs`; given `leases`, only in whichever one of the processes sharing the
 * store holds the lease `name`. A run slower than the interval is not overlapped by the next. The
 * timer does not keep the process alive; `stop` waits for a run under way and hands the lease back.
 */
export function startPeriodicJob(options: {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  onError: (error: unknown) => void;
  leases?: JobLeases;
}) {
  const { leases, name, intervalMs, run, onError } = options;
  // Long enough that a holder firing a little late keeps it; short enough that another process
  // takes the job over within a few intervals of the holder's death.
  const ttlMs = intervalMs * 3;
  let running: Promise<unknown> | null = null;
  let held = false;
  const timer = setInterval(() => {
    if (running) return;
    running = (leases ? leases.acquire(name, ttlMs) : Promise.resolve(true))
      .then(async (mine) => {
        held = mine && leases !== undefined;
        if (mine) await run();
      })
      .catch(onError)
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      if (held) await leases?.release(name).catch(onError);
    },
  };
}
