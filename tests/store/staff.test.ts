import { sql } from "kysely";
import { Secret, TOTP } from "otpauth";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import type { StaffRole } from "~/ticketing/staff-roles";
import { createAuth, DEFAULT_AUTH_POLICY } from "~/use-cases/auth.server";
import { createStaff, DEFAULT_STAFF_POLICY, type StaffService } from "~/use-cases/staff.server";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// The venue's staff (decision 0059): accounts, sign-in by password and, but for the door, a
// one-time code accepted once; sessions that end by idleness, by age and by removal; and an audit
// log the database itself will not let anyone edit.

// Cheap scrypt for the suite's many hashes; the production cost is the buyers' (tests/store/auth.test.ts).
const POLICY = { ...DEFAULT_STAFF_POLICY, passwordCost: { N: 1024, r: 8, p: 1 } };
// On a step's first second: a code of this step stays right for 30 s.
const NOW = "2026-12-07T18:00:00.000Z";
const STEP_MS = 30_000;
const PASSWORD = "a long enough passphrase";

/** The code an authenticator app would show for `secret`, `steps` steps from the clock's time. */
function codeFor(secret: string, at: Date, steps = 0): string {
  const app = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
  return app.generate({ timestamp: at.getTime() + steps * STEP_MS });
}

/** A six-digit code that is not right for any step from two before to two after. */
function wrongCodeFor(secret: string, at: Date): string {
  const near = new Set([-2, -1, 0, 1, 2].map((steps) => codeFor(secret, at, steps)));
  for (let candidate = 0; ; candidate += 1) {
    const code = String(candidate).padStart(6, "0");
    if (!near.has(code)) return code;
  }
}

describe.each(DIALECTS)("the staff service on %s", (dialect) => {
  let store: TestStore;
  let staff: StaffService;
  const clock = fixedClock(NOW);

  beforeEach(async () => {
    clock.set(NOW);
    store = await createTestStore(dialect);
    staff = createStaff(store, clock, POLICY);
  });
  afterEach(() => store.drop());

  async function add(email: string, role: StaffRole, name = "Jo Bloggs") {
    const added = await staff.add({ email, name, role, password: PASSWORD });
    if (!added.ok) throw new Error(added.reason);
    return added;
  }
  const signIn = (email: string, password = PASSWORD, code: string | null = null, address = "10.0.0.1") =>
    staff.signIn({ email, password, code, address });
  /** Signs a box-office (or manager) member in with the code of the clock's step. */
  async function signInWithCode(email: string, secret: string) {
    const answer = await signIn(email, PASSWORD, codeFor(secret, clock.now()));
    if (!answer.ok) throw new Error(answer.reason);
    return answer;
  }

  it("adds, lists and removes staff; the email is kept lower-cased; the command line is the actor in the audit", async () => {
    const jo = await add("  Jo.Bloggs@Example.com ", "boxOffice");
    expect(jo.staff).toMatchObject({ email: "jo.bloggs@example.com", name: "Jo Bloggs", role: "boxOffice" });
    // 20 random bytes, base32: what an authenticator app is given, by address or typed in.
    expect(jo.secondFactor!.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(jo.secondFactor!.uri);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.searchParams.get("secret")).toBe(jo.secondFactor!.secret);
    expect(uri.searchParams.get("issuer")).toBe("Box office");
    expect(uri.searchParams.get("digits")).toBe("6");
    expect(uri.searchParams.get("period")).toBe("30");
    expect(decodeURIComponent(uri.pathname)).toContain("jo.bloggs@example.com");

    const door = await add("sam@example.com", "door", "Sam Door");
    expect(door.secondFactor).toBeNull();
    const boss = await add("ann@example.com", "manager", "Ann Manager");
    expect(boss.secondFactor).not.toBeNull();

    const rows = await store.db.selectFrom("staff_users").selectAll().orderBy("email").execute();
    expect(rows.map((row) => [row.email, row.role, row.totp_secret !== null])).toEqual([
      ["ann@example.com", "manager", true],
      ["jo.bloggs@example.com", "boxOffice", true],
      ["sam@example.com", "door", false],
    ]);
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^scrypt\$/);
      expect(row.password_hash).not.toContain(PASSWORD);
    }
    expect((await staff.list()).map((member) => member.name)).toEqual(["Ann Manager", "Jo Bloggs", "Sam Door"]);

    expect(await staff.remove({ email: "JO.BLOGGS@example.com" })).toMatchObject({
      ok: true,
      staff: { id: jo.staff.id },
    });
    expect((await staff.list()).map((member) => member.email)).toEqual(["ann@example.com", "sam@example.com"]);
    expect(await staff.remove({ email: "jo.bloggs@example.com" })).toEqual({ ok: false, reason: "unknown" });
    // Someone who left and came back is a new member; the old row still names what they did.
    const back = await add("jo.bloggs@example.com", "door");
    expect(back.staff.id).not.toBe(jo.staff.id);

    const audit = await staff.auditFor({});
    expect(audit.map((entry) => [entry.action, entry.staffId, entry.detail.email])).toEqual([
      ["staffAdded", null, "jo.bloggs@example.com"],
      ["staffAdded", null, "sam@example.com"],
      ["staffAdded", null, "ann@example.com"],
      ["staffRemoved", null, "jo.bloggs@example.com"],
      ["staffAdded", null, "jo.bloggs@example.com"],
    ]);
  });

  it("refuses a duplicate email, a short password, a bad email and an empty name, and adds nothing", async () => {
    await add("jo@example.com", "door");
    const attempt = (values: Partial<{ email: string; name: string; password: string }>) =>
      staff.add({ email: "new@example.com", name: "New", role: "boxOffice", password: PASSWORD, ...values });
    expect(await attempt({ email: " JO@example.COM" })).toEqual({ ok: false, reason: "duplicateEmail" });
    expect(await attempt({ password: "eleven char" })).toEqual({ ok: false, reason: "weakPassword" });
    expect(await attempt({ email: "not an email" })).toEqual({ ok: false, reason: "invalidEmail" });
    expect(await attempt({ name: "   " })).toEqual({ ok: false, reason: "nameMissing" });
    expect(await attempt({ password: "twelve chars" })).toMatchObject({ ok: true });
    expect((await staff.list()).map((member) => member.email)).toEqual(["jo@example.com", "new@example.com"]);
  });

  it("the door signs in with the password alone; a wrong password and an unknown email are refused alike", async () => {
    const door = await add("sam@example.com", "door", "Sam Door");
    const signedIn = await signIn("SAM@example.com");
    if (!signedIn.ok) throw new Error(signedIn.reason);
    expect(signedIn.staff).toEqual(door.staff);
    expect(signedIn.expiresAt).toBe("2026-12-08T06:00:00.000Z");
    expect(await staff.session(signedIn.token)).toEqual({ staff: door.staff, expiresAt: signedIn.expiresAt });
    expect(await signIn("sam@example.com", "a wrong passphrase")).toEqual({ ok: false, reason: "invalid" });
    expect(await signIn("nobody@example.com")).toEqual({ ok: false, reason: "invalid" });
    // The store keeps only the token's hash.
    const session = await store.db.selectFrom("staff_sessions").selectAll().executeTakeFirstOrThrow();
    expect(session.id).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(session)).not.toContain(signedIn.token);
  });

  it("box office must give a right code: asked for it only after the right password, refused when wrong, accepted once", async () => {
    const jo = await add("jo@example.com", "boxOffice");
    const secret = jo.secondFactor!.secret;
    expect(await signIn("jo@example.com")).toEqual({ ok: false, reason: "codeNeeded" });
    // A wrong password is not told apart from a missing code's, nor is a wrong code's.
    expect(await signIn("jo@example.com", "a wrong passphrase")).toEqual({ ok: false, reason: "invalid" });
    expect(await signIn("jo@example.com", "a wrong passphrase", codeFor(secret, clock.now()))).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await signIn("jo@example.com", PASSWORD, wrongCodeFor(secret, clock.now()))).toEqual({
      ok: false,
      reason: "invalid",
    });
    const code = codeFor(secret, clock.now());
    // As the app shows it, "123 456".
    const signedIn = await signIn("jo@example.com", PASSWORD, `${code.slice(0, 3)} ${code.slice(3)}`);
    expect(signedIn).toMatchObject({ ok: true, staff: { id: jo.staff.id, role: "boxOffice" } });
    // Seen over a shoulder: the same code, within its 30 s, signs no one in again.
    clock.advance(10_000);
    expect(await signIn("jo@example.com", PASSWORD, code)).toEqual({ ok: false, reason: "invalid" });
    // Nor does the step before it, though the window would take it.
    expect(await signIn("jo@example.com", PASSWORD, codeFor(secret, clock.now(), -1))).toEqual({
      ok: false,
      reason: "invalid",
    });
    // The next step's code works, once.
    clock.advance(STEP_MS);
    const next = codeFor(secret, clock.now());
    expect(await signIn("jo@example.com", PASSWORD, next)).toMatchObject({ ok: true });
    expect(await signIn("jo@example.com", PASSWORD, next)).toEqual({ ok: false, reason: "invalid" });
  });

  it("takes a code one step either side of the clock's, for a phone a little fast or slow, but not two", async () => {
    const ann = await add("ann@example.com", "manager");
    const secret = ann.secondFactor!.secret;
    expect(await signIn("ann@example.com", PASSWORD, codeFor(secret, clock.now(), 2))).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await signIn("ann@example.com", PASSWORD, codeFor(secret, clock.now(), 1))).toMatchObject({ ok: true });
    // That was the next step's code: until that step has passed, this step's is a replay too.
    expect(await signIn("ann@example.com", PASSWORD, codeFor(secret, clock.now()))).toEqual({
      ok: false,
      reason: "invalid",
    });
    clock.advance(3 * STEP_MS);
    expect(await signIn("ann@example.com", PASSWORD, codeFor(secret, clock.now(), -2))).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await signIn("ann@example.com", PASSWORD, codeFor(secret, clock.now(), -1))).toMatchObject({ ok: true });
  });

  it("one code sent twice at the same moment signs in once", async () => {
    const jo = await add("jo@example.com", "boxOffice");
    const code = codeFor(jo.secondFactor!.secret, clock.now());
    const answers = await Promise.all([
      signIn("jo@example.com", PASSWORD, code, "10.0.0.1"),
      signIn("jo@example.com", PASSWORD, code, "10.0.0.2"),
    ]);
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect(answers.filter((answer) => !answer.ok)).toEqual([{ ok: false, reason: "invalid" }]);
  });

  it("wrong passwords are slowed, then refused for a while, even the right one; wrong codes count as well", async () => {
    await add("sam@example.com", "door");
    const { lockAfter, lockMinutes } = POLICY.signInThrottle;
    for (let attempt = 0; attempt < 2 * lockAfter; attempt += 1) {
      // From a new address each time: the account's own count is what stops them.
      expect((await signIn("sam@example.com", "a wrong passphrase", null, `10.1.0.${attempt}`)).ok).toBe(false);
      clock.advance(60_000);
    }
    expect(await signIn("sam@example.com", PASSWORD, null, "10.2.0.1")).toMatchObject({
      ok: false,
      reason: "throttled",
    });
    clock.advance(lockMinutes * 60_000);
    expect(await signIn("sam@example.com", PASSWORD, null, "10.2.0.2")).toMatchObject({ ok: true });

    // The right password with wrong codes: guessing codes is guessing too.
    const jo = await add("jo@example.com", "boxOffice");
    for (let attempt = 0; attempt < 2 * lockAfter; attempt += 1) {
      await signIn("jo@example.com", PASSWORD, wrongCodeFor(jo.secondFactor!.secret, clock.now()), `10.3.0.${attempt}`);
      clock.advance(60_000);
    }
    expect(
      await signIn("jo@example.com", PASSWORD, codeFor(jo.secondFactor!.secret, clock.now()), "10.4.0.1"),
    ).toMatchObject({
      ok: false,
      reason: "throttled",
    });
  });

  it("buyers' wrong passwords from an address do not lock staff out at that address, nor staff's the buyers", async () => {
    await add("sam@example.com", "door");
    const auth = createAuth(store, clock, { ...DEFAULT_AUTH_POLICY, passwordCost: POLICY.passwordCost });
    for (let attempt = 0; attempt < 2 * DEFAULT_AUTH_POLICY.signInThrottle.lockAfter; attempt += 1) {
      await auth.signIn({ email: `buyer${attempt}@example.com`, password: "wrong", address: "10.9.9.9" });
      clock.advance(60_000);
    }
    expect(await auth.signIn({ email: "buyer@example.com", password: "wrong", address: "10.9.9.9" })).toMatchObject({
      reason: "throttled",
    });
    expect(await signIn("sam@example.com", PASSWORD, null, "10.9.9.9")).toMatchObject({ ok: true });
    // And the staff's own count per address: one address trying many staff emails is refused.
    for (let attempt = 0; attempt < POLICY.signInThrottle.lockAfter; attempt += 1) {
      await signIn(`someone${attempt}@example.com`, "wrong", null, "10.8.8.8");
      clock.advance(60_000);
    }
    expect(await signIn("sam@example.com", PASSWORD, null, "10.8.8.8")).toMatchObject({ reason: "throttled" });
  });

  it("a session ends after the idle limit without a request, and each request keeps it going", async () => {
    await add("sam@example.com", "door");
    const { token } = (await signIn("sam@example.com")) as { token: string };
    const idle = POLICY.idleMinutes * 60_000;
    for (let visit = 0; visit < 4; visit += 1) {
      clock.advance(idle - 1);
      expect(await staff.session(token)).toMatchObject({ staff: { email: "sam@example.com" } });
    }
    clock.advance(idle);
    expect(await staff.session(token)).toBeNull();
    // Over for good: coming back does not revive it.
    clock.advance(-idle);
    expect(await staff.session(token)).toBeNull();
    expect(await store.db.selectFrom("staff_sessions").selectAll().execute()).toEqual([]);
  });

  it("a session ends at its absolute end however busy it is, and is shorter than a buyer's", async () => {
    expect(POLICY.sessionHours * 60).toBeLessThan(DEFAULT_AUTH_POLICY.sessionDays * 24 * 60);
    expect(POLICY.idleMinutes).toBeLessThan(POLICY.sessionHours * 60);
    await add("sam@example.com", "door");
    const { token, expiresAt } = (await signIn("sam@example.com")) as { token: string; expiresAt: string };
    const end = Date.parse(NOW) + POLICY.sessionHours * 3_600_000;
    expect(Date.parse(expiresAt)).toBe(end);
    while (clock.now().getTime() + 20 * 60_000 < end) {
      clock.advance(20 * 60_000);
      expect(await staff.session(token)).not.toBeNull();
    }
    clock.set(new Date(end - 1));
    expect(await staff.session(token)).not.toBeNull();
    clock.set(new Date(end));
    expect(await staff.session(token)).toBeNull();
  });

  it("signing out ends the session; a removed member's sessions end and they cannot sign in", async () => {
    const door = await add("sam@example.com", "door", "Sam Door");
    const first = (await signIn("sam@example.com")) as { token: string };
    const second = (await signIn("sam@example.com", PASSWORD, null, "10.0.0.2")) as { token: string };
    await staff.signOut(first.token);
    expect(await staff.session(first.token)).toBeNull();
    expect(await staff.session(second.token)).not.toBeNull();

    await staff.remove({ email: "sam@example.com" });
    expect(await staff.session(second.token)).toBeNull();
    expect(await signIn("sam@example.com")).toEqual({ ok: false, reason: "invalid" });

    // Should a session's row outlive the removal (written by a sign-in racing it), it signs no one in.
    const jo = await add("jo@example.com", "boxOffice");
    const third = await signInWithCode("jo@example.com", jo.secondFactor!.secret);
    await store.db
      .updateTable("staff_users")
      .set({ removed_at: clock.now().toISOString() })
      .where("id", "=", jo.staff.id)
      .execute();
    expect(await staff.session(third.token)).toBeNull();

    const audit = await staff.auditFor({ staffId: door.staff.id });
    expect(audit.map((entry) => entry.action)).toEqual(["signIn", "signIn", "signOut"]);
    expect(audit[0]).toMatchObject({ staffName: "Sam Door", detail: { address: "10.0.0.1" } });
  });

  it("a staff token is looked up among staff sessions only: a buyer's signs in no one, and a staff one no buyer", async () => {
    await add("sam@example.com", "door");
    const { token } = (await signIn("sam@example.com")) as { token: string };
    const auth = createAuth(store, clock, { ...DEFAULT_AUTH_POLICY, passwordCost: POLICY.passwordCost });
    expect(await auth.customer(token)).toBeNull();
    expect(await staff.session("not-a-token")).toBeNull();
    expect(await staff.session("")).toBeNull();
    expect(await staff.session(null)).toBeNull();
  });

  it("records entries and reads them by order and by member, oldest first", async () => {
    const jo = await add("jo@example.com", "boxOffice", "Jo Bloggs");
    const sam = await add("sam@example.com", "door", "Sam Door");
    await staff.record({ staffId: sam.staff.id, action: "checkIn", orderId: "order-1", performanceId: "perf-1" });
    clock.advance(1_000);
    await staff.record({
      staffId: jo.staff.id,
      action: "refund",
      orderId: "order-1",
      detail: { tickets: ["T1"], amount: 2_500 },
    });
    await staff.record({ staffId: jo.staff.id, action: "resendEmail", orderId: "order-2" });

    expect(await staff.auditFor({ orderId: "order-1" })).toEqual([
      {
        id: expect.any(Number),
        at: NOW,
        staffId: sam.staff.id,
        staffName: "Sam Door",
        action: "checkIn",
        orderId: "order-1",
        // No order by that id: the log keeps what it was told, and has no number to show.
        orderNumber: null,
        performanceId: "perf-1",
        detail: {},
      },
      {
        id: expect.any(Number),
        at: "2026-12-07T18:00:01.000Z",
        staffId: jo.staff.id,
        staffName: "Jo Bloggs",
        action: "refund",
        orderId: "order-1",
        orderNumber: null,
        performanceId: null,
        detail: { tickets: ["T1"], amount: 2_500 },
      },
    ]);
    expect((await staff.auditFor({ staffId: jo.staff.id })).map((entry) => [entry.action, entry.orderId])).toEqual([
      ["refund", "order-1"],
      ["resendEmail", "order-2"],
    ]);
    expect(await staff.auditFor({ staffId: jo.staff.id, orderId: "order-2" })).toHaveLength(1);
    // The newest first, as the audit log's page asks.
    expect((await staff.auditFor({ newest: 2 })).map((entry) => entry.action)).toEqual(["resendEmail", "refund"]);
  });

  it("the database refuses to change or delete an audit entry, whoever asks", async () => {
    const sam = await add("sam@example.com", "door");
    await staff.record({ staffId: sam.staff.id, action: "checkIn", orderId: "order-1" });
    const before = await store.db.selectFrom("staff_audit").selectAll().orderBy("id").execute();
    expect(before).toHaveLength(2);

    await expect(store.db.updateTable("staff_audit").set({ action: "nothing" }).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(
      store.db.updateTable("staff_audit").set({ order_id: "order-2" }).where("order_id", "=", "order-1").execute(),
    ).rejects.toThrow(/append-only/);
    await expect(store.db.deleteFrom("staff_audit").execute()).rejects.toThrow(/append-only/);
    await expect(sql`delete from staff_audit where order_id = 'order-1'`.execute(store.db)).rejects.toThrow(
      /append-only/,
    );
    if (dialect === "postgres")
      await expect(sql`truncate staff_audit`.execute(store.db)).rejects.toThrow(/append-only/);
    expect(await store.db.selectFrom("staff_audit").selectAll().orderBy("id").execute()).toEqual(before);
    // Writing goes on.
    await staff.record({ staffId: null, action: "staffRemoved" });
    expect(await store.db.selectFrom("staff_audit").selectAll().execute()).toHaveLength(3);
  });
});
