import { createHash, randomBytes } from "node:crypto";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import { createGuessThrottle, type ThrottlePolicy } from "~/ticketing/guess-throttle.server";
import { hashPassword, type PasswordCost } from "~/use-cases/passwords.server";

// What the buyers' sign-in (auth.server.ts) and the staff's (staff.server.ts) share: how an email
// is matched, how a session's token is made and kept (the store holds only its SHA-256, so a copy
// of the database signs no one in), and how guessing is slowed, then refused.

export type Throttled = { ok: false; reason: "throttled"; retryAt: string };

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export const sha256Hex = (value: string) => createHash("sha256").update(value).digest("hex");

/** A session's or a link's secret: 32 random bytes, far beyond guessing. */
export const newToken = () => randomBytes(32).toString("base64url");

/**
 * A hash to compare against when no account has the email, made once at `cost`: a wrong email
 * then costs the same time as a wrong password, and the two cannot be told apart.
 */
export function decoyHash(cost: PasswordCost): () => Promise<string> {
  let decoy: Promise<string> | undefined;
  return () => (decoy ??= hashPassword(randomBytes(16).toString("hex"), cost));
}

/**
 * The throttle in front of a password: counted per account (the email, hashed) and per address,
 * under `prefix`, so the buyers' and the staff's sign-ins never count against each other.
 */
export function createSignInGate(store: Store, clock: Clock, policy: ThrottlePolicy, prefix: string) {
  const throttle = createGuessThrottle(store, clock, policy);
  const accountKey = (email: string) => `${prefix}:account:${sha256Hex(normaliseEmail(email))}`;
  const addressKey = (address: string) => `${prefix}:address:${address}`;

  /** The first refusal among the keys, if any. */
  async function waiting(keys: string[]): Promise<Throttled | null> {
    for (const key of keys) {
      const state = await throttle.check(key);
      if (!state.allowed) return { ok: false, reason: "throttled", retryAt: state.retryAt };
    }
    return null;
  }

  return {
    /**
     * Lets one try through, or answers why not. A try that goes through is counted against the
     * account before its password is looked at (`succeeded` forgets it), so tries sent at the
     * same moment are each counted before the next is checked.
     */
    async enter(email: string, address: string): Promise<Throttled | null> {
      const keys = [accountKey(email), addressKey(address)];
      const refused = await waiting(keys);
      if (refused) {
        // A try during the wait is a guess too (the password is not looked at): hammering reaches
        // the lock at the same pace as patient guessing, and keeps it.
        for (const key of keys) await throttle.recordFailure(key);
        return (await waiting(keys)) ?? refused;
      }
      const taken = await throttle.take(accountKey(email));
      if (!taken.allowed) {
        await throttle.recordFailure(addressKey(address));
        return { ok: false, reason: "throttled", retryAt: taken.retryAt };
      }
      return null;
    },

    /** The try was wrong: the account's count stands (taken at `enter`), the address's grows. */
    async failed(address: string): Promise<void> {
      await throttle.recordFailure(addressKey(address));
    },

    /** The try was right: the account's failures are forgotten. The address's count stays: one address trying many accounts is still one guesser. */
    async succeeded(email: string): Promise<void> {
      await throttle.clear(accountKey(email));
    },
  };
}
