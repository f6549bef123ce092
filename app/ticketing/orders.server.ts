import { randomBytes, randomInt, randomUUID } from "node:crypto";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { ExpressionBuilder } from "kysely";
import type { Database, OrderPaymentTable, OrderTable } from "~/db/schema";
import type { PricedBasket } from "./pricing";

// Orders: one per basket however often the request is repeated; a human-friendly number that
// cannot be guessed; and every payment attempt written down before the provider is called, so a
// crash at any moment leaves a record to reconcile.

/** The order has no payment under way or taken: what makes a waiting order stalled. */
const noPaymentUnderWay = (eb: ExpressionBuilder<Database, "orders">) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom("order_payments")
        .select("order_payments.id")
        .whereRef("order_payments.order_id", "=", "orders.id")
        .where("order_payments.status", "in", ["attempted", "action", "succeeded"]),
    ),
  );

// Crockford's base 32 without I, L, O and U: nothing to misread on a phone call.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** 10 random characters (50 bits), shown as XXXXX-XXXXX. */
export function newOrderNumber(): string {
  const characters = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]!).join("");
  return `${characters.slice(0, 5)}-${characters.slice(5)}`;
}

export interface NewOrder {
  basketId: string;
  customerName: string;
  email: string;
  performanceId: string | null;
  showName: string;
  deliveryMethod: string | null;
  priced: PricedBasket;
  promoCodeId: string | null;
  /** ContactDetails as JSON (never card data). */
  contacts: string | null;
  language?: string | null;
  /** The signed-in customer placing it: the order is theirs. */
  customerId?: string | null;
}

export type Order = OrderTable;
export type OrderPayment = OrderPaymentTable;
export type PaymentStatus = OrderPaymentTable["status"];

/** The columns a placement (first or again after a failure) sets from the basket. */
function placementColumns(order: NewOrder) {
  return {
    currency: order.priced.currency,
    customer_name: order.customerName,
    email: order.email,
    performance_id: order.performanceId,
    show_name: order.showName,
    delivery_method: order.deliveryMethod,
    lines: JSON.stringify(order.priced),
    total: order.priced.total,
    to_pay: order.priced.toPay,
    promo_code_id: order.promoCodeId,
    contacts: order.contacts,
    language: order.language ?? null,
    customer_id: order.customerId ?? null,
  };
}

/** How long a notification's event id is remembered: past every provider's retries. */
const NOTIFICATION_MEMORY_MS = 7 * 24 * 60 * 60 * 1000;

export function createOrders(store: Store, clock: Clock) {
  const { db } = store;

  async function tickets(orderId: string): Promise<IssuedTicket[]> {
    return db
      .selectFrom("order_tickets")
      .select(["id", "ref", "label", "barcode", "refund_id", "voided_at"])
      .where("order_id", "=", orderId)
      .orderBy("sort_order")
      .execute();
  }

  /** What has been given back of an order so far (settled refunds), in minor units. */
  async function refundedAmount(orderId: string): Promise<number> {
    const row = await db
      .selectFrom("refunds")
      .select((eb) => eb.fn.sum<number>("amount").as("amount"))
      .where("order_id", "=", orderId)
      .where("status", "=", "succeeded")
      .executeTakeFirst();
    return Number(row?.amount ?? 0);
  }

  async function byBasket(basketId: string): Promise<Order | undefined> {
    return db.selectFrom("orders").selectAll().where("basket_id", "=", basketId).executeTakeFirst();
  }

  return {
    byBasket,

    async byNumber(number: string): Promise<Order | undefined> {
      return db.selectFrom("orders").selectAll().where("number", "=", number.trim().toUpperCase()).executeTakeFirst();
    },

    /**
     * The basket's order, created pending payment the first time and returned as it is on every
     * later call: a double submit, a retry after a timeout or two servers at once all get one order.
     */
    async createOnce(order: NewOrder): Promise<{ order: Order; created: boolean }> {
      const now = clock.now().toISOString();
      const id = randomUUID();
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const inserted = await db
          .insertInto("orders")
          .values({
            id,
            number: newOrderNumber(),
            basket_id: order.basketId,
            status: "pending_payment",
            ...placementColumns(order),
            access_key: randomBytes(24).toString("base64url"),
            paid_at: null,
            created_at: now,
            updated_at: now,
          })
          // The basket's order may have been created by a concurrent request; a clashing number
          // (one in 2^50) is simply drawn again.
          .onConflict((oc) => oc.doNothing())
          .returningAll()
          .executeTakeFirst();
        if (inserted) return { order: inserted, created: true };
        const stored = await byBasket(order.basketId);
        if (stored) return { order: stored, created: false };
      }
      throw new Error("could not allocate an order number");
    },

    /**
     * Places a failed or cancelled order again, at the basket's prices now: one order per basket,
     * so a buyer whose card was declined can change anything and pay again under the same number.
     * Undefined when the order was not failed or cancelled (another request got there first).
     */
    async reopen(orderId: string, order: NewOrder): Promise<Order | undefined> {
      const result = await db
        .updateTable("orders")
        .set({ status: "pending_payment", ...placementColumns(order), updated_at: clock.now().toISOString() })
        .where("id", "=", orderId)
        .where("status", "in", ["failed", "cancelled"])
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return undefined;
      return db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
    },

    async byId(orderId: string): Promise<Order | undefined> {
      return db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst();
    },

    /**
     * A customer's paid orders, soonest performance first, each with its venue (for the time zone)
     * and the places it bought. An order for no performance (a membership) has nulls there.
     */
    async paidByCustomer(customerId: string) {
      const orders = await db
        .selectFrom("orders")
        .leftJoin("performances", "performances.id", "orders.performance_id")
        .leftJoin("runs", "runs.id", "performances.run_id")
        .leftJoin("venues", "venues.id", "runs.venue_id")
        .select([
          "orders.id",
          "orders.number",
          "orders.show_name",
          "orders.access_key",
          "orders.total",
          "orders.currency",
          "orders.delivery_method",
          "orders.performance_id",
          "orders.refund_status",
          "performances.starts_at",
          "venues.name as venue_name",
          "venues.time_zone",
        ])
        .where("orders.customer_id", "=", customerId)
        .where("orders.status", "=", "paid")
        .orderBy("performances.starts_at")
        .orderBy("orders.number")
        .execute();
      const tickets = orders.length
        ? await db
            .selectFrom("order_tickets")
            .select(["order_id", "label", "voided_at"])
            .where(
              "order_id",
              "in",
              orders.map((order) => order.id),
            )
            .orderBy("order_id")
            .orderBy("sort_order")
            .execute()
        : [];
      // What went back, for the few orders with a refund: the account page says so beside each.
      const refunded = new Map<string, number>();
      for (const order of orders) if (order.refund_status) refunded.set(order.id, await refundedAmount(order.id));
      return orders.map((order) => ({
        ...order,
        refunded: refunded.get(order.id) ?? 0,
        tickets: tickets
          .filter((ticket) => ticket.order_id === order.id)
          .map((ticket) => ({ label: ticket.label, refunded: ticket.voided_at !== null })),
      }));
    },

    async byAccessKey(key: string): Promise<Order | undefined> {
      return db.selectFrom("orders").selectAll().where("access_key", "=", key).executeTakeFirst();
    },

    /**
     * Written before the payment provider is called, with the idempotency key the provider will
     * see and the terms every answer is held to (amount, currency, the card brands it may use).
     * Undefined when an attempt with this key exists already (a repeated request).
     */
    async recordPaymentAttempt(
      orderId: string,
      method: OrderPaymentTable["method"],
      amount: number,
      idempotencyKey: string,
      terms: Pick<OrderPaymentTable, "currency" | "accepted_brands">,
    ): Promise<OrderPayment | undefined> {
      const now = clock.now().toISOString();
      const row: OrderPaymentTable = {
        id: randomUUID(),
        order_id: orderId,
        method,
        amount,
        status: "attempted",
        provider_reference: null,
        created_at: now,
        updated_at: now,
        idempotency_key: idempotencyKey,
        brand: null,
        last4: null,
        action: null,
        failure: null,
        reconciled_at: null,
        currency: terms.currency,
        accepted_brands: terms.accepted_brands,
      };
      const result = await db
        .insertInto("order_payments")
        .values(row)
        .onConflict((oc) => oc.column("idempotency_key").doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1 ? row : undefined;
    },

    /**
     * Moves an attempt on, but only from one of the states it is expected to be in: two answers
     * racing (the gateway's and a timeout) cannot both win. True when this call moved it.
     */
    async updatePayment(
      paymentId: string,
      from: readonly PaymentStatus[],
      change: Partial<
        Pick<OrderPaymentTable, "status" | "provider_reference" | "brand" | "last4" | "action" | "failure">
      >,
    ): Promise<boolean> {
      const result = await db
        .updateTable("order_payments")
        .set({ ...change, updated_at: clock.now().toISOString() })
        .where("id", "=", paymentId)
        .where("status", "in", [...from])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async payment(paymentId: string): Promise<OrderPayment | undefined> {
      return db.selectFrom("order_payments").selectAll().where("id", "=", paymentId).executeTakeFirst();
    },

    /** The payment attempt sent to the gateway with this idempotency key (a notification names it). */
    async paymentByKey(idempotencyKey: string): Promise<OrderPayment | undefined> {
      return db
        .selectFrom("order_payments")
        .selectAll()
        .where("idempotency_key", "=", idempotencyKey)
        .executeTakeFirst();
    },

    /**
     * What the reconciler must settle with the gateway, oldest first: attempts still waiting (no
     * answer, or the buyer never came back from the bank or PayPal) since before `before`, and
     * attempts given up on our side alone (timed out, abandoned, a call that broke) not yet
     * checked for an authorisation the gateway made anyway.
     */
    async unsettledPayments(before: string, limit: number): Promise<OrderPayment[]> {
      return db
        .selectFrom("order_payments")
        .selectAll()
        .where("created_at", "<=", before)
        .where((eb) =>
          eb.or([
            eb("status", "in", ["attempted", "action"]),
            eb.and([
              eb("reconciled_at", "is", null),
              eb("method", "!=", "voucher"),
              eb.or([
                eb("status", "=", "timedOut"),
                eb.and([eb("status", "=", "failed"), eb("failure", "in", ["cancelled", "error"])]),
              ]),
            ]),
          ]),
        )
        .orderBy("created_at")
        .limit(limit)
        .execute();
    },

    /**
     * Orders placed (or placed again) before `before` that are still waiting for payment but have
     * no payment under way or taken: the server went down between placing the order and sending its
     * payment, or the attempt failed before the order could be given up.
     */
    async stalledOrders(before: string, limit: number): Promise<Order[]> {
      return db
        .selectFrom("orders")
        .selectAll()
        .where("status", "=", "pending_payment")
        .where("updated_at", "<=", before)
        .where(noPaymentUnderWay)
        .orderBy("updated_at")
        .limit(limit)
        .execute();
    },

    /**
     * Attempts an answer won before `before` whose order is still waiting: the server died between
     * winning the attempt and completing the order, so nothing was captured yet.
     */
    async wonButUnfinished(before: string, limit: number): Promise<OrderPayment[]> {
      return db
        .selectFrom("order_payments")
        .innerJoin("orders", "orders.id", "order_payments.order_id")
        .selectAll("order_payments")
        .where("order_payments.status", "=", "succeeded")
        .where("order_payments.reconciled_at", "is", null)
        .where("orders.status", "=", "pending_payment")
        .where("order_payments.updated_at", "<=", before)
        .orderBy("order_payments.updated_at")
        .limit(limit)
        .execute();
    },

    /**
     * Gives up a stalled order, unless a payment for it has been recorded since it was found: a
     * buyer who presses Pay at that moment keeps their order.
     */
    async cancelStalled(orderId: string): Promise<boolean> {
      const result = await db
        .updateTable("orders")
        .set({ status: "cancelled", updated_at: clock.now().toISOString() })
        .where("id", "=", orderId)
        .where("status", "=", "pending_payment")
        .where(noPaymentUnderWay)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The reconciler has checked this attempt with the gateway: it is not asked about again. */
    /** Whether the gateway's notification with this event id has been applied already. */
    async notificationApplied(eventId: string): Promise<boolean> {
      const row = await db
        .selectFrom("payment_notifications")
        .select("event_id")
        .where("event_id", "=", eventId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Remembers an applied notification, and forgets those past any provider's retry window
     * (Stripe retries for three days, PayPal for three), so the table stays small.
     */
    async rememberNotification(eventId: string): Promise<void> {
      const now = clock.now();
      await db
        .insertInto("payment_notifications")
        .values({ event_id: eventId, received_at: now.toISOString() })
        .onConflict((oc) => oc.column("event_id").doNothing())
        .execute();
      await db
        .deleteFrom("payment_notifications")
        .where("received_at", "<", new Date(now.getTime() - NOTIFICATION_MEMORY_MS).toISOString())
        .execute();
    },

    async markReconciled(paymentId: string): Promise<void> {
      await db
        .updateTable("order_payments")
        .set({ reconciled_at: clock.now().toISOString() })
        .where("id", "=", paymentId)
        .execute();
    },

    /** Takes an attempt for one reconciler alone: false when another has taken it already. */
    async claimForReconciling(paymentId: string): Promise<boolean> {
      const result = await db
        .updateTable("order_payments")
        .set({ reconciled_at: clock.now().toISOString() })
        .where("id", "=", paymentId)
        .where("reconciled_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Moves an order on from pending payment; an order that already moved on stays as it is. */
    async settle(orderId: string, status: "paid" | "failed" | "cancelled"): Promise<boolean> {
      const now = clock.now().toISOString();
      const result = await db
        .updateTable("orders")
        .set({ status, updated_at: now, ...(status === "paid" ? { paid_at: now } : {}) })
        .where("id", "=", orderId)
        .where("status", "=", "pending_payment")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async payments(orderId: string) {
      return db
        .selectFrom("order_payments")
        .selectAll()
        .where("order_id", "=", orderId)
        .orderBy("created_at")
        .execute();
    },

    refundedAmount,

    /** The tickets issued for an order, in the order they were issued. */
    tickets,

    /**
     * Issues an order's tickets, once, and returns the order's tickets: a retried completion, or
     * two at once, issues nothing twice (the (order, place) key turns the second insert away) and
     * gets the tickets the first one issued.
     */
    async issueTickets(
      orderId: string,
      toIssue: { ref: string; label: string; barcode: string }[],
    ): Promise<IssuedTicket[]> {
      if (toIssue.length === 0) return [];
      const issued = await db
        .insertInto("order_tickets")
        .values(toIssue.map((ticket, index) => ({ id: randomUUID(), order_id: orderId, ...ticket, sort_order: index })))
        .onConflict((oc) => oc.columns(["order_id", "sort_order"]).doNothing())
        .returning(["id", "ref", "label", "barcode", "refund_id", "voided_at"])
        .execute();
      return issued.length === toIssue.length ? issued : tickets(orderId);
    },

    /**
     * What each place an order bought is, for its ticket's name: a seat's part of the house, row
     * and number; a standing place's area. By the ticket refs pricing gave them.
     */
    async placesOf(refs: string[]): Promise<Map<string, BoughtPlace>> {
      const seatIds = refs.filter((ref) => ref.startsWith("seat:")).map((ref) => Number(ref.split(":")[2]));
      const claimIds = refs.filter((ref) => ref.startsWith("standing:")).map((ref) => ref.split(":")[1] ?? "");
      const [seats, areas] = await Promise.all([
        seatIds.length
          ? db
              .selectFrom("seats")
              .innerJoin("sections", "sections.id", "seats.section_id")
              .select(["seats.id", "seats.row_name", "seats.label", "sections.name as section"])
              .where("seats.id", "in", seatIds)
              .execute()
          : [],
        claimIds.length
          ? db
              .selectFrom("standing_claims")
              .innerJoin("sections", "sections.id", "standing_claims.section_id")
              .select(["standing_claims.id", "sections.name as section"])
              .where("standing_claims.id", "in", claimIds)
              .execute()
          : [],
      ]);
      const places = new Map<string, BoughtPlace>();
      for (const ref of refs) {
        const [kind, first, second] = ref.split(":");
        if (kind === "seat") {
          const seat = seats.find((candidate) => candidate.id === Number(second));
          if (seat) places.set(ref, { kind: "seat", section: seat.section, row: seat.row_name, seat: seat.label });
        } else {
          const area = areas.find((candidate) => candidate.id === first);
          places.set(ref, { kind: "standing", area: area?.section ?? "" });
        }
      }
      return places;
    },
  };
}

/** A ticket issued for a paid order. */
export interface IssuedTicket {
  id: string;
  ref: string;
  label: string;
  barcode: string;
  /** The refund that took it (pending or settled). */
  refund_id: string | null;
  /** When a refund voided it: it admits nobody. */
  voided_at: string | null;
}

export type BoughtPlace =
  | { kind: "seat"; section: string; row: string; seat: string }
  | { kind: "standing"; area: string };

export type Orders = ReturnType<typeof createOrders>;
