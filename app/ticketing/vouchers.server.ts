import { randomBytes, randomUUID, scryptSync, timingSafeEqual } from "node:crypto";
import { sql, type Transaction } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { Database } from "~/db/schema";
import { createGuessThrottle, type ThrottlePolicy } from "./guess-throttle.server";

// Gift vouchers and gift cards: a number and a redemption (access) code, a balance in one
// currency, an expiry. Every movement of money is a row in voucher_movements; the balance can
// never go below zero (a conditional update, and a CHECK constraint behind it).

const SCRYPT = { N: 16384, r: 8, p: 1 } as const;

export function hashRedemptionCode(code: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(normaliseVoucherInput(code), salt, 32, SCRYPT);
  return `scrypt$${salt.toString("base64")}$${hash.toString("base64")}`;
}

function codeMatches(code: string, stored: string): boolean {
  const [scheme, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = scryptSync(normaliseVoucherInput(code), Buffer.from(salt, "base64"), expected.length, SCRYPT);
  return timingSafeEqual(actual, expected);
}

// A stored hash to compare against when the number is unknown, so a wrong number costs the same
// time as a wrong code and the two cannot be told apart.
const DECOY_HASH = hashRedemptionCode("decoy-code-never-issued");

export function normaliseVoucherInput(value: string): string {
  return value.replace(/[\s-]+/g, "").toUpperCase();
}

export type VoucherLookup =
  | {
      ok: true;
      voucher: {
        id: string;
        number: string;
        kind: "voucher" | "giftCard";
        currency: string;
        balance: number;
        expiresAt: string;
      };
    }
  | { ok: false; reason: "invalid" | "expired" | "empty" | "wrongCurrency" | "tooManyAttempts"; retryAt?: string };

/**
 * Puts a refund's part back onto a voucher, inside the refund's transaction: once, however often
 * it is asked (the movement's id is the caller's, so a second insert is turned away). The balance
 * goes up even on an expired voucher: the money is the buyer's, and the box office can reissue it.
 */
export async function creditVoucher(
  trx: Transaction<Database>,
  credit: { movementId: string; voucherId: string; amount: number; orderId: string; at: string },
): Promise<boolean> {
  if (!Number.isInteger(credit.amount) || credit.amount <= 0) return false;
  const inserted = await trx
    .insertInto("voucher_movements")
    .values({
      id: credit.movementId,
      voucher_id: credit.voucherId,
      amount: credit.amount,
      reason: "refunded",
      order_id: credit.orderId,
      created_at: credit.at,
    })
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
  await trx
    .updateTable("vouchers")
    .set({ balance: sql`balance + ${credit.amount}` })
    .where("id", "=", credit.voucherId)
    .execute();
  return true;
}

export function createVouchers(store: Store, clock: Clock, throttlePolicy?: ThrottlePolicy) {
  const { db } = store;
  const throttle = createGuessThrottle(store, clock, throttlePolicy);

  return {
    /**
     * Finds a voucher by number and redemption code for a buyer, known by `guessers` (their
     * session's visitor id and their address, say). A wrong number and a wrong code give the same
     * answer; repeated wrong guesses under any of those keys are slowed, then refused for a while.
     */
    async lookup(number: string, code: string, currency: string, guessers: string[]): Promise<VoucherLookup> {
      const keys = guessers.map((guesser) => `voucher:${guesser}`);
      for (const key of keys) {
        const state = await throttle.check(key);
        if (!state.allowed) return { ok: false, reason: "tooManyAttempts", retryAt: state.retryAt };
      }
      const voucher = await db
        .selectFrom("vouchers")
        .selectAll()
        .where("number", "=", normaliseVoucherInput(number))
        .executeTakeFirst();
      const matches = codeMatches(code, voucher?.code_hash ?? DECOY_HASH) && voucher !== undefined;
      if (!voucher || !matches) {
        for (const key of keys) await throttle.recordFailure(key);
        return { ok: false, reason: "invalid" };
      }
      if (voucher.expires_at <= clock.now().toISOString()) return { ok: false, reason: "expired" };
      if (voucher.currency !== currency) return { ok: false, reason: "wrongCurrency" };
      if (voucher.balance <= 0) return { ok: false, reason: "empty" };
      return {
        ok: true,
        voucher: {
          id: voucher.id,
          number: voucher.number,
          kind: voucher.kind,
          currency: voucher.currency,
          balance: voucher.balance,
          expiresAt: voucher.expires_at,
        },
      };
    },

    /**
     * Spends `amount` from a voucher for an order, all or nothing: the update only succeeds while
     * the balance covers it and the voucher has not expired, whatever else runs at once.
     */
    /** Vouchers' numbers, by id (a summary names a voucher by the end of its number). */
    async numbers(voucherIds: string[]): Promise<Map<string, string>> {
      if (voucherIds.length === 0) return new Map();
      const rows = await db.selectFrom("vouchers").select(["id", "number"]).where("id", "in", voucherIds).execute();
      return new Map(rows.map((row) => [row.id, row.number]));
    },

    async redeem(voucherId: string, amount: number, orderId: string): Promise<boolean> {
      if (!Number.isInteger(amount) || amount <= 0) return false;
      const now = clock.now().toISOString();
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable("vouchers")
          .set({ balance: sql`balance - ${amount}` })
          .where("id", "=", voucherId)
          .where("balance", ">=", amount)
          .where("expires_at", ">", now)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        await trx
          .insertInto("voucher_movements")
          .values({
            id: randomUUID(),
            voucher_id: voucherId,
            amount: -amount,
            reason: "redeemed",
            order_id: orderId,
            created_at: now,
          })
          .execute();
        return true;
      });
    },

    /** Puts back what an order spent (it failed or was cancelled). Safe to call twice. */
    async refundOrder(orderId: string): Promise<number> {
      const now = clock.now().toISOString();
      return db.transaction().execute(async (trx) => {
        const movements = await trx
          .selectFrom("voucher_movements")
          .select(["voucher_id", "reason", (eb) => eb.fn.sum<number>("amount").as("amount")])
          .where("order_id", "=", orderId)
          .groupBy(["voucher_id", "reason"])
          .execute();
        let refunded = 0;
        for (const voucherId of new Set(movements.map((movement) => movement.voucher_id))) {
          const net = movements
            .filter((movement) => movement.voucher_id === voucherId)
            .reduce((sum, movement) => sum + Number(movement.amount), 0);
          if (net >= 0) continue;
          await trx
            .updateTable("vouchers")
            .set({ balance: sql`balance + ${-net}` })
            .where("id", "=", voucherId)
            .execute();
          await trx
            .insertInto("voucher_movements")
            .values({
              id: randomUUID(),
              voucher_id: voucherId,
              amount: -net,
              reason: "refunded",
              order_id: orderId,
              created_at: now,
            })
            .execute();
          refunded += -net;
        }
        return refunded;
      });
    },

    async balanceOf(voucherId: string): Promise<number> {
      const row = await db
        .selectFrom("vouchers")
        .select("balance")
        .where("id", "=", voucherId)
        .executeTakeFirstOrThrow();
      return row.balance;
    },
  };
}

export type Vouchers = ReturnType<typeof createVouchers>;
