import { randomUUID } from "node:crypto";
import { addHours, addMinutes } from "date-fns";
import { Secret, TOTP } from "otpauth";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { StaffUserTable } from "~/db/schema";
import type { ThrottlePolicy } from "~/ticketing/guess-throttle.server";
import {
  readStaffAudit,
  type StaffAuditFilter,
  writeStaffAudit,
  type StaffAuditEntry,
  type StaffAuditInput,
} from "~/ticketing/staff-audit.server";
import { isStaffRole, needsSecondFactor, STAFF_PASSWORD_MIN_LENGTH, type StaffRole } from "~/ticketing/staff-roles";
import {
  DEFAULT_PASSWORD_COST,
  hashPassword,
  needsRehash,
  verifyPassword,
  type PasswordCost,
} from "~/use-cases/passwords.server";
import {
  createSignInGate,
  decoyHash,
  newToken,
  normaliseEmail,
  sha256Hex,
  type Throttled,
} from "~/use-cases/sign-in.server";

// The venue's staff (issue 55, decision 0059): accounts apart from buyers', added and removed by
// the operator's command (later by a manager), signed in by password and, for every role but the
// door, a time-based one-time code (RFC 6238); sessions of their own, shorter than buyers'; and
// the audit log of what staff did. Passwords, tokens and the throttle are the buyers' own
// (passwords.server.ts, sign-in.server.ts), under keys of their own.

export interface StaffMember {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  createdAt: string;
}

export interface StaffPolicy {
  /**
   * A staff session's absolute length, however busy it is: a working day and its evening
   * performance. Then the member signs in again (a buyer's lasts 30 days).
   */
  sessionHours: number;
  /** Minutes without a request before a staff session ends: a screen left open at the counter. */
  idleMinutes: number;
  /** Wrong passwords or codes, per account and per address. */
  signInThrottle: ThrottlePolicy;
  passwordCost: PasswordCost;
  /** The name an authenticator app shows beside the code. */
  totpIssuer: string;
}

export const DEFAULT_STAFF_POLICY: StaffPolicy = {
  sessionHours: 12,
  idleMinutes: 30,
  signInThrottle: { freeFailures: 5, baseDelayMs: 1_000, lockAfter: 10, lockMinutes: 15, windowMinutes: 60 },
  passwordCost: DEFAULT_PASSWORD_COST,
  totpIssuer: "Box office",
};

// What every authenticator app reads from an otpauth:// URI: HMAC-SHA-1, 6 digits, 30 s steps
// (RFC 6238's defaults). One step either side is accepted, for a phone's clock a little off.
const TOTP_SETTINGS = { algorithm: "SHA1", digits: 6, period: 30 } as const;
const TOTP_WINDOW = 1;
/** 160 bits, the HMAC-SHA-1 key length RFC 4226 recommends. */
const TOTP_SECRET_BYTES = 20;

export type StaffAdded = {
  ok: true;
  staff: StaffMember;
  /** For every role but the door: what to put in the authenticator app, shown once. */
  secondFactor: { secret: string; uri: string } | null;
};

export type StaffAddRefusal = {
  ok: false;
  reason: "invalidEmail" | "nameMissing" | "unknownRole" | "weakPassword" | "duplicateEmail";
};

export type StaffSignedIn = { ok: true; staff: StaffMember; token: string; expiresAt: string };

/**
 * `invalid`: the email, the password or the code is wrong (which is not said). `codeNeeded`: the
 * password is right and this role signs in with a code too: ask for it.
 */
export type StaffSignInRefusal = { ok: false; reason: "invalid" | "codeNeeded" } | Throttled;

export interface StaffSession {
  staff: StaffMember;
  /** The session's absolute end. */
  expiresAt: string;
}

export interface StaffService {
  /** Adds a member of staff. `by`: the manager who did it; null for the operator's command. */
  add(input: {
    email: string;
    name: string;
    role: StaffRole;
    password: string;
    by?: string | null;
  }): Promise<StaffAdded | StaffAddRefusal>;
  /** Removes the current member with this email, and ends their sessions. */
  remove(input: {
    email: string;
    by?: string | null;
  }): Promise<{ ok: true; staff: StaffMember } | { ok: false; reason: "unknown" }>;
  /** The current staff, by name. */
  list(): Promise<StaffMember[]>;
  signIn(input: {
    email: string;
    password: string;
    /** The one-time code from the authenticator app; spaces are ignored. Not asked of the door. */
    code?: string | null;
    address: string;
  }): Promise<StaffSignedIn | StaffSignInRefusal>;
  /** Who a staff cookie's token signs in, or null: unknown, signed out, expired, idle too long, or removed. */
  session(token: string | null | undefined): Promise<StaffSession | null>;
  signOut(token: string): Promise<void>;
  record(entry: StaffAuditInput): Promise<void>;
  auditFor(filter: StaffAuditFilter): Promise<StaffAuditEntry[]>;
}

/** Trimmed and lower-cased; refused unless it looks like an address (one @, something either side, no spaces). */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

// Looked up under its own prefix, in its own table: a buyer's session token signs no one in here,
// and a staff token none there.
const sessionDigest = (token: string) => sha256Hex(`staff-session:${token}`);

function toMember(row: Pick<StaffUserTable, "id" | "email" | "name" | "role" | "created_at">): StaffMember {
  return { id: row.id, email: row.email, name: row.name, role: row.role, createdAt: row.created_at };
}

function totp(secret: string, label?: string, issuer?: string): TOTP {
  return new TOTP({ ...TOTP_SETTINGS, secret: Secret.fromBase32(secret), label, issuer });
}

/** The time step a right code belongs to (this one or one either side), or null for a wrong code. */
function stepOf(secret: string, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const generator = totp(secret);
  const timestamp = at.getTime();
  const delta = generator.validate({ token: code, timestamp, window: TOTP_WINDOW });
  return delta === null ? null : TOTP.counter({ period: TOTP_SETTINGS.period, timestamp }) + delta;
}

export function createStaff(store: Store, clock: Clock, policy: StaffPolicy = DEFAULT_STAFF_POLICY): StaffService {
  const { db } = store;
  // Under keys of their own: buyers guessing at the same address never lock the box office out.
  const gate = createSignInGate(store, clock, policy.signInThrottle, "staff-signin");
  const decoy = decoyHash(policy.passwordCost);

  const current = () => db.selectFrom("staff_users").where("removed_at", "is", null);

  /**
   * Accepts a code once: its step is written only if it is later than the last one accepted, by
   * one conditional update, so a code seen over a shoulder (or sent twice at once) signs in once.
   */
  async function acceptCode(row: StaffUserTable, code: string): Promise<boolean> {
    if (!row.totp_secret) return false;
    const step = stepOf(row.totp_secret, code, clock.now());
    if (step === null) return false;
    const taken = await db
      .updateTable("staff_users")
      .set({ last_totp_step: step })
      .where("id", "=", row.id)
      .where((eb) => eb.or([eb("last_totp_step", "is", null), eb("last_totp_step", "<", step)]))
      .executeTakeFirst();
    return taken.numUpdatedRows > 0n;
  }

  return {
    async add({ email: given, name: givenName, role, password, by = null }) {
      const email = normaliseEmail(given);
      const name = givenName.trim();
      if (!EMAIL.test(email)) return { ok: false, reason: "invalidEmail" };
      if (!name) return { ok: false, reason: "nameMissing" };
      if (!isStaffRole(role)) return { ok: false, reason: "unknownRole" };
      if ([...password].length < STAFF_PASSWORD_MIN_LENGTH) return { ok: false, reason: "weakPassword" };
      const passwordHash = await hashPassword(password, policy.passwordCost);
      const secret = needsSecondFactor(role) ? new Secret({ size: TOTP_SECRET_BYTES }).base32 : null;
      const now = clock.now();
      const row = await db.transaction().execute(async (trx) => {
        const made = await trx
          .insertInto("staff_users")
          .values({
            id: randomUUID(),
            email,
            name,
            role,
            password_hash: passwordHash,
            totp_secret: secret,
            last_totp_step: null,
            created_at: now.toISOString(),
            removed_at: null,
          })
          // The one unique rule besides the id: one current member per email.
          .onConflict((conflict) => conflict.doNothing())
          .returningAll()
          .executeTakeFirst();
        if (made)
          await writeStaffAudit(trx, now, {
            staffId: by,
            action: "staffAdded",
            detail: { staffId: made.id, email, role },
          });
        return made;
      });
      if (!row) return { ok: false, reason: "duplicateEmail" };
      return {
        ok: true,
        staff: toMember(row),
        secondFactor: secret ? { secret, uri: totp(secret, email, policy.totpIssuer).toString() } : null,
      };
    },

    async remove({ email, by = null }) {
      const now = clock.now();
      const row = await db.transaction().execute(async (trx) => {
        const removed = await trx
          .updateTable("staff_users")
          .set({ removed_at: now.toISOString() })
          .where("email", "=", normaliseEmail(email))
          .where("removed_at", "is", null)
          .returningAll()
          .executeTakeFirst();
        if (!removed) return null;
        await trx.deleteFrom("staff_sessions").where("staff_id", "=", removed.id).execute();
        await writeStaffAudit(trx, now, {
          staffId: by,
          action: "staffRemoved",
          detail: { staffId: removed.id, email: removed.email, role: removed.role },
        });
        return removed;
      });
      return row ? { ok: true, staff: toMember(row) } : { ok: false, reason: "unknown" };
    },

    async list() {
      const rows = await current().selectAll().orderBy("name").orderBy("email").execute();
      return rows.map(toMember);
    },

    async signIn({ email, password, code, address }) {
      const refused = await gate.enter(email, address);
      if (refused) return refused;
      const row = await current().selectAll().where("email", "=", normaliseEmail(email)).executeTakeFirst();
      const matches = await verifyPassword(password, row?.password_hash ?? (await decoy()));
      if (!row || !matches) {
        await gate.failed(address);
        return { ok: false, reason: "invalid" };
      }
      if (needsSecondFactor(row.role)) {
        const given = (code ?? "").replace(/\s+/g, "");
        // The account's try stays counted (`enter` took it) until a right code forgets it.
        if (!given) return { ok: false, reason: "codeNeeded" };
        if (!(await acceptCode(row, given))) {
          await gate.failed(address);
          return { ok: false, reason: "invalid" };
        }
      }
      await gate.succeeded(email);
      if (needsRehash(row.password_hash, policy.passwordCost)) {
        await db
          .updateTable("staff_users")
          .set({ password_hash: await hashPassword(password, policy.passwordCost) })
          .where("id", "=", row.id)
          .execute();
      }
      const token = newToken();
      const now = clock.now();
      const expiresAt = addHours(now, policy.sessionHours).toISOString();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("staff_sessions")
          .values({
            id: sessionDigest(token),
            staff_id: row.id,
            created_at: now.toISOString(),
            expires_at: expiresAt,
            last_seen_at: now.toISOString(),
          })
          .execute();
        await writeStaffAudit(trx, now, { staffId: row.id, action: "signIn", detail: { address } });
      });
      return { ok: true, staff: toMember(row), token, expiresAt };
    },

    async session(token) {
      if (!token) return null;
      const id = sessionDigest(token);
      const row = await db
        .selectFrom("staff_sessions")
        .innerJoin("staff_users", "staff_users.id", "staff_sessions.staff_id")
        .select([
          "staff_users.id",
          "staff_users.email",
          "staff_users.name",
          "staff_users.role",
          "staff_users.created_at",
          "staff_users.removed_at",
          "staff_sessions.expires_at",
          "staff_sessions.last_seen_at",
        ])
        .where("staff_sessions.id", "=", id)
        .executeTakeFirst();
      if (!row) return null;
      const now = clock.now();
      const idleSince = addMinutes(now, -policy.idleMinutes).toISOString();
      if (row.removed_at !== null || row.expires_at <= now.toISOString() || row.last_seen_at <= idleSince) {
        // Over for good: a later request with the same token finds nothing at all.
        await db.deleteFrom("staff_sessions").where("id", "=", id).execute();
        return null;
      }
      await db.updateTable("staff_sessions").set({ last_seen_at: now.toISOString() }).where("id", "=", id).execute();
      return { staff: toMember(row), expiresAt: row.expires_at };
    },

    async signOut(token) {
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        const ended = await trx
          .deleteFrom("staff_sessions")
          .where("id", "=", sessionDigest(token))
          .returning("staff_id")
          .executeTakeFirst();
        if (ended) await writeStaffAudit(trx, now, { staffId: ended.staff_id, action: "signOut" });
      });
    },

    async record(entry) {
      await writeStaffAudit(db, clock.now(), entry);
    },

    auditFor(filter) {
      return readStaffAudit(db, filter);
    },
  };
}
