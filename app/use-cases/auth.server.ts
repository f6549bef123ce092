import { createHash, randomBytes, randomUUID } from "node:crypto";
import { addDays, addMinutes } from "date-fns";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { CustomerTable } from "~/db/schema";
import {
  DEFAULT_PASSWORD_COST,
  hashPassword,
  needsRehash,
  verifyPassword,
  type PasswordCost,
} from "~/use-cases/passwords.server";
import { createGuessThrottle, type ThrottlePolicy } from "~/ticketing/guess-throttle.server";

// The spec's "auth" service, embedded: registration, sign-in and sign-out, and password reset by
// an emailed single-use link. Sessions live in the store (a cookie holds a random token, the
// store only its hash), so signing out ends a session for good and a copy of the database signs
// no one in.

export interface Customer {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  contactConsent: boolean;
}

export type Refusal = { ok: false; reason: "invalid" } | { ok: false; reason: "throttled"; retryAt: string };

export type SignedIn = { ok: true; customer: Customer; token: string };

export interface AuthPolicy {
  /** How long a sign-in lasts without signing in again. */
  sessionDays: number;
  /** How long an emailed reset link works. */
  resetMinutes: number;
  /** Wrong passwords, per account and per address. */
  signInThrottle: ThrottlePolicy;
  /** Registrations and reset requests, per address: they tell whether an email has an account. */
  requestThrottle: ThrottlePolicy;
  passwordCost: PasswordCost;
}

export const DEFAULT_AUTH_POLICY: AuthPolicy = {
  sessionDays: 30,
  resetMinutes: 60,
  signInThrottle: { freeFailures: 5, baseDelayMs: 1_000, lockAfter: 10, lockMinutes: 15, windowMinutes: 60 },
  requestThrottle: { freeFailures: 10, baseDelayMs: 1_000, lockAfter: 20, lockMinutes: 15, windowMinutes: 60 },
  passwordCost: DEFAULT_PASSWORD_COST,
};

export interface ResetRequested {
  customer: Customer;
  /** The secret for the emailed link; never stored. */
  token: string;
  expiresAt: string;
}

export interface AuthService {
  register(input: {
    email: string;
    password: string;
    firstName: string;
    lastName: string;
    address: string;
  }): Promise<SignedIn | { ok: false; reason: "emailTaken" } | Refusal>;
  /** Signs in with a new session (a new token), ending `previousToken`'s if there was one. */
  signIn(input: {
    email: string;
    password: string;
    address: string;
    previousToken?: string;
  }): Promise<SignedIn | Refusal>;
  signOut(token: string): Promise<void>;
  /** The customer a cookie's token signs in, or null (unknown, expired or signed out). */
  customer(token: string | null | undefined): Promise<Customer | null>;
  /**
   * A reset link for the account with this email, or null when there is none. The caller sends
   * the email and tells the buyer the same thing either way.
   */
  requestPasswordReset(input: { email: string; address: string }): Promise<ResetRequested | null | Refusal>;
  /** Whether a reset link is still good (unused, unexpired), without using it. */
  resetLinkValid(token: string): Promise<boolean>;
  /** Sets a new password by a reset link, ends every session of the account, and signs in afresh. */
  resetPassword(input: { token: string; password: string }): Promise<SignedIn | { ok: false; reason: "invalid" }>;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();
const digest = (value: string) => createHash("sha256").update(value).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");

function toCustomer(row: CustomerTable): Customer {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.phone,
    contactConsent: row.contact_consent === 1,
  };
}

export function createAuth(store: Store, clock: Clock, policy: AuthPolicy = DEFAULT_AUTH_POLICY): AuthService {
  const { db } = store;
  const signInThrottle = createGuessThrottle(store, clock, policy.signInThrottle);
  const requestThrottle = createGuessThrottle(store, clock, policy.requestThrottle);
  // Compared against when no account has the email, so a wrong email costs the same time as a
  // wrong password and the two cannot be told apart.
  let decoy: Promise<string> | undefined;
  const decoyHash = () => (decoy ??= hashPassword(randomBytes(16).toString("hex"), policy.passwordCost));

  async function startSession(customerId: string): Promise<string> {
    const token = newToken();
    const now = clock.now();
    await db
      .insertInto("auth_sessions")
      .values({
        id: digest(token),
        customer_id: customerId,
        created_at: now.toISOString(),
        expires_at: addDays(now, policy.sessionDays).toISOString(),
      })
      .execute();
    return token;
  }

  /** The first refusal among the keys, if any. */
  async function throttled(throttle: ReturnType<typeof createGuessThrottle>, keys: string[]): Promise<Refusal | null> {
    for (const key of keys) {
      const state = await throttle.check(key);
      if (!state.allowed) return { ok: false, reason: "throttled", retryAt: state.retryAt };
    }
    return null;
  }

  const accountKey = (email: string) => `signin:account:${digest(normaliseEmail(email))}`;
  const addressKey = (kind: string, address: string) => `${kind}:address:${address}`;

  return {
    async register(input) {
      const requestKey = addressKey("register", input.address);
      const refused = await throttled(requestThrottle, [requestKey]);
      if (refused) return refused;
      const now = clock.now().toISOString();
      const id = randomUUID();
      const inserted = await db
        .insertInto("customers")
        .values({
          id,
          email: input.email.trim(),
          email_key: normaliseEmail(input.email),
          password_hash: await hashPassword(input.password, policy.passwordCost),
          first_name: input.firstName.trim(),
          last_name: input.lastName.trim(),
          phone: null,
          address: null,
          contact_consent: 0,
          created_at: now,
          updated_at: now,
        })
        .onConflict((conflict) => conflict.column("email_key").doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!inserted) {
        // Asking whether emails have accounts, one after another, is slowed like guessing.
        await requestThrottle.recordFailure(requestKey);
        return { ok: false, reason: "emailTaken" };
      }
      return { ok: true, customer: toCustomer(inserted), token: await startSession(id) };
    },

    async signIn({ email, password, address, previousToken }) {
      const keys = [accountKey(email), addressKey("signin", address)];
      const waiting = await throttled(signInThrottle, keys);
      if (waiting) {
        // A try during the wait is a guess too (the password is not looked at): hammering reaches
        // the lock at the same pace as patient guessing, and keeps it.
        for (const key of keys) await signInThrottle.recordFailure(key);
        return (await throttled(signInThrottle, keys)) ?? waiting;
      }
      const row = await db
        .selectFrom("customers")
        .selectAll()
        .where("email_key", "=", normaliseEmail(email))
        .executeTakeFirst();
      const matches = await verifyPassword(password, row?.password_hash ?? (await decoyHash()));
      if (!row || !matches) {
        for (const key of keys) await signInThrottle.recordFailure(key);
        return { ok: false, reason: "invalid" };
      }
      // The address's count stays: one address trying many accounts is still one guesser.
      await signInThrottle.clear(keys[0]!);
      if (needsRehash(row.password_hash, policy.passwordCost)) {
        await db
          .updateTable("customers")
          .set({ password_hash: await hashPassword(password, policy.passwordCost) })
          .where("id", "=", row.id)
          .execute();
      }
      if (previousToken) await this.signOut(previousToken);
      return { ok: true, customer: toCustomer(row), token: await startSession(row.id) };
    },

    async signOut(token) {
      await db.deleteFrom("auth_sessions").where("id", "=", digest(token)).execute();
    },

    async customer(token) {
      if (!token) return null;
      const row = await db
        .selectFrom("auth_sessions")
        .innerJoin("customers", "customers.id", "auth_sessions.customer_id")
        .selectAll("customers")
        .where("auth_sessions.id", "=", digest(token))
        .where("auth_sessions.expires_at", ">", clock.now().toISOString())
        .executeTakeFirst();
      return row ? toCustomer(row) : null;
    },

    async requestPasswordReset({ email, address }) {
      const requestKey = addressKey("reset", address);
      const refused = await throttled(requestThrottle, [requestKey]);
      if (refused) return refused;
      // Every request counts: sending many reset emails is as unwelcome as guessing.
      await requestThrottle.recordFailure(requestKey);
      const row = await db
        .selectFrom("customers")
        .selectAll()
        .where("email_key", "=", normaliseEmail(email))
        .executeTakeFirst();
      if (!row) return null;
      const token = newToken();
      const now = clock.now();
      const expiresAt = addMinutes(now, policy.resetMinutes).toISOString();
      await db
        .insertInto("password_resets")
        .values({
          id: digest(token),
          customer_id: row.id,
          created_at: now.toISOString(),
          expires_at: expiresAt,
          used_at: null,
        })
        .execute();
      return { customer: toCustomer(row), token, expiresAt };
    },

    async resetLinkValid(token) {
      const row = await db
        .selectFrom("password_resets")
        .select("id")
        .where("id", "=", digest(token))
        .where("used_at", "is", null)
        .where("expires_at", ">", clock.now().toISOString())
        .executeTakeFirst();
      return row !== undefined;
    },

    async resetPassword({ token, password }) {
      const now = clock.now().toISOString();
      const passwordHash = await hashPassword(password, policy.passwordCost);
      const customerId = await db.transaction().execute(async (trx) => {
        // Used by one conditional update: two submissions of one link change the password once.
        const used = await trx
          .updateTable("password_resets")
          .set({ used_at: now })
          .where("id", "=", digest(token))
          .where("used_at", "is", null)
          .where("expires_at", ">", now)
          .returning("customer_id")
          .executeTakeFirst();
        if (!used) return null;
        await trx
          .updateTable("customers")
          .set({ password_hash: passwordHash, updated_at: now })
          .where("id", "=", used.customer_id)
          .execute();
        // Whoever knew the old password is signed out everywhere, and other links die with it.
        await trx.deleteFrom("auth_sessions").where("customer_id", "=", used.customer_id).execute();
        await trx
          .updateTable("password_resets")
          .set({ used_at: now })
          .where("customer_id", "=", used.customer_id)
          .where("used_at", "is", null)
          .execute();
        return used.customer_id;
      });
      if (!customerId) return { ok: false, reason: "invalid" };
      const row = await db.selectFrom("customers").selectAll().where("id", "=", customerId).executeTakeFirstOrThrow();
      await signInThrottle.clear(accountKey(row.email));
      return { ok: true, customer: toCustomer(row), token: await startSession(customerId) };
    },
  };
}
