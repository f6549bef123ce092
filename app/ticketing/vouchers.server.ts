import { randomBytes, randomUUID, scryptSync, timingSafeEqual } from "node:crypto";
import { sql, type Transaction } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { Database } from "~/db/schema";
import { createGuessThrottle, DEFAULT_THROTTLE, type ThrottlePolicy } from "./guess-throttle.server";

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

/**
 * Wrong codes for one card number, whoever sends them (decision 0054): three, then a 5-second
 * wait, and the fifth locks the number for 30 days; while its failures are remembered (a year
 * from the first), every further wrong code locks it for 30 days again. So at most 17 codes a
 * year can be tried on a number, however many baskets, sessions and addresses try them: 0.17%
 * of a 4-digit code's 10,000. The right code forgets them; the box office can lift a lock
 * (`npm run vouchers`).
 */
export const CARD_NUMBER_THROTTLE: ThrottlePolicy = {
  freeFailures: 3,
  baseDelayMs: 5_000,
  lockAfter: 5,
  lockMinutes: 30 * 24 * 60,
  windowMinutes: 365 * 24 * 60,
};

export interface VoucherThrottles {
  /** Per basket, session and address: slows whoever tries many numbers. */
  perGuesser: ThrottlePolicy;
  /** Per card number, whether or not it exists. */
  perNumber: ThrottlePolicy;
}

/** Who is asking: the client's address always, and whatever else knows them (basket, session). */
export interface VoucherAsker {
  address: string;
  others?: string[];
}

const NUMBER_KEY = "voucher:number:";
const numberKey = (number: string) => `${NUMBER_KEY}${normaliseVoucherInput(number)}`;

/** A card number as the box office's list shows it: all but its last four characters hidden. */
export function maskVoucherNumber(number: string): string {
  return `${"*".repeat(Math.max(0, number.length - 4))}${number.slice(-4)}`;
}

export function createVouchers(
  store: Store,
  clock: Clock,
  throttles: VoucherThrottles = { perGuesser: DEFAULT_THROTTLE, perNumber: CARD_NUMBER_THROTTLE },
) {
  const { db } = store;
  const guesserThrottle = createGuessThrottle(store, clock, throttles.perGuesser);
  const numberThrottle = createGuessThrottle(store, clock, throttles.perNumber);

  return {
    /**
     * Finds a voucher by number and redemption code for a buyer, known by their address and
     * whatever else the caller has (their basket, their session's visitor id). A wrong number and
     * a wrong code give the same answer and count alike: against the number (existing or not),
     * and against each of the asker's keys. Repeated wrong guesses are slowed, then refused.
     */
    async lookup(number: string, code: string, currency: string, asker: VoucherAsker): Promise<VoucherLookup> {
      const guesserKeys = [`address:${asker.address}`, ...(asker.others ?? [])].map((key) => `voucher:${key}`);
      for (const key of guesserKeys) {
        const state = await guesserThrottle.check(key);
        if (!state.allowed) return { ok: false, reason: "tooManyAttempts", retryAt: state.retryAt };
      }
      const voucher = await db
        .selectFrom("vouchers")
        .selectAll()
        .where("number", "=", normaliseVoucherInput(number))
        .executeTakeFirst();
      // The number's guesses are taken one at a time (see `guess`): the card's few tries cannot
      // be raced past by sending them at once.
      const guessed = await numberThrottle.guess(
        numberKey(number),
        () => codeMatches(code, voucher?.code_hash ?? DECOY_HASH) && voucher !== undefined,
      );
      if (!guessed.allowed) return { ok: false, reason: "tooManyAttempts", retryAt: guessed.retryAt };
      if (!voucher || !guessed.right) {
        for (const key of guesserKeys) await guesserThrottle.recordFailure(key);
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
     * The card numbers locked out now (the box office's list), soonest lifted first: each with its
     * wrong codes, until when, and whether a voucher has that number (a lock on a number never
     * issued is someone trying numbers).
     */
    async lockedNumbers(): Promise<{ number: string; issued: boolean; failures: number; lockedUntil: string }[]> {
      const locked = await numberThrottle.locked(NUMBER_KEY);
      const numbers = locked.map((entry) => entry.key.slice(NUMBER_KEY.length));
      const issued = new Set(
        numbers.length === 0
          ? []
          : (await db.selectFrom("vouchers").select("number").where("number", "in", numbers).execute()).map(
              (row) => row.number,
            ),
      );
      return locked.map((entry, index) => ({
        number: numbers[index]!,
        issued: issued.has(numbers[index]!),
        failures: entry.failures,
        lockedUntil: entry.lockedUntil,
      }));
    },

    /** Lifts a card number's lock and forgets its wrong codes: the wrong codes there were (0: none). */
    unlockNumber(number: string): Promise<number> {
      return numberThrottle.clear(numberKey(number));
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
