import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { hashPassword, needsRehash, verifyPassword } from "~/use-cases/passwords.server";
import { createAuth, DEFAULT_AUTH_POLICY, type AuthService } from "~/use-cases/auth.server";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";
import { registerCustomer } from "../support/customers";

// Cheap scrypt for the suite's many hashes; the production cost is checked on its own below.
const POLICY = { ...DEFAULT_AUTH_POLICY, passwordCost: { N: 1024, r: 8, p: 1 } };
const NOW = "2026-11-23T12:00:00.000Z";
const JO = { email: "Jo.Bloggs@Example.com", password: "correct horse", firstName: "Jo", lastName: "Bloggs" };

describe("passwords", () => {
  it("hashes with scrypt at the production cost, salted, and verifies only the right password", async () => {
    const one = await hashPassword("correct horse");
    const two = await hashPassword("correct horse");
    expect(one).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(one).not.toBe(two);
    expect(one).not.toContain("correct horse");
    expect(await verifyPassword("correct horse", one)).toBe(true);
    expect(await verifyPassword("correct horsf", one)).toBe(false);
    expect(await verifyPassword("correct horse", "plain text")).toBe(false);
    expect(needsRehash(one)).toBe(false);
    expect(needsRehash(await hashPassword("x", { N: 1024, r: 8, p: 1 }))).toBe(true);
  });
});

describe.each(DIALECTS)("the auth service on %s", (dialect) => {
  let store: TestStore;
  let auth: AuthService;
  const clock = fixedClock(NOW);

  beforeEach(async () => {
    clock.set(NOW);
    store = await createTestStore(dialect);
    auth = createAuth(store, clock, POLICY);
  });
  afterEach(() => store.drop());

  const register = (values: Partial<typeof JO & { address: string }> = {}) =>
    registerCustomer(auth, { ...JO, address: "10.0.0.1", ...values });
  const ask = (values: Partial<typeof JO & { address: string; orderId: string; returnTo: string }> = {}) =>
    auth.requestSignUp({ ...JO, address: "10.0.0.1", ...values });
  /** The token of a new address's link (the emailed link's last part). */
  async function linkToken(values: Parameters<typeof ask>[0] = {}) {
    const asked = await ask(values);
    if (!asked.ok || asked.kind !== "link") throw new Error(`no link: ${JSON.stringify(asked)}`);
    return asked.token;
  }
  const signIn = (password: string, address = "10.0.0.2", email = JO.email) =>
    auth.signIn({ email, password, address });

  it("asking for an account creates nothing; the emailed link creates it once, signed in; the store keeps only hashes", async () => {
    const asked = await ask();
    if (!asked.ok || asked.kind !== "link") throw new Error("no link");
    expect(asked).toMatchObject({ email: JO.email, expiresAt: "2026-11-24T12:00:00.000Z" });
    // 32 random bytes: far beyond 128 bits, and nothing in the store to read it back from.
    expect(Buffer.from(asked.token, "base64url")).toHaveLength(32);
    expect(await store.db.selectFrom("customers").selectAll().execute()).toEqual([]);
    const stored = await store.db.selectFrom("sign_up_links").selectAll().executeTakeFirstOrThrow();
    expect(stored.id).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(asked.token);
    expect(await auth.signUpLink(asked.token)).toEqual({ email: JO.email });
    expect(await signIn(JO.password)).toEqual({ ok: false, reason: "invalid" });

    const made = await auth.completeSignUp({ token: asked.token, password: JO.password });
    if (!made.ok) throw new Error(made.reason);
    expect(made.customer).toMatchObject({ email: "Jo.Bloggs@Example.com", firstName: "Jo", lastName: "Bloggs" });
    expect(await auth.customer(made.token)).toMatchObject({ id: made.customer.id });
    const customer = await store.db.selectFrom("customers").selectAll().executeTakeFirstOrThrow();
    expect(customer.password_hash).toMatch(/^scrypt\$/);
    // The store keeps only the session token's hash.
    const session = await store.db.selectFrom("auth_sessions").selectAll().executeTakeFirstOrThrow();
    expect(session.id).not.toBe(made.token);
    expect(session.id).toMatch(/^[0-9a-f]{64}$/);

    // Once: a second use, even with another password, creates nothing and changes nothing.
    expect(await auth.completeSignUp({ token: asked.token, password: "another password" })).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await auth.signUpLink(asked.token)).toBeNull();
    expect(await signIn("another password")).toEqual({ ok: false, reason: "invalid" });
    expect(await signIn(JO.password)).toMatchObject({ ok: true });
  });

  it("an email with an account gets no link, whatever its case and spaces: its owner is to be told instead", async () => {
    const made = await register();
    const again = await ask({ email: "  jo.bloggs@example.COM ", address: "10.0.0.2" });
    expect(again).toEqual({ ok: true, kind: "known", customer: made.customer });
    expect(await store.db.selectFrom("sign_up_links").select("id").where("used_at", "is", null).execute()).toEqual([]);
  });

  it("a link expires after its hours", async () => {
    const token = await linkToken();
    clock.advance(POLICY.signUpHours * 60 * 60_000 - 1);
    expect(await auth.signUpLink(token)).toEqual({ email: JO.email });
    clock.advance(1);
    expect(await auth.signUpLink(token)).toBeNull();
    expect(await auth.completeSignUp({ token, password: JO.password })).toEqual({ ok: false, reason: "invalid" });
    expect(await store.db.selectFrom("customers").selectAll().execute()).toEqual([]);
  });

  it("a link is good for creating an account only: a reset's token creates none, and its own resets no password", async () => {
    const made = await register();
    const reset = await auth.requestPasswordReset({ email: JO.email, address: "10.0.0.9" });
    if (!reset || "ok" in reset) throw new Error("no reset link");
    expect(await auth.signUpLink(reset.token)).toBeNull();
    expect(await auth.completeSignUp({ token: reset.token, password: "taken over" })).toEqual({
      ok: false,
      reason: "invalid",
    });
    const signUp = await linkToken({ email: "someone.new@example.com" });
    expect(await auth.resetLinkValid(signUp)).toBe(false);
    expect(await auth.resetPassword({ token: signUp, password: "taken over" })).toEqual({
      ok: false,
      reason: "invalid",
    });
    // A session's token is no link either.
    expect(await auth.completeSignUp({ token: made.token, password: "taken over" })).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await store.db.selectFrom("customers").select("email").execute()).toEqual([{ email: JO.email }]);
  });

  it("of an email's links, the first followed creates the account with every order they were asked from; the rest die", async () => {
    const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];
    const one = await linkToken({ orderId: first, returnTo: "/membership" });
    const two = await linkToken({ email: "JO.BLOGGS@example.com", orderId: second });
    const other = await linkToken({ email: "someone.else@example.com", orderId: third });
    const made = await auth.completeSignUp({ token: two, password: JO.password });
    if (!made.ok) throw new Error(made.reason);
    expect(made.orderIds.sort()).toEqual([first, second].sort());
    expect(made.returnTo).toBeNull();
    expect(made.customer.email).toBe("JO.BLOGGS@example.com");
    expect(await auth.signUpLink(one)).toBeNull();
    expect(await auth.completeSignUp({ token: one, password: "another password" })).toEqual({
      ok: false,
      reason: "invalid",
    });
    const otherMade = await auth.completeSignUp({ token: other, password: JO.password });
    expect(otherMade).toMatchObject({ ok: true, orderIds: [third], returnTo: null });
  });

  it("a link asked for with a return path leads there", async () => {
    const token = await linkToken({ returnTo: "/membership" });
    expect(await auth.completeSignUp({ token, password: JO.password })).toMatchObject({
      ok: true,
      returnTo: "/membership",
    });
  });

  it("signs in with a new session each time, ending the one the browser had; signing out ends it for good", async () => {
    const made = await register();
    const again = await auth.signIn({
      email: "jo.bloggs@example.com",
      password: JO.password,
      address: "10.0.0.2",
      previousToken: made.token,
    });
    if (!again.ok) throw new Error(again.reason);
    expect(again.token).not.toBe(made.token);
    expect(await auth.customer(made.token)).toBeNull();
    expect(await auth.customer(again.token)).toMatchObject({ email: JO.email });
    await auth.signOut(again.token);
    expect(await auth.customer(again.token)).toBeNull();
    expect(await auth.customer("not-a-token")).toBeNull();
    expect(await auth.customer(undefined)).toBeNull();
  });

  it("a session ends after its days", async () => {
    const made = await register();
    clock.advance(POLICY.sessionDays * 24 * 60 * 60_000 - 1);
    expect(await auth.customer(made.token)).not.toBeNull();
    clock.advance(1);
    expect(await auth.customer(made.token)).toBeNull();
  });

  it("a wrong password and an unknown email get the same answer", async () => {
    await register();
    expect(await signIn("wrong password")).toEqual({ ok: false, reason: "invalid" });
    expect(await signIn(JO.password, "10.0.0.3", "nobody@example.com")).toEqual({ ok: false, reason: "invalid" });
  });

  it("20 wrong passwords in a row are slowed, then refused for a while, even the right one; the same for an email with no account", async () => {
    await register();
    const answers = [];
    for (let attempt = 0; attempt < 20; attempt += 1) {
      // From a new address each time: the account's own count is what stops them.
      answers.push((await signIn("wrong password", `10.1.0.${attempt}`)).ok === false ? "refused" : "in");
      clock.advance(60_000);
    }
    expect(answers.every((answer) => answer === "refused")).toBe(true);
    const refused = await signIn(JO.password, "10.2.0.1");
    expect(refused).toMatchObject({ ok: false, reason: "throttled" });
    clock.advance(POLICY.signInThrottle.lockMinutes * 60_000);
    expect(await signIn(JO.password, "10.2.0.2")).toMatchObject({ ok: true });

    for (let attempt = 0; attempt < 20; attempt += 1) await signIn("wrong", `10.3.0.${attempt}`, "ghost@example.com");
    expect(await signIn("wrong", "10.4.0.1", "ghost@example.com")).toMatchObject({ ok: false, reason: "throttled" });
  });

  it("after a few failures the next try must wait, and the wait grows", async () => {
    await register();
    const { freeFailures } = POLICY.signInThrottle;
    for (let attempt = 0; attempt < freeFailures; attempt += 1)
      expect(await signIn("wrong", `10.5.0.${attempt}`)).toEqual({ ok: false, reason: "invalid" });
    expect(await signIn("wrong", "10.5.1.0")).toEqual({ ok: false, reason: "invalid" });
    // The next one, at once, is refused without looking at the password, and counts: the wait grows.
    const early = await signIn(JO.password, "10.5.1.1");
    expect(early).toMatchObject({ ok: false, reason: "throttled" });
    const retryAt = Date.parse((early as { retryAt: string }).retryAt);
    expect(retryAt - clock.now().getTime()).toBe(2 * POLICY.signInThrottle.baseDelayMs);
    clock.set(new Date(retryAt));
    expect(await signIn(JO.password, "10.5.1.2")).toMatchObject({ ok: true });
    // The right password forgets the account's failures.
    expect(await signIn("wrong", "10.5.2.0")).toEqual({ ok: false, reason: "invalid" });
  });

  it("twenty quick tries lock the account as surely as patient ones: tries during a wait count", async () => {
    await register();
    for (let attempt = 0; attempt < 20; attempt += 1) await signIn("wrong", `10.6.0.${attempt}`);
    const refused = await signIn(JO.password, "10.6.1.0");
    expect(refused).toMatchObject({ ok: false, reason: "throttled" });
    const retryAt = Date.parse((refused as { retryAt: string }).retryAt);
    expect(retryAt - clock.now().getTime()).toBe(POLICY.signInThrottle.lockMinutes * 60_000);
  });

  it("wrong passwords sent at the same moment get no more tries than patient ones: each is counted before the next is checked", async () => {
    await register();
    const { freeFailures } = POLICY.signInThrottle;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, attempt) => signIn("wrong", `10.6.2.${attempt}`)));
    const checked = answers.filter((answer) => !answer.ok && answer.reason === "invalid").length;
    // The free tries and the one that starts the first wait; the rest are refused unread.
    expect(checked).toBe(freeFailures + 1);
    expect(answers.filter((answer) => !answer.ok && answer.reason === "throttled")).toHaveLength(20 - checked);
  });

  it("one address trying many accounts is refused too", async () => {
    for (let attempt = 0; attempt < POLICY.signInThrottle.lockAfter; attempt += 1) {
      await signIn("wrong", "10.9.9.9", `someone${attempt}@example.com`);
      clock.advance(60_000);
    }
    expect(await signIn("wrong", "10.9.9.9", "another@example.com")).toMatchObject({ ok: false, reason: "throttled" });
  });

  it("a reset link works once, before it expires, signs out every session and signs in afresh", async () => {
    const made = await register();
    expect(await auth.requestPasswordReset({ email: "nobody@example.com", address: "10.0.0.9" })).toBeNull();
    const link = await auth.requestPasswordReset({ email: "JO.BLOGGS@example.com", address: "10.0.0.9" });
    if (!link || "ok" in link) throw new Error("no link");
    expect(link.expiresAt).toBe("2026-11-23T13:00:00.000Z");
    expect(await auth.resetLinkValid(link.token)).toBe(true);

    const reset = await auth.resetPassword({ token: link.token, password: "a new password" });
    if (!reset.ok) throw new Error(reset.reason);
    expect(await auth.customer(made.token)).toBeNull();
    expect(await auth.customer(reset.token)).toMatchObject({ id: made.customer.id });
    expect(await auth.resetPassword({ token: link.token, password: "another one" })).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await auth.resetLinkValid(link.token)).toBe(false);
    expect(await signIn(JO.password)).toEqual({ ok: false, reason: "invalid" });
    expect(await signIn("a new password")).toMatchObject({ ok: true });

    const late = await auth.requestPasswordReset({ email: JO.email, address: "10.0.0.9" });
    if (!late || "ok" in late) throw new Error("no link");
    clock.advance(POLICY.resetMinutes * 60_000);
    expect(await auth.resetLinkValid(late.token)).toBe(false);
    expect(await auth.resetPassword({ token: late.token, password: "too late now" })).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("a newer reset leaves older links usable until one is used; then all die", async () => {
    await register();
    const first = await auth.requestPasswordReset({ email: JO.email, address: "10.0.0.9" });
    const second = await auth.requestPasswordReset({ email: JO.email, address: "10.0.0.9" });
    if (!first || "ok" in first || !second || "ok" in second) throw new Error("no link");
    expect(await auth.resetPassword({ token: second.token, password: "a new password" })).toMatchObject({ ok: true });
    expect(await auth.resetLinkValid(first.token)).toBe(false);
  });

  /** Makes `count` attempts that the throttle lets through, waiting out each short delay as a patient guesser would. */
  async function persist(count: number, attempt: () => Promise<unknown>) {
    for (let made = 0; made < count; ) {
      const result = (await attempt()) as { reason?: string; retryAt?: string } | null;
      if (result?.reason === "throttled") clock.set(result.retryAt!);
      else made += 1;
    }
  }

  it("one inbox gets only so many emails an hour, however many addresses ask; the askers are answered as ever", async () => {
    // Its first free emails and one more go at once (registering sent the first); then a wait.
    const { freeFailures } = POLICY.mailboxThrottle;
    await register();
    const asked = [];
    for (let n = 0; n < freeFailures + 2; n += 1) asked.push(await ask({ address: `10.9.0.${n}` }));
    expect(asked.map((answer) => (answer.ok ? answer.kind : answer.reason))).toEqual([
      ...Array<string>(freeFailures).fill("known"),
      "quiet",
      "quiet",
    ]);
    // Resets count towards the same inbox: answered as for an email with no account.
    expect(await auth.requestPasswordReset({ email: JO.email, address: "10.9.1.1" })).toBeNull();
    // A new address's link is held back the same way, and other inboxes are not touched.
    for (let n = 0; n <= freeFailures; n += 1)
      expect(await ask({ email: "new@example.com", address: `10.9.2.${n}` })).toMatchObject({ kind: "link" });
    expect(await ask({ email: "New@Example.com ", address: "10.9.3.1" })).toEqual({ ok: true, kind: "quiet" });
    expect(await ask({ email: "other@example.com", address: "10.9.3.2" })).toMatchObject({ kind: "link" });
    // An hour on, the inbox may be written to again.
    clock.advance(POLICY.mailboxThrottle.lockMinutes * 60_000);
    expect(await auth.requestPasswordReset({ email: JO.email, address: "10.9.1.2" })).toMatchObject({
      customer: { email: JO.email },
    });
  });

  it("many reset requests or registrations from one address are refused for a while", async () => {
    const { lockAfter, lockMinutes } = POLICY.requestThrottle;
    let n = 0;
    await persist(lockAfter, () =>
      auth.requestPasswordReset({ email: `x${(n += 1)}@example.com`, address: "10.7.7.7" }),
    );
    const refused = await auth.requestPasswordReset({ email: JO.email, address: "10.7.7.7" });
    expect(refused).toMatchObject({ ok: false, reason: "throttled" });
    expect(Date.parse((refused as { retryAt: string }).retryAt) - clock.now().getTime()).toBe(lockMinutes * 60_000);

    // Every request for an account counts, known email or not: the count tells no one which.
    await register();
    const signUp = POLICY.signUpThrottle;
    let m = 0;
    await persist(signUp.lockAfter, () =>
      ask({ email: m % 2 ? JO.email : `new${(m += 1)}@example.com`, address: "10.8.8.8" }),
    );
    const tooMany = await ask({ email: "new@example.com", address: "10.8.8.8" });
    expect(tooMany).toMatchObject({ ok: false, reason: "throttled" });
    expect(Date.parse((tooMany as { retryAt: string }).retryAt) - clock.now().getTime()).toBe(
      signUp.lockMinutes * 60_000,
    );
  });
});
