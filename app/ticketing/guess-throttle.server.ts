import { addMilliseconds, addMinutes } from "date-fns";
import { sql } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";

// Slows down, then refuses for a while, whoever keeps guessing wrong (voucher codes now; sign-in
// later). Kept in the store, so it holds across servers and restarts.

export interface ThrottlePolicy {
  /** Wrong guesses allowed before any wait. */
  freeFailures: number;
  /** The wait after the first failure beyond those; it doubles with each further one. */
  baseDelayMs: number;
  /** After this many failures, refuse outright… */
  lockAfter: number;
  /** …for this long. */
  lockMinutes: number;
  /** Failures older than this are forgotten. */
  windowMinutes: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = {
  freeFailures: 3,
  baseDelayMs: 5_000,
  lockAfter: 10,
  lockMinutes: 30,
  windowMinutes: 60,
};

export type ThrottleState = { allowed: true } | { allowed: false; retryAt: string; locked: boolean };

export function createGuessThrottle(store: Store, clock: Clock, policy: ThrottlePolicy = DEFAULT_THROTTLE) {
  const { db } = store;
  return {
    async check(key: string): Promise<ThrottleState> {
      const row = await db.selectFrom("guess_attempts").selectAll().where("key", "=", key).executeTakeFirst();
      const now = clock.now().toISOString();
      if (!row || row.locked_until === null || row.locked_until <= now) return { allowed: true };
      return { allowed: false, retryAt: row.locked_until, locked: row.failures >= policy.lockAfter };
    },

    async recordFailure(key: string): Promise<void> {
      const now = clock.now();
      const windowStart = addMinutes(now, -policy.windowMinutes).toISOString();
      await db.transaction().execute(async (trx) => {
        // Forget failures from long ago, then count this one.
        await trx
          .deleteFrom("guess_attempts")
          .where("key", "=", key)
          .where("first_failure_at", "<", windowStart)
          .execute();
        await trx
          .insertInto("guess_attempts")
          .values({ key, failures: 1, first_failure_at: now.toISOString(), locked_until: null })
          .onConflict((oc) => oc.column("key").doUpdateSet({ failures: sql`guess_attempts.failures + 1` }))
          .execute();
        const { failures } = await trx
          .selectFrom("guess_attempts")
          .select("failures")
          .where("key", "=", key)
          .executeTakeFirstOrThrow();
        let lockedUntil: string | null = null;
        if (failures >= policy.lockAfter) lockedUntil = addMinutes(now, policy.lockMinutes).toISOString();
        else if (failures > policy.freeFailures) {
          lockedUntil = addMilliseconds(
            now,
            policy.baseDelayMs * 2 ** (failures - policy.freeFailures - 1),
          ).toISOString();
        }
        await trx.updateTable("guess_attempts").set({ locked_until: lockedUntil }).where("key", "=", key).execute();
      });
    },

    /** Forgets the failures: the right answer came (a customer signed in with their password). */
    async clear(key: string): Promise<void> {
      await db.deleteFrom("guess_attempts").where("key", "=", key).execute();
    },
  };
}

export type GuessThrottle = ReturnType<typeof createGuessThrottle>;
