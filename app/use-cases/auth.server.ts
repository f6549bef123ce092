import { randomUUID } from "node:crypto";
import { addDays, addHours, addMinutes } from "date-fns";
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
import {
  createSignInGate,
  decoyHash,
  newToken,
  normaliseEmail,
  sha256Hex as digest,
  type Throttled,
} from "~/use-cases/sign-in.server";

// The spec's "auth" service, embedded: registration by an emailed single-use link (nothing is
// created until the email's owner follows it), sign-in and sign-out, and password reset by an
// emailed single-use link. Sessions live in the store (a cookie holds a random token, the
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

export { normaliseEmail, type Throttled };

export type Refusal = { ok: false; reason: "invalid" } | Throttled;

export type SignedIn = { ok: true; customer: Customer; token: string };

export interface AuthPolicy {
  /** How long a sign-in lasts without signing in again. */
  sessionDays: number;
  /** How long an emailed reset link works. */
  resetMinutes: number;
  /** How long an emailed link to create an account works. */
  signUpHours: number;
  /** Wrong passwords, per account and per address. */
  signInThrottle: ThrottlePolicy;
  /** Reset requests, per address: each sends an email. */
  requestThrottle: ThrottlePolicy;
  /**
   * Requests for an account, per address: each sends an email. Looser than resets, since people
   * behind one address (an office, a box office) register in numbers an hour.
   */
  signUpThrottle: ThrottlePolicy;
  /**
   * Emails to one address (sign-up links, "someone tried", resets), however many addresses ask:
   * past it, the asker is answered as ever and nothing is sent, so nobody can fill a stranger's
   * inbox from many addresses, and the answer still does not say whether the email has an account.
   */
  mailboxThrottle: ThrottlePolicy;
  passwordCost: PasswordCost;
}

export const DEFAULT_AUTH_POLICY: AuthPolicy = {
  sessionDays: 30,
  resetMinutes: 60,
  signUpHours: 24,
  signInThrottle: { freeFailures: 5, baseDelayMs: 1_000, lockAfter: 10, lockMinutes: 15, windowMinutes: 60 },
  requestThrottle: { freeFailures: 10, baseDelayMs: 1_000, lockAfter: 20, lockMinutes: 15, windowMinutes: 60 },
  signUpThrottle: { freeFailures: 20, baseDelayMs: 1_000, lockAfter: 30, lockMinutes: 15, windowMinutes: 60 },
  mailboxThrottle: { freeFailures: 5, baseDelayMs: 60_000, lockAfter: 10, lockMinutes: 60, windowMinutes: 60 },
  passwordCost: DEFAULT_PASSWORD_COST,
};

export interface ResetRequested {
  customer: Customer;
  /** The secret for the emailed link; never stored. */
  token: string;
  expiresAt: string;
}

/**
 * What asking for an account led to, for the caller to email: a link to create it, or, when the
 * email has an account already, word to its owner. The person who asked is told the same either way.
 */
export type SignUpRequested =
  | { ok: true; kind: "link"; email: string; token: string; expiresAt: string }
  | { ok: true; kind: "known"; customer: Customer }
  /** The email has had as many emails as it may for now (`mailboxThrottle`): send nothing. */
  | { ok: true; kind: "quiet" };

export type SignedUp = SignedIn & {
  /** The guest orders whose confirmations asked for a link to this email: the account's to claim. */
  orderIds: string[];
  /** Where the person was going when they asked, if anywhere. */
  returnTo: string | null;
};

export interface AuthService {
  /**
   * Asks for an account for an email: creates nothing, but a link (the caller emails it) that
   * creates the account once it is followed. `orderId` is the guest order whose confirmation asked.
   */
  requestSignUp(input: {
    email: string;
    firstName: string;
    lastName: string;
    address: string;
    orderId?: string | null;
    returnTo?: string | null;
  }): Promise<SignUpRequested | Throttled>;
  /** The email a sign-up link would create an account for, while it still would; null otherwise. */
  signUpLink(token: string): Promise<{ email: string } | null>;
  /** Follows a sign-up link: creates the account with this password and signs it in. Works once. */
  completeSignUp(input: { token: string; password: string }): Promise<SignedUp | { ok: false; reason: "invalid" }>;
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

// A sign-up token is looked up under its own prefix, in its own table: a reset link's token (or
// any other the site hands out) finds nothing here, and this one nothing there.
const signUpDigest = (token: string) => digest(`sign-up:${token}`);

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
  const signInGate = createSignInGate(store, clock, policy.signInThrottle, "signin");
  const requestThrottle = createGuessThrottle(store, clock, policy.requestThrottle);
  const signUpThrottle = createGuessThrottle(store, clock, policy.signUpThrottle);
  const mailboxThrottle = createGuessThrottle(store, clock, policy.mailboxThrottle);
  const decoy = decoyHash(policy.passwordCost);

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
  async function throttled(
    throttle: ReturnType<typeof createGuessThrottle>,
    keys: string[],
  ): Promise<Throttled | null> {
    for (const key of keys) {
      const state = await throttle.check(key);
      if (!state.allowed) return { ok: false, reason: "throttled", retryAt: state.retryAt };
    }
    return null;
  }

  const addressKey = (kind: string, address: string) => `${kind}:address:${address}`;

  /** Whether one more email may go to this address now; counts it when it may. */
  async function mayEmail(email: string): Promise<boolean> {
    const key = `mailbox:${digest(normaliseEmail(email))}`;
    if (!(await mailboxThrottle.check(key)).allowed) return false;
    await mailboxThrottle.recordFailure(key);
    return true;
  }

  return {
    async requestSignUp(input) {
      const requestKey = addressKey("register", input.address);
      const refused = await throttled(signUpThrottle, [requestKey]);
      if (refused) return refused;
      // Every request counts, known email or not: each sends an email, and the count must not
      // tell the two apart.
      await signUpThrottle.recordFailure(requestKey);
      if (!(await mayEmail(input.email))) return { ok: true, kind: "quiet" };
      const emailKey = normaliseEmail(input.email);
      const row = await db.selectFrom("customers").selectAll().where("email_key", "=", emailKey).executeTakeFirst();
      if (row) return { ok: true, kind: "known", customer: toCustomer(row) };
      const token = newToken();
      const now = clock.now();
      const expiresAt = addHours(now, policy.signUpHours).toISOString();
      const email = input.email.trim();
      await db
        .insertInto("sign_up_links")
        .values({
          id: signUpDigest(token),
          email,
          email_key: emailKey,
          first_name: input.firstName.trim(),
          last_name: input.lastName.trim(),
          order_id: input.orderId ?? null,
          return_to: input.returnTo || null,
          created_at: now.toISOString(),
          expires_at: expiresAt,
          used_at: null,
        })
        .execute();
      return { ok: true, kind: "link", email, token, expiresAt };
    },

    async signUpLink(token) {
      const row = await db
        .selectFrom("sign_up_links")
        .leftJoin("customers", "customers.email_key", "sign_up_links.email_key")
        .select(["sign_up_links.email", "customers.id as customer_id"])
        .where("sign_up_links.id", "=", signUpDigest(token))
        .where("sign_up_links.used_at", "is", null)
        .where("sign_up_links.expires_at", ">", clock.now().toISOString())
        .executeTakeFirst();
      return row && !row.customer_id ? { email: row.email } : null;
    },

    async completeSignUp({ token, password }) {
      const now = clock.now().toISOString();
      const passwordHash = await hashPassword(password, policy.passwordCost);
      const made = await db.transaction().execute(async (trx) => {
        // Used by one conditional update: two submissions of one link create one account.
        const link = await trx
          .updateTable("sign_up_links")
          .set({ used_at: now })
          .where("id", "=", signUpDigest(token))
          .where("used_at", "is", null)
          .where("expires_at", ">", now)
          .returningAll()
          .executeTakeFirst();
        if (!link) return null;
        const customer = await trx
          .insertInto("customers")
          .values({
            id: randomUUID(),
            email: link.email,
            email_key: link.email_key,
            password_hash: passwordHash,
            first_name: link.first_name,
            last_name: link.last_name,
            phone: null,
            address: null,
            contact_consent: 0,
            created_at: now,
            updated_at: now,
          })
          // An account made since (another of this email's links): this link creates nothing.
          .onConflict((conflict) => conflict.column("email_key").doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!customer) return null;
        // The email's other links die with this one; the orders they were asked from are the
        // account's too, since whoever reads this email bought them.
        const others = await trx
          .updateTable("sign_up_links")
          .set({ used_at: now })
          .where("email_key", "=", link.email_key)
          .where("used_at", "is", null)
          .where("expires_at", ">", now)
          .returning("order_id")
          .execute();
        const orderIds = [link.order_id, ...others.map((other) => other.order_id)].filter(
          (id): id is string => id !== null,
        );
        return { customer, orderIds: [...new Set(orderIds)], returnTo: link.return_to };
      });
      if (!made) return { ok: false, reason: "invalid" };
      return {
        ok: true,
        customer: toCustomer(made.customer),
        token: await startSession(made.customer.id),
        orderIds: made.orderIds,
        returnTo: made.returnTo,
      };
    },

    async signIn({ email, password, address, previousToken }) {
      const refused = await signInGate.enter(email, address);
      if (refused) return refused;
      const row = await db
        .selectFrom("customers")
        .selectAll()
        .where("email_key", "=", normaliseEmail(email))
        .executeTakeFirst();
      const matches = await verifyPassword(password, row?.password_hash ?? (await decoy()));
      if (!row || !matches) {
        await signInGate.failed(address);
        return { ok: false, reason: "invalid" };
      }
      await signInGate.succeeded(email);
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
      if (!row || !(await mayEmail(email))) return null;
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
      await signInGate.succeeded(row.email);
      return { ok: true, customer: toCustomer(row), token: await startSession(customerId) };
    },
  };
}
