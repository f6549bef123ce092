import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock, systemClock } from "~/clock";
import { createVouchers } from "~/ticketing/vouchers.server";
import { testServices } from "../support/app";
import { runCommand } from "../support/command";
import { insertVoucher } from "../support/money";

// `npm run vouchers` as the box office runs it: a process of its own over the site's SQLite file,
// with nothing but the data folder (no secrets), listing the card numbers wrong codes have locked
// and lifting a lock, with its exit codes (0 done or nothing to do, 2 bad usage).

const run = (dataDir: string, args: string[]) => runCommand("vouchers", args, { DATA_DIR: dataDir });

describe("the vouchers command", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "box-office-vouchers-"));
  /** The right code to the card, as the site would answer it now. */
  let redeem: () => Promise<{ ok: boolean; reason?: string }>;

  beforeAll(async () => {
    // A $100 gift card whose number five strangers have tried wrong codes on, and a number no card has.
    const services = await testServices({ DATA_DIR: dataDir });
    try {
      await insertVoucher(services.store, {
        number: "601500001111",
        redemptionCode: "6627",
        kind: "giftCard",
        currency: "USD",
        balance: 10_000,
      });
      // The guesses a few seconds apart, as the fourth's wait asks.
      const clock = fixedClock(new Date().toISOString());
      const vouchers = createVouchers(services.store, clock);
      for (const [index, code] of ["0000", "0001", "0002", "0003", "0004"].entries()) {
        clock.advance(6_000);
        await vouchers.lookup("6015-0000-1111", code, "USD", { address: `203.0.113.${index}` });
        await vouchers.lookup("6015-0000-9999", code, "USD", { address: `198.51.100.${index}` });
      }
    } finally {
      await services.close();
    }
    redeem = async () => {
      const services = await testServices({ DATA_DIR: dataDir });
      try {
        const found = await createVouchers(services.store, systemClock).lookup("601500001111", "6627", "USD", {
          address: "192.0.2.1",
        });
        return found.ok ? { ok: true } : { ok: false, reason: found.reason };
      } finally {
        await services.close();
      }
    };
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("says how it is used, exit code 2, when asked for nothing it knows", async () => {
    for (const args of [[], ["unlock"], ["locked", "extra"], ["lift", "601500001111"]]) {
      const answer = await run(dataDir, args);
      expect(answer.code).toBe(2);
      expect(answer.stderr).toContain("Usage: npm run vouchers -- locked | unlock NUMBER");
    }
  }, 60_000);

  it("lists the locked numbers masked, then lifts one: the holder's right code works again", async () => {
    expect(await redeem()).toEqual({ ok: false, reason: "tooManyAttempts" });
    const listed = await run(dataDir, ["locked"]);
    expect(listed).toMatchObject({ code: 0, stderr: "" });
    expect(listed.stdout).toContain("Locked card numbers (2), soonest lifted first:");
    expect(listed.stdout).toMatch(/\*{8}1111 {2}issued {2}5 wrong codes {2}locked until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(listed.stdout).toMatch(/\*{8}9999 {2}no such card {2}5 wrong codes/);
    expect(listed.stdout).not.toContain("601500001111");

    const lifted = await run(dataDir, ["unlock", "6015 0000 1111"]);
    expect(lifted).toMatchObject({ code: 0, stderr: "" });
    expect(lifted.stdout).toContain("Unlocked ********1111: its 5 wrong codes are forgotten.");
    const after = await run(dataDir, ["locked"]);
    expect(after.stdout).toContain("Locked card numbers (1)");
    expect(after.stdout).not.toContain("1111");
    expect(await redeem()).toEqual({ ok: true });

    const again = await run(dataDir, ["unlock", "601500001111"]);
    expect(again).toMatchObject({ code: 0, stdout: "********1111 had no wrong codes: nothing to lift.\n" });
  }, 60_000);
});
