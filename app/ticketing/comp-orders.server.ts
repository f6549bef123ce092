import { randomBytes, randomUUID } from "node:crypto";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import {
  auditName,
  deleteHouseSeats,
  inTransaction,
  nameOf,
  performanceFacts,
  planSeats,
  restrictionsOf,
  type SeatName,
  type SeatRefused,
  unavailable,
} from "./house-seats.server";
import { insertClaims } from "./inventory.server";
import { newOrderNumber, type Order } from "./orders.server";
import type { Currency, PricedBasket } from "./pricing";
import { writeStaffAudit } from "./staff-audit.server";
import { COMP_REASON_MAX_LENGTH } from "~/views/house-seats";

// Complimentary orders (issue 55 item 5, decision 0063): seats the box office gives away. A comp
// is an order like any other, paid at nothing: its seats sold to it through the seat's claim key
// (so a seat is never sold twice, whoever else wants it at that moment), its tickets and email
// made by the same fulfilment as a paid order's (the use case calls it once this commits).

export { COMP_REASON_MAX_LENGTH } from "~/views/house-seats";

export interface CompInput {
  performanceId: string;
  seatIds: readonly number[];
  name: string;
  email: string;
  reason: string;
  staffId: string | null;
  /**
   * The member of staff has confirmed the recipient may have the restricted seats among these
   * (a wheelchair space, a companion seat, an access-zone seat): see decision 0063.
   */
  restrictedConfirmed: boolean;
  /** The language the confirmation email is written in; the deployment's when null. */
  language?: string | null;
}

export type CompRefusal =
  | { ok: false; reason: "not-found" }
  /** No recipient's name or email, or no reason (or one too long): the forms ask for them first. */
  | { ok: false; reason: "incomplete" }
  | { ok: false; reason: "seat-limit"; seatLimit: number }
  /** Restricted seats among them, and the staff did not confirm: nothing was done. */
  | { ok: false; reason: "restricted"; seats: SeatName[] }
  /** Some of the seats are taken: nothing was done. */
  | { ok: false; reason: "unavailable"; seats: SeatRefused[] }
  | { ok: false; reason: "busy" };

export type CompIssued = {
  ok: true;
  order: Order;
  seats: SeatName[];
  /** House seats that went into it (no longer house seats). */
  fromHouse: SeatName[];
};

/** The order's lines: a ticket per seat at nothing, delivered as e-tickets. */
function compLines(currency: Currency, performanceId: string, seatIds: readonly number[]): PricedBasket {
  return {
    currency,
    lines: [
      // No price option: a comp was never sold at one of the band's prices, and its summary says
      // the seat and nothing of Full Price or the like.
      ...seatIds.map((seatId) => ({
        kind: "ticket" as const,
        ref: `seat:${performanceId}:${seatId}`,
        priceOptionId: "",
        faceValue: 0,
        bookingFee: 0,
        amount: 0,
      })),
      { kind: "delivery" as const, method: "eTicket", amount: 0 },
    ],
    subtotal: 0,
    discount: 0,
    total: 0,
    vouchers: [],
    toPay: 0,
  };
}

/**
 * `changed` hears, after the commit, of the performance whose seats the comp took (the
 * availability cache listens).
 */
export function createCompOrders(store: Store, clock: Clock, changed: (performanceId: string) => void = () => {}) {
  const { db } = store;

  return {
    /**
     * A comp, all of it or nothing: the seats (free ones, or house seats, which it releases into
     * itself) sold to a new paid order of total nothing, within the performance's seat limit per
     * order; restricted seats only when the staff confirmed. The audit entry is written with it.
     */
    async issue(input: CompInput): Promise<CompIssued | CompRefusal> {
      const seatIds = [...new Set(input.seatIds)].sort((a, b) => a - b);
      if (seatIds.length === 0) return { ok: false, reason: "not-found" };
      const reason = input.reason.trim();
      if (!input.name.trim() || !input.email.trim() || !reason || reason.length > COMP_REASON_MAX_LENGTH)
        return { ok: false, reason: "incomplete" };
      const now = clock.now();
      const nowIso = now.toISOString();
      return inTransaction(
        db,
        async (trx): Promise<CompIssued | CompRefusal> => {
          const performance = await performanceFacts(trx, input.performanceId);
          if (!performance) return { ok: false, reason: "not-found" };
          // The buyer's rule, for the same reason: one order's seats are what one party can use.
          if (seatIds.length > performance.seat_limit)
            return { ok: false, reason: "seat-limit", seatLimit: performance.seat_limit };
          const seats = await planSeats(trx, performance.price_plan_id, seatIds);
          if (seats.length !== seatIds.length) return { ok: false, reason: "not-found" };
          const restricted = seats.filter((seat) => restrictionsOf(seat).length > 0);
          if (restricted.length > 0 && !input.restrictedConfirmed)
            return { ok: false, reason: "restricted", seats: restricted.map(nameOf) };

          const orderId = randomUUID();
          let order: Order | undefined;
          for (let attempt = 0; attempt < 5 && !order; attempt += 1) {
            order = await trx
              .insertInto("orders")
              .values({
                id: orderId,
                number: newOrderNumber(),
                // No basket ever held these seats; the column is one per order all the same.
                basket_id: `comp:${orderId}`,
                status: "paid",
                currency: performance.currency,
                customer_name: input.name.trim(),
                email: input.email.trim(),
                performance_id: input.performanceId,
                show_name: performance.title,
                delivery_method: "eTicket",
                lines: JSON.stringify(compLines(performance.currency, input.performanceId, seatIds)),
                total: 0,
                to_pay: 0,
                promo_code_id: null,
                contacts: null,
                language: input.language ?? null,
                customer_id: null,
                access_key: randomBytes(24).toString("base64url"),
                paid_at: nowIso,
                created_at: nowIso,
                updated_at: nowIso,
                refund_status: null,
              })
              // A clashing number (one in 2^50) is drawn again; nothing else here can clash.
              .onConflict((oc) => oc.column("number").doNothing())
              .returningAll()
              .executeTakeFirst();
          }
          if (!order) throw new Error("could not allocate an order number");

          const fromHouse = await trx
            .selectFrom("seat_claims")
            .select("seat_id")
            .where("performance_id", "=", input.performanceId)
            .where("seat_id", "in", seatIds)
            .where("status", "=", "house")
            .execute();
          // One claim per seat, sold to the order: let in where nobody has the seat, where a buyer's
          // hold has lapsed, or over a house seat (released into the comp). Anything else keeps it.
          const missed = await insertClaims(
            trx,
            input.performanceId,
            seatIds,
            { status: "sold", hold_id: null, held_until: null, order_id: orderId },
            nowIso,
            true,
          );
          if (missed.length > 0) return unavailable(trx, input.performanceId, seats, missed, nowIso);
          const houseIds = new Set(fromHouse.map((row) => Number(row.seat_id)));
          const houseReasons = await deleteHouseSeats(trx, input.performanceId, seatIds);

          const names = seats.map(nameOf);
          const fromHouseNames = seats.filter((seat) => houseIds.has(seat.id)).map(nameOf);
          if (fromHouseNames.length > 0)
            await writeStaffAudit(trx, now, {
              staffId: input.staffId,
              action: "releaseSeats",
              performanceId: input.performanceId,
              orderId,
              detail: {
                seats: fromHouseNames.map(auditName),
                seatIds: fromHouseNames.map((seat) => seat.seatId),
                reasons: houseReasons,
                intoComp: order.number,
              },
            });
          await writeStaffAudit(trx, now, {
            staffId: input.staffId,
            action: "issueComp",
            performanceId: input.performanceId,
            orderId,
            detail: {
              orderNumber: order.number,
              reason,
              seats: names.map(auditName),
              seatIds,
              recipient: order.customer_name,
              email: order.email,
              ...(restricted.length > 0 && { restrictedConfirmed: restricted.map(nameOf).map(auditName) }),
            },
          });
          return { ok: true, order, seats: names, fromHouse: fromHouseNames };
        },
        () => changed(input.performanceId),
      );
    },
  };
}

export type CompOrders = ReturnType<typeof createCompOrders>;
