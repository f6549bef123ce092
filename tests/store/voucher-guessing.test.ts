import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { createVouchers, maskVoucherNumber, type VoucherLookup } from "~/ticketing/vouchers.server";
import { insertVoucher } from "../support/money";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// Guessing a gift card's code (issue 53, decision 0054): wrong codes count against the card number
// whoever sends them, so a client that rotates baskets, sessions and addresses gets no more tries;
// guesses sent at once are taken one at a time; a number no card has answers exactly as a card's
// does; the box office sees and lifts a lock.

const NOW = "2026-12-07T12:00:00.000Z";
const DAY = 24 * 60 * 60_000;

describe.each(DIALECTS)("guessing voucher codes on %s", (dialect) => {
  let store: TestStore;
  const clock = fixedClock(NOW);
  let askers = 0;
  /** Someone new each time: another address, basket and session. */
  const stranger = () => {
    askers += 1;
    return { address: `203.0.113.${askers}`, others: [`basket:b-${askers}`, `visitor:v-${askers}`] };
  };

  beforeAll(async () => {
    store = await createTestStore(dialect, 25);
    const card = (number: string, redemptionCode: string) =>
      insertVoucher(store, {
        number,
        redemptionCode,
        kind: "giftCard",
        currency: "USD",
        balance: 10_000,
        expires_at: "2030-01-01T00:00:00.000Z",
      });
    await card("GC3000000001", "4821");
    await card("GC3000000002", "1234");
    await card("GC3000000003", "5555");
    await card("GC3000000004", "7777");
  });
  afterAll(() => store.drop());
  beforeEach(() => clock.set(NOW));

  it("rotating baskets, sessions and addresses does not reset a card number's count: the fifth wrong code locks it for 30 days", async () => {
    const vouchers = createVouchers(store, clock);
    const answers: VoucherLookup[] = [];
    for (const code of ["0000", "0001", "0002", "0003"]) {
      answers.push(await vouchers.lookup("GC3000000001", code, "USD", stranger()));
      clock.advance(6_000);
    }
    answers.push(await vouchers.lookup("gc30-0000-0001", "0004", "USD", stranger()));
    expect(answers).toEqual(Array.from({ length: 5 }, () => ({ ok: false, reason: "invalid" })));
    // Now even the right code, from someone new, is refused: for 30 days.
    const lockedUntil = new Date(clock.now().getTime() + 30 * DAY).toISOString();
    expect(await vouchers.lookup("GC3000000001", "4821", "USD", stranger())).toEqual({
      ok: false,
      reason: "tooManyAttempts",
      retryAt: lockedUntil,
    });
    clock.advance(29 * DAY);
    expect(await vouchers.lookup("GC3000000001", "4821", "USD", stranger())).toMatchObject({
      reason: "tooManyAttempts",
    });
    // Lifted by time, one wrong code locks it again at once.
    clock.advance(DAY + 1);
    expect(await vouchers.lookup("GC3000000001", "0005", "USD", stranger())).toEqual({ ok: false, reason: "invalid" });
    expect(await vouchers.lookup("GC3000000001", "4821", "USD", stranger())).toMatchObject({
      reason: "tooManyAttempts",
    });
  });

  it("guesses sent all at once are counted all the same: four are checked, then the wait refuses the rest", async () => {
    const vouchers = createVouchers(store, clock);
    const codes = Array.from({ length: 20 }, (_, index) => String(9000 + index));
    const answers = await Promise.all(codes.map((code) => vouchers.lookup("GC3000000002", code, "USD", stranger())));
    expect(answers.filter((answer) => answer.ok === false && answer.reason === "invalid")).toHaveLength(4);
    expect(answers.filter((answer) => answer.ok === false && answer.reason === "tooManyAttempts")).toHaveLength(16);
    expect(await vouchers.lookup("GC3000000002", "1234", "USD", stranger())).toMatchObject({
      reason: "tooManyAttempts",
    });
  });

  it("right codes sent at once (a voucher shared by a family) are all accepted, none taken for a wrong one", async () => {
    const vouchers = createVouchers(store, clock);
    const shared = await insertVoucher(store, {
      number: "GC3000000005",
      redemptionCode: "2468",
      kind: "giftCard",
      currency: "USD",
    });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => vouchers.lookup("GC3000000005", "2468", "USD", stranger())),
    );
    expect(answers.map((answer) => answer.ok && answer.voucher.id)).toEqual(Array.from({ length: 8 }, () => shared));
  });

  it("a number no card has answers as a card's number does, wrong code for wrong code, lock for lock", async () => {
    const vouchers = createVouchers(store, clock);
    const tries = async (number: string) => {
      clock.set(NOW);
      const seen: VoucherLookup[] = [];
      for (const code of ["1111", "2222", "3333", "4444", "6666", "5555"]) {
        seen.push(await vouchers.lookup(number, code, "USD", stranger()));
        clock.advance(6_000);
      }
      return seen;
    };
    const card = await tries("GC3000000003");
    const noCard = await tries("GC3999999999");
    expect(noCard).toEqual(card);
    // The sixth try, the card's right code, meets the lock like any other.
    expect(card.at(-1)).toMatchObject({ reason: "tooManyAttempts" });
    expect(card.slice(0, 5).every((answer) => !answer.ok && answer.reason === "invalid")).toBe(true);
  });

  it("the box office sees the locked numbers, masked, and lifts a lock; the right code then works", async () => {
    const vouchers = createVouchers(store, clock);
    for (const code of ["0000", "0001", "0002", "0003", "0004"]) {
      await vouchers.lookup("GC3000000004", code, "USD", stranger());
      clock.advance(10_000);
    }
    await vouchers.lookup("NOSUCHCARD77", "0000", "USD", stranger());
    const locked = await vouchers.lockedNumbers();
    expect(locked).toContainEqual({
      number: "GC3000000004",
      issued: true,
      failures: 5,
      lockedUntil: new Date(clock.now().getTime() - 10_000 + 30 * DAY).toISOString(),
    });
    // One wrong code is not a lock: not listed.
    expect(locked.map((entry) => entry.number)).not.toContain("NOSUCHCARD77");
    expect(maskVoucherNumber("GC3000000004")).toBe("********0004");

    expect(await vouchers.lookup("GC3000000004", "7777", "USD", stranger())).toMatchObject({
      reason: "tooManyAttempts",
    });
    expect(await vouchers.unlockNumber("gc30 0000 0004")).toBe(5);
    expect((await vouchers.lockedNumbers()).map((entry) => entry.number)).not.toContain("GC3000000004");
    expect(await vouchers.lookup("GC3000000004", "7777", "USD", stranger())).toMatchObject({
      ok: true,
      voucher: { number: "GC3000000004" },
    });
    expect(await vouchers.unlockNumber("GC3000000004")).toBe(0);
  });

  it("one address is limited across numbers: ten wrong ones lock it out for 30 minutes, whatever the number", async () => {
    const vouchers = createVouchers(store, clock);
    const address = "198.51.100.7";
    // A new basket and session each time: only the address is the same.
    const fromThere = (index: number) => ({ address, others: [`basket:x-${index}`, `visitor:x-${index}`] });
    for (let index = 1; index <= 10; index += 1) {
      const number = `GC40000000${String(index).padStart(2, "0")}`;
      expect(await vouchers.lookup(number, "0000", "USD", fromThere(index))).toEqual({ ok: false, reason: "invalid" });
      clock.advance(6 * 60_000);
    }
    expect(await vouchers.lookup("GC3000000004", "7777", "USD", fromThere(11))).toMatchObject({
      reason: "tooManyAttempts",
    });
    // Not counted against the card whose number it tried while refused.
    expect((await vouchers.lockedNumbers()).map((entry) => entry.number)).not.toContain("GC3000000004");
    clock.advance(30 * 60_000);
    expect(await vouchers.lookup("GC3000000004", "7777", "USD", fromThere(12))).toMatchObject({ ok: true });
  });
});
