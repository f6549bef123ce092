import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { Database, RefundTable } from "~/db/schema";
import { releaseSoldPlaces } from "./inventory.server";
import type { Memberships } from "./memberships.server";
import type { Order } from "./orders.server";
import type { PricedBasket } from "./pricing";
import { creditVoucher } from "./vouchers.server";

// Refunds in the store (decision 0041): what a refund gives back and where to, recorded before
// the provider is called, and what it changes once the provider has said yes (the tickets void,
// the places back on sale, the vouchers' money back, a membership it bought ended), all in one
// transaction, once.

export type Refund = RefundTable;

export interface VoucherPart {
  voucherId: string;
  amount: number;
}

/** What an order was paid with: the captured card (or PayPal, wallet) payment and each voucher. */
export interface PaidWith {
  card: { amount: number; reference: string } | null;
  /** In the order the vouchers were spent. */
  vouchers: VoucherPart[];
}

/**
 * What giving back these tickets is worth: for each, what the buyer paid for it (its all-in price
 * and, when protection was bought, its protection), less its share of the order's promo discount
 * in proportion to face value, rounded down so that refunds of single tickets never add up to
 * more than the order. What is per order (the transaction fee, delivery, extras) goes back only
 * with the whole order.
 */
export function ticketsRefundAmount(priced: PricedBasket, refs: readonly string[]): number {
  const tickets = priced.lines.flatMap((line) => (line.kind === "ticket" ? [line] : []));
  const protection = priced.lines.find((line) => line.kind === "protection");
  const perTicketProtection =
    protection?.kind === "protection" && !protection.included && protection.tickets > 0
      ? Math.floor(protection.amount / protection.tickets)
      : 0;
  const discount = -priced.lines.reduce((sum, line) => (line.kind === "discount" ? sum + line.amount : sum), 0);
  const faceTotal = tickets.reduce((sum, line) => sum + line.faceValue, 0);
  let amount = 0;
  for (const ref of refs) {
    const line = tickets.find((ticket) => ticket.ref === ref);
    if (!line) continue;
    const share = faceTotal > 0 ? Math.floor((discount * line.faceValue) / faceTotal) : 0;
    amount += line.amount + perTicketProtection - share;
  }
  return Math.max(amount, 0);
}

/**
 * Where `amount` goes back: to the card first, up to what the card paid and has not had back,
 * then onto the vouchers, the last spent first. Money that came off a voucher never goes to the
 * card, and the card never gets more than it paid.
 */
export function splitRefund(
  amount: number,
  paid: PaidWith,
  already: { card: number; vouchers: ReadonlyMap<string, number> },
): { card: number; vouchers: VoucherPart[] } {
  const cardLeft = Math.max((paid.card?.amount ?? 0) - already.card, 0);
  const card = Math.min(amount, cardLeft);
  let left = amount - card;
  const vouchers: VoucherPart[] = [];
  for (const voucher of [...paid.vouchers].reverse()) {
    if (left <= 0) break;
    const room = Math.max(voucher.amount - (already.vouchers.get(voucher.voucherId) ?? 0), 0);
    const part = Math.min(left, room);
    if (part > 0) vouchers.push({ voucherId: voucher.voucherId, amount: part });
    left -= part;
  }
  return { card, vouchers };
}

export type RecordRefusal =
  | { reason: "ticketsAlreadyRefunded"; ticketIds: string[] }
  | { reason: "nothingToRefund" }
  | { reason: "noCapturedPayment" };

class RolledBack extends Error {
  constructor(readonly refusal: RecordRefusal) {
    super(refusal.reason);
  }
}

const parts = (refund: Pick<Refund, "voucher_parts">) => JSON.parse(refund.voucher_parts) as VoucherPart[];

export function createRefundLedger(deps: {
  store: Store;
  clock: Clock;
  memberships: Pick<Memberships, "endForOrder">;
}) {
  const { store, clock, memberships } = deps;
  const { db } = store;

  async function paidWith(trx: Transaction<Database>, orderId: string): Promise<PaidWith> {
    const [payment, spent] = await Promise.all([
      trx
        .selectFrom("order_payments")
        .select(["amount", "provider_reference"])
        .where("order_id", "=", orderId)
        .where("status", "=", "succeeded")
        .where("method", "!=", "voucher")
        .executeTakeFirst(),
      trx
        .selectFrom("voucher_movements")
        .select(["voucher_id", "amount", "created_at"])
        .where("order_id", "=", orderId)
        .where("reason", "=", "redeemed")
        .orderBy("created_at")
        .orderBy("id")
        .execute(),
    ]);
    const vouchers = new Map<string, number>();
    for (const movement of spent)
      vouchers.set(movement.voucher_id, (vouchers.get(movement.voucher_id) ?? 0) - movement.amount);
    return {
      card:
        payment && payment.provider_reference && payment.amount > 0
          ? { amount: payment.amount, reference: payment.provider_reference }
          : null,
      vouchers: [...vouchers].map(([voucherId, amount]) => ({ voucherId, amount })),
    };
  }

  return {
    /** Every refund asked for this way (the order and its tickets), oldest first. */
    async byRequest(requestKey: string): Promise<Refund[]> {
      return db.selectFrom("refunds").selectAll().where("request_key", "=", requestKey).orderBy("created_at").execute();
    },

    async byId(refundId: string): Promise<Refund | undefined> {
      return db.selectFrom("refunds").selectAll().where("id", "=", refundId).executeTakeFirst();
    },

    /**
     * Records a refund, pending, before anything is given back: takes its tickets (all those left,
     * for the whole order), works out what it gives back and where to, against what the order was
     * paid with less every other refund recorded or settled. One refund at a time per order works
     * this out (the order's row is locked on PostgreSQL; SQLite has one writer), so two at once
     * never give back the same money twice. A ticket another refund has taken refuses it whole.
     */
    async record(input: {
      order: Order;
      requestKey: string;
      /** The whole order (whatever is left of it), or exactly these tickets. */
      whole: boolean;
      ticketIds: readonly string[];
      reason: string | null;
    }): Promise<{ ok: true; refund: Refund } | ({ ok: false } & RecordRefusal)> {
      const { order } = input;
      const now = clock.now().toISOString();
      try {
        const refund = await db.transaction().execute(async (trx) => {
          const locked = trx.selectFrom("orders").select("id").where("id", "=", order.id);
          await (store.dialect === "postgres" ? locked.forUpdate() : locked).executeTakeFirst();
          const id = randomUUID();
          const tickets = await trx
            .selectFrom("order_tickets")
            .select(["id", "ref", "refund_id"])
            .where("order_id", "=", order.id)
            .execute();
          const wanted = input.whole
            ? tickets.filter((ticket) => ticket.refund_id === null)
            : tickets.filter((ticket) => input.ticketIds.includes(ticket.id));
          const taken = wanted.filter((ticket) => ticket.refund_id !== null).map((ticket) => ticket.id);
          if (taken.length) throw new RolledBack({ reason: "ticketsAlreadyRefunded", ticketIds: taken });
          const ticketIds = wanted.map((ticket) => ticket.id).sort();
          if (ticketIds.length) {
            const claimed = await trx
              .updateTable("order_tickets")
              .set({ refund_id: id })
              .where("id", "in", ticketIds)
              .where("refund_id", "is", null)
              .executeTakeFirst();
            if (Number(claimed.numUpdatedRows) !== ticketIds.length)
              throw new RolledBack({ reason: "ticketsAlreadyRefunded", ticketIds });
          }
          const paid = await paidWith(trx, order.id);
          const others = await trx
            .selectFrom("refunds")
            .select(["amount", "card_amount", "voucher_parts", "request_key"])
            .where("order_id", "=", order.id)
            .where("status", "in", ["pending", "succeeded"])
            .execute();
          const already = { card: 0, vouchers: new Map<string, number>() };
          for (const other of others) {
            already.card += other.card_amount;
            for (const part of parts(other))
              already.vouchers.set(part.voucherId, (already.vouchers.get(part.voucherId) ?? 0) + part.amount);
          }
          const paidTotal = (paid.card?.amount ?? 0) + paid.vouchers.reduce((sum, part) => sum + part.amount, 0);
          const alreadyTotal = others.reduce((sum, other) => sum + other.amount, 0);
          const left = Math.max(paidTotal - alreadyTotal, 0);
          const priced = JSON.parse(order.lines) as PricedBasket;
          const refs = wanted.map((ticket) => ticket.ref);
          const amount = input.whole ? left : Math.min(ticketsRefundAmount(priced, refs), left);
          if (amount === 0 && ticketIds.length === 0) throw new RolledBack({ reason: "nothingToRefund" });
          const split = splitRefund(amount, paid, already);
          if (split.card > 0 && !paid.card) throw new RolledBack({ reason: "noCapturedPayment" });
          const attempt = (await trx
            .selectFrom("refunds")
            .select((eb) => eb.fn.countAll<number>().as("count"))
            .where("request_key", "=", input.requestKey)
            .executeTakeFirst())!;
          const tries = Number(attempt.count);
          const row: Refund = {
            id,
            order_id: order.id,
            request_key: input.requestKey,
            // A refused refund's key is spent at the provider (it answers the same for it again):
            // asking again is a new attempt with a key of its own.
            idempotency_key: tries === 0 ? input.requestKey : `${input.requestKey}:${tries + 1}`,
            whole: input.whole ? 1 : 0,
            ticket_ids: ticketIds.join(","),
            amount,
            card_amount: split.card,
            voucher_parts: JSON.stringify(split.vouchers),
            reason: input.reason,
            status: "pending",
            provider_reference: split.card > 0 ? (paid.card?.reference ?? null) : null,
            created_at: now,
            settled_at: null,
          };
          await trx.insertInto("refunds").values(row).execute();
          return row;
        });
        return { ok: true, refund };
      } catch (error) {
        if (error instanceof RolledBack) return { ok: false, ...error.refusal };
        throw error;
      }
    },

    /** The provider said no: nothing was given back, and the tickets are free to be refunded again. */
    async refused(refundId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable("refunds")
          .set({ status: "refused", settled_at: clock.now().toISOString() })
          .where("id", "=", refundId)
          .where("status", "=", "pending")
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 1)
          await trx.updateTable("order_tickets").set({ refund_id: null }).where("refund_id", "=", refundId).execute();
      });
    },

    /**
     * The provider has given the money back (or nothing went to a card): the refund's tickets are
     * void, their places for sale again, the vouchers' parts back on them, and a whole order's
     * membership ended, in one transaction and once (only the call that moves it from pending
     * does anything). Returns the performances whose places were freed, or null when another call
     * settled it first.
     */
    async settle(refundId: string): Promise<Set<string> | null> {
      const now = clock.now().toISOString();
      return db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable("refunds")
          .set({ status: "succeeded", settled_at: now })
          .where("id", "=", refundId)
          .where("status", "=", "pending")
          .returningAll()
          .executeTakeFirst();
        if (!moved) return null;
        const tickets = await trx
          .selectFrom("order_tickets")
          .select(["id", "ref"])
          .where("refund_id", "=", refundId)
          .execute();
        await trx.updateTable("order_tickets").set({ voided_at: now }).where("refund_id", "=", refundId).execute();
        const freed = await releaseSoldPlaces(
          trx,
          moved.order_id,
          tickets.map((ticket) => ticket.ref),
        );
        for (const part of parts(moved))
          await creditVoucher(trx, {
            movementId: `${refundId}:${part.voucherId}`,
            voucherId: part.voucherId,
            amount: part.amount,
            orderId: moved.order_id,
            at: now,
          });
        if (moved.whole) await memberships.endForOrder(trx, moved.order_id);
        const left = await trx
          .selectFrom("order_tickets")
          .select("id")
          .where("order_id", "=", moved.order_id)
          .where("voided_at", "is", null)
          .executeTakeFirst();
        await trx
          .updateTable("orders")
          .set({ refund_status: moved.whole || !left ? "refunded" : "partlyRefunded", updated_at: now })
          .where("id", "=", moved.order_id)
          .execute();
        return freed;
      });
    },
  };
}

export type RefundLedger = ReturnType<typeof createRefundLedger>;
