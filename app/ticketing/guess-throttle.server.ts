import { addMilliseconds, addMinutes } from "date-fns";
import { sql, type Transaction } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { Database } from "~/db/schema";

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

  /** The wait `failures` wrong guesses earn from `now`: none, a doubling delay, or the lock. */
  function lockFor(failures: number, now: Date): string | null {
    if (failures >= policy.lockAfter) return addMinutes(now, policy.lockMinutes).toISOString();
    if (failures > policy.freeFailures)
      return addMilliseconds(now, policy.baseDelayMs * 2 ** (failures - policy.freeFailures - 1)).toISOString();
    return null;
  }

  async function setLock(trx: Transaction<Database>, key: string, failures: number, now: Date) {
    await trx
      .updateTable("guess_attempts")
      .set({ locked_until: lockFor(failures, now) })
      .where("key", "=", key)
      .execute();
  }

  /**
   * Counts one more wrong guess under `key` (forgetting failures from before the window) and sets
   * the wait it earns. Answers the failures and the wait as they were before it.
   */
  async function countFailure(trx: Transaction<Database>, key: string) {
    const now = clock.now();
    const windowStart = addMinutes(now, -policy.windowMinutes).toISOString();
    // Failures from before the window are forgotten, but not while they still lock the key out.
    await trx
      .deleteFrom("guess_attempts")
      .where("key", "=", key)
      .where("first_failure_at", "<", windowStart)
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now.toISOString())]))
      .execute();
    // The row is locked from here to the commit: a concurrent guess under the same key waits.
    await trx
      .insertInto("guess_attempts")
      .values({ key, failures: 1, first_failure_at: now.toISOString(), locked_until: null })
      .onConflict((oc) => oc.column("key").doUpdateSet({ failures: sql`guess_attempts.failures + 1` }))
      .execute();
    const row = await trx
      .selectFrom("guess_attempts")
      .select(["failures", "locked_until"])
      .where("key", "=", key)
      .executeTakeFirstOrThrow();
    await setLock(trx, key, row.failures, now);
    return { failures: row.failures - 1, lockedUntil: row.locked_until };
  }

  return {
    async check(key: string): Promise<ThrottleState> {
      const row = await db.selectFrom("guess_attempts").selectAll().where("key", "=", key).executeTakeFirst();
      const now = clock.now().toISOString();
      if (!row || row.locked_until === null || row.locked_until <= now) return { allowed: true };
      return { allowed: false, retryAt: row.locked_until, locked: row.failures >= policy.lockAfter };
    },

    async recordFailure(key: string): Promise<void> {
      await db.transaction().execute((trx) => countFailure(trx, key));
    },

    /**
     * Counts a guess under `key` before its answer is known, and says whether the key was free to
     * guess: for a guess checked outside the store (a password's hash takes a while), so guesses
     * sent at once are counted one after another and a burst gets no more tries than patient
     * guessing. A refused guess is counted too: hammering during a wait reaches the lock as surely.
     * The caller forgets the failures (`clear`) when the answer was right.
     */
    async take(key: string): Promise<ThrottleState> {
      const before = await db.transaction().execute((trx) => countFailure(trx, key));
      if (before.lockedUntil === null || before.lockedUntil <= clock.now().toISOString()) return { allowed: true };
      return { allowed: false, retryAt: before.lockedUntil, locked: before.failures >= policy.lockAfter };
    },

    /**
     * Takes one guess under `key`, one at a time: counts it as wrong, and unless the key is waiting
     * or locked (then the guess is refused and not counted), asks `isRight`; a right guess forgets
     * the key's failures. All in one transaction holding the key's row, so guesses sent at once are
     * checked one after another, each knowing how the one before it ended: none slips past a
     * count the others have not made yet, and right guesses at once are not taken for wrong ones.
     * `isRight` must not use the store (on SQLite the transaction holds its one connection).
     */
    async guess(key: string, isRight: () => boolean): Promise<ThrottleState & { right?: boolean }> {
      return db.transaction().execute(async (trx) => {
        const before = await countFailure(trx, key);
        const now = clock.now().toISOString();
        if (before.lockedUntil !== null && before.lockedUntil > now) {
          await trx
            .updateTable("guess_attempts")
            .set({ failures: before.failures, locked_until: before.lockedUntil })
            .where("key", "=", key)
            .execute();
          return { allowed: false, retryAt: before.lockedUntil, locked: before.failures >= policy.lockAfter };
        }
        const right = isRight();
        if (right) await trx.deleteFrom("guess_attempts").where("key", "=", key).execute();
        return { allowed: true, right };
      });
    },

    /**
     * Forgets the failures: the right answer came (a customer signed in with their password), or
     * the box office lifted a lock. The failures forgotten (0 when there were none).
     */
    async clear(key: string): Promise<number> {
      const row = await db.deleteFrom("guess_attempts").where("key", "=", key).returning("failures").executeTakeFirst();
      return row?.failures ?? 0;
    },

    /** The keys starting with `prefix` that are locked out now (not merely slowed), soonest lifted first. */
    async locked(prefix: string): Promise<{ key: string; failures: number; lockedUntil: string }[]> {
      const rows = await db
        .selectFrom("guess_attempts")
        .select(["key", "failures", "locked_until"])
        .where(sql<string>`substr(key, 1, ${prefix.length})`, "=", prefix)
        .where("locked_until", ">", clock.now().toISOString())
        .where("failures", ">=", policy.lockAfter)
        .orderBy("locked_until")
        .orderBy("key")
        .execute();
      return rows.map((row) => ({ key: row.key, failures: row.failures, lockedUntil: row.locked_until! }));
    },
  };
}

export type GuessThrottle = ReturnType<typeof createGuessThrottle>;
