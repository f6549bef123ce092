import { sql, type SqlBool } from "kysely";
import type { Store } from "~/db/connection.server";
import type { EmailOutboxTable, OrderPaymentTable, OrderTable, RefundTable } from "~/db/schema";
import type { PricedBasket } from "./pricing";

// The box office's reading of orders (issue 55 item 3, decision 0061): finding an order from
// what a caller at the counter or on the phone can say (its number, their email, their name), and
// everything about one order at once: its tickets and whether each was used at the door, its
// payments, refunds and emails. Reads only; what changes an order is the refund's and the
// fulfilment's.

/** At most this many orders are listed for one search; the page says when there were more. */
export const ORDER_SEARCH_LIMIT = 50;

/** Longer than any number, email address or name worth looking for. */
export const ORDER_SEARCH_MAX_LENGTH = 200;

// Crockford's base 32 without I, L, O and U, as order numbers are made (orders.server.ts).
const NUMBER_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const SEPARATORS = /[\s\u002d\u2010-\u2015\u2212\u00ad\u200b]+/gu;

/**
 * An order number as it is stored ("7K2Q9-XM4PD"), from what someone read out or typed: any case,
 * spaces or dashes anywhere (or none), and the letters Crockford's alphabet reads as digits (O as
 * 0, I and L as 1), since the alphabet has none of them and a caller reading a number aloud says
 * "oh" for a nought. Null when it cannot be a number.
 */
export function orderNumberOf(typed: string): string | null {
  const squashed = typed
    .normalize("NFKC")
    .replace(SEPARATORS, "")
    .toUpperCase()
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
  if (squashed.length !== 10 || [...squashed].some((symbol) => !NUMBER_ALPHABET.includes(symbol))) return null;
  return `${squashed.slice(0, 5)}-${squashed.slice(5)}`;
}

/** LIKE's own characters, escaped with a backslash, so a name with "%" or "_" is looked for as typed. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (symbol) => `\\${symbol}`);

export interface OrderSearchHit {
  number: string;
  customerName: string;
  email: string;
  showName: string;
  /** The performance's start and its venue; null for an order of no performance (a membership). */
  startsAt: string | null;
  venueName: string | null;
  timeZone: string | null;
  status: OrderTable["status"];
  refundStatus: OrderTable["refund_status"];
  total: number;
  currency: string;
  createdAt: string;
}

export interface OrderSearchResult {
  orders: OrderSearchHit[];
  /** More orders matched than are listed. */
  more: boolean;
}

export interface OrderRecordTicket {
  id: string;
  /** As the e-ticket names it ("Stalls, row B, seat 3"). */
  label: string;
  /** The code printed under the e-ticket's barcode. */
  code: string;
  /** The price band and the price option it was sold at, as the catalogue names them now; null if gone. */
  band: string | null;
  priceOption: string | null;
  /** What the buyer paid for it, all-in, minor units. */
  price: number;
  /** The refund that took it, pending or settled. */
  refundId: string | null;
  /** When its refund was settled. */
  voidedAt: string | null;
  /** When and at which door it was admitted. */
  checkedIn: { at: string; door: string } | null;
}

export type OrderRecordPayment = Pick<
  OrderPaymentTable,
  "id" | "method" | "amount" | "status" | "provider_reference" | "brand" | "last4" | "created_at" | "currency"
>;

export type OrderRecordRefund = Pick<
  RefundTable,
  "id" | "whole" | "amount" | "card_amount" | "status" | "reason" | "created_at" | "settled_at"
> & { ticketIds: string[] };

export type OrderRecordEmail = Pick<
  EmailOutboxTable,
  "id" | "kind" | "to_address" | "status" | "created_at" | "sent_at"
>;

export interface OrderRecord {
  order: OrderTable;
  /** The performance and its venue; null for an order of no performance. */
  performance: { startsAt: string; venueName: string; timeZone: string } | null;
  tickets: OrderRecordTicket[];
  /** Every payment attempt, oldest first: the box office sees a declined card before the one that paid. */
  payments: OrderRecordPayment[];
  /** Oldest first. */
  refunds: OrderRecordRefund[];
  /** Every email queued about the order, oldest first. */
  emails: OrderRecordEmail[];
}

export function createOrderSearch(store: Store) {
  const { db } = store;

  return {
    /**
     * Orders whose number is the one typed, whose email is the one typed (any case), or whose
     * contact name has the typed words in it (any case): every status, newest first, at most
     * `limit`. An empty query finds nothing.
     */
    async find(typed: string, limit = ORDER_SEARCH_LIMIT): Promise<OrderSearchResult> {
      const query = typed.normalize("NFKC").trim().replace(/\s+/g, " ");
      if (!query || query.length > ORDER_SEARCH_MAX_LENGTH) return { orders: [], more: false };
      const number = orderNumberOf(query);
      const lowered = query.toLowerCase();
      // lower() on both stores folds ASCII alike (SQLite's folds nothing else): a name typed in
      // another case with accented capitals may be missed on SQLite, and is found by its email.
      const rows = await db
        .selectFrom("orders")
        .leftJoin("performances", "performances.id", "orders.performance_id")
        .leftJoin("runs", "runs.id", "performances.run_id")
        .leftJoin("venues", "venues.id", "runs.venue_id")
        .select([
          "orders.number",
          "orders.customer_name",
          "orders.email",
          "orders.show_name",
          "orders.status",
          "orders.refund_status",
          "orders.total",
          "orders.currency",
          "orders.created_at",
          "performances.starts_at",
          "venues.name as venue_name",
          "venues.time_zone",
        ])
        .where((eb) =>
          eb.or([
            ...(number ? [eb("orders.number", "=", number)] : []),
            eb(eb.fn("lower", ["orders.email"]), "=", lowered),
            sql<SqlBool>`lower(orders.customer_name) like ${`%${likeEscaped(lowered)}%`} escape '\\'`,
          ]),
        )
        .orderBy("orders.created_at", "desc")
        .orderBy("orders.number")
        .limit(limit + 1)
        .execute();
      return {
        orders: rows.slice(0, limit).map((row) => ({
          number: row.number,
          customerName: row.customer_name,
          email: row.email,
          showName: row.show_name,
          startsAt: row.starts_at,
          venueName: row.venue_name,
          timeZone: row.time_zone,
          status: row.status,
          refundStatus: row.refund_status,
          total: row.total,
          currency: row.currency,
          createdAt: row.created_at,
        })),
        more: rows.length > limit,
      };
    },

    /** One order by its number (as stored; see orderNumberOf), with all the box office shows of it. */
    async record(number: string): Promise<OrderRecord | null> {
      const found = await db
        .selectFrom("orders")
        .leftJoin("performances", "performances.id", "orders.performance_id")
        .leftJoin("runs", "runs.id", "performances.run_id")
        .leftJoin("venues", "venues.id", "runs.venue_id")
        .selectAll("orders")
        .select(["performances.starts_at", "venues.name as venue_name", "venues.time_zone"])
        .where("orders.number", "=", number)
        .executeTakeFirst();
      if (!found) return null;
      const { starts_at, venue_name, time_zone, ...order } = found;
      const [tickets, payments, refunds, emails] = await Promise.all([
        db
          .selectFrom("order_tickets")
          .leftJoin("ticket_check_ins", "ticket_check_ins.ticket_id", "order_tickets.id")
          .select([
            "order_tickets.id",
            "order_tickets.ref",
            "order_tickets.label",
            "order_tickets.barcode",
            "order_tickets.refund_id",
            "order_tickets.voided_at",
            "ticket_check_ins.checked_in_at",
            "ticket_check_ins.door",
          ])
          .where("order_tickets.order_id", "=", order.id)
          .orderBy("order_tickets.sort_order")
          .execute(),
        db
          .selectFrom("order_payments")
          .select([
            "id",
            "method",
            "amount",
            "status",
            "provider_reference",
            "brand",
            "last4",
            "created_at",
            "currency",
          ])
          .where("order_id", "=", order.id)
          .orderBy("created_at")
          .orderBy("id")
          .execute(),
        db
          .selectFrom("refunds")
          .select([
            "id",
            "whole",
            "amount",
            "card_amount",
            "status",
            "reason",
            "created_at",
            "settled_at",
            "ticket_ids",
          ])
          .where("order_id", "=", order.id)
          .orderBy("created_at")
          .orderBy("id")
          .execute(),
        db
          .selectFrom("email_outbox")
          .select(["id", "kind", "to_address", "status", "created_at", "sent_at"])
          .where("order_id", "=", order.id)
          .orderBy("created_at")
          // Queued in the same instant: the confirmation before what followed it ("…:resend:1").
          .orderBy("kind")
          .orderBy("id")
          .execute(),
      ]);
      // Each ticket's price as the buyer agreed to it (the order's own lines), and the band and
      // option it was sold at, named by the catalogue.
      const priced = JSON.parse(order.lines) as PricedBasket;
      const lines = new Map(
        priced.lines.flatMap((line) => (line.kind === "ticket" ? [[line.ref, line] as const] : [])),
      );
      const optionIds = [...new Set([...lines.values()].map((line) => line.priceOptionId))];
      const options = optionIds.length
        ? await db
            .selectFrom("price_options")
            .innerJoin("price_bands", "price_bands.id", "price_options.price_band_id")
            .select(["price_options.id", "price_options.label", "price_bands.name as band"])
            .where("price_options.id", "in", optionIds)
            .execute()
        : [];
      return {
        order,
        performance:
          starts_at && venue_name && time_zone
            ? { startsAt: starts_at, venueName: venue_name, timeZone: time_zone }
            : null,
        tickets: tickets.map((ticket) => {
          const line = lines.get(ticket.ref);
          const option = line && options.find((candidate) => candidate.id === line.priceOptionId);
          return {
            id: ticket.id,
            label: ticket.label,
            code: ticket.barcode,
            band: option?.band ?? null,
            priceOption: option?.label ?? null,
            price: line?.amount ?? 0,
            refundId: ticket.refund_id,
            voidedAt: ticket.voided_at,
            checkedIn:
              ticket.checked_in_at !== null && ticket.door !== null
                ? { at: ticket.checked_in_at, door: ticket.door }
                : null,
          };
        }),
        payments,
        refunds: refunds.map(({ ticket_ids, ...refund }) => ({
          ...refund,
          ticketIds: ticket_ids.split(",").filter(Boolean),
        })),
        emails,
      };
    },
  };
}

export type OrderSearch = ReturnType<typeof createOrderSearch>;
