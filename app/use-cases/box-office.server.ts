import type { OrderRecord, OrderSearch } from "~/ticketing/order-search.server";
import { orderNumberOf } from "~/ticketing/order-search.server";
import type { Fulfilment } from "~/use-cases/fulfilment.server";
import type { RefundAnswer, Refunds } from "~/use-cases/refunds.server";

// The box office's orders pages (issue 55 item 3, decision 0061): an order found and read whole,
// refunded whole or ticket by ticket through the same refund as `npm run refund` (so the provider
// is called once, and asking again changes nothing), and its confirmation email sent again.

/** The outbox's kind for the nth confirmation the box office sent again (the first is "orderConfirmation"). */
const RESEND_KIND = "orderConfirmation:resend:";

/** What an email about an order was, as the box office reads the outbox's kinds. */
export type OrderEmailKind = "orderConfirmation" | "confirmationResent" | "refundNotice" | "other";

function emailKindOf(kind: string): OrderEmailKind {
  if (kind === "orderConfirmation") return "orderConfirmation";
  if (kind.startsWith(RESEND_KIND)) return "confirmationResent";
  if (kind.startsWith("refund:")) return "refundNotice";
  return "other";
}

/**
 * A ticket as the box office sees it: valid; used (admitted at the door, and still not refunded);
 * refunding (a refund has taken it and the provider's answer is awaited: it admits nobody
 * meanwhile); refunded (void).
 */
export type TicketState = "valid" | "used" | "refunding" | "refunded";

export type BoxOfficeRefundAnswer =
  | RefundAnswer
  /** A ticket asked for was admitted at the door, and the box office did not say it knew. */
  | { ok: false; reason: "usedAtDoor"; tickets: string[] }
  /** Tickets chosen, but none named. */
  | { ok: false; reason: "noTickets" }
  /** A refund to try again that is not one of this order's. */
  | { ok: false; reason: "unknownRefund" };

export type ResendAnswer =
  | { ok: true; queued: true; emailId: string; to: string; orderId: string }
  /** The page asking was older than the last resend: that one is what was asked for, and stands. */
  | { ok: true; queued: false }
  | { ok: false; reason: "unknownOrder" | "notPaid" | "refunded" };

export function createBoxOffice(deps: {
  search: OrderSearch;
  refunds: Pick<Refunds, "refund">;
  fulfilment: Pick<Fulfilment, "resendConfirmation">;
  /** PAYMENT_PROVIDER: who took the card payments (PayPal's are PayPal's wherever cards go). */
  cardProvider: string;
  /** Where times are shown for an order of no venue (a membership): the deployment's market's zone. */
  defaultTimeZone: string;
}) {
  const { search, refunds, fulfilment } = deps;

  async function recordOf(typed: string): Promise<OrderRecord | null> {
    const number = orderNumberOf(typed);
    return number ? search.record(number) : null;
  }

  const stateOf = (ticket: OrderRecord["tickets"][number]): TicketState =>
    ticket.voidedAt ? "refunded" : ticket.refundId ? "refunding" : ticket.checkedIn ? "used" : "valid";

  const refundable = (record: OrderRecord) =>
    record.order.status === "paid" && record.order.refund_status !== "refunded";

  return {
    find: (query: string) => search.find(query),

    /** The order with this number (typed any way orderNumberOf reads), as its page shows it; null if none. */
    async order(typed: string) {
      const record = await recordOf(typed);
      if (!record) return null;
      const { order, performance } = record;
      const labels = new Map(record.tickets.map((ticket) => [ticket.id, ticket.label]));
      return {
        number: order.number,
        status: order.status,
        refundStatus: order.refund_status,
        customerName: order.customer_name,
        email: order.email,
        showName: order.show_name,
        currency: order.currency,
        total: order.total,
        createdAt: order.created_at,
        paidAt: order.paid_at,
        performance,
        timeZone: performance?.timeZone ?? deps.defaultTimeZone,
        tickets: record.tickets.map((ticket) => ({ ...ticket, state: stateOf(ticket) })),
        payments: record.payments.map((payment) => ({
          ...payment,
          provider:
            payment.method === "voucher" ? "voucher" : payment.method === "paypal" ? "paypal" : deps.cardProvider,
        })),
        refunds: record.refunds.map((refund) => ({
          ...refund,
          tickets: refund.ticketIds.map((id) => labels.get(id) ?? id),
        })),
        emails: record.emails.map((email) => ({ ...email, kind: emailKindOf(email.kind) })),
        /** How many times the box office has sent the confirmation again: the resend form's "seen". */
        resends: record.emails.filter((email) => email.kind.startsWith(RESEND_KIND)).length,
        canRefund: refundable(record),
        canResend: refundable(record),
      };
    },

    /**
     * Refunds the whole order (what is left of it) or the tickets named by id, through the refund
     * the command uses. A ticket already admitted at the door is refunded only when the box office
     * says it knows: the buyer came, so giving the money back is an exception (the performance
     * stopped, the seat could not be used), made on purpose and never by a stray tick.
     */
    async refund(
      typed: string,
      request: { whole: boolean; ticketIds: readonly string[]; usedConfirmed: boolean; reason: string | null },
    ): Promise<BoxOfficeRefundAnswer> {
      const record = await recordOf(typed);
      if (!record) return { ok: false, reason: "unknownOrder" };
      if (!request.whole && request.ticketIds.length === 0) return { ok: false, reason: "noTickets" };
      const covered = request.whole
        ? record.tickets.filter((ticket) => ticket.refundId === null)
        : record.tickets.filter((ticket) => request.ticketIds.includes(ticket.id));
      const used = covered.filter((ticket) => ticket.refundId === null && ticket.checkedIn);
      if (used.length && !request.usedConfirmed)
        return { ok: false, reason: "usedAtDoor", tickets: used.map((ticket) => ticket.label) };
      return refunds.refund(record.order.number, {
        tickets: request.whole ? undefined : request.ticketIds,
        reason: request.reason,
      });
    },

    /**
     * Finishes a refund the provider did not answer for: asked again as it was first asked (the
     * same tickets, so the same idempotency key), which the provider refunds at most once.
     */
    async retryRefund(typed: string, refundId: string): Promise<BoxOfficeRefundAnswer> {
      const record = await recordOf(typed);
      if (!record) return { ok: false, reason: "unknownOrder" };
      const refund = record.refunds.find((candidate) => candidate.id === refundId);
      if (!refund) return { ok: false, reason: "unknownRefund" };
      return refunds.refund(record.order.number, { tickets: refund.whole ? undefined : refund.ticketIds });
    },

    /**
     * Queues the order's confirmation (its e-tickets link with it) again, to the order's email.
     * `seen` is how many resends the asking page knew of: a form sent twice (a double press, a
     * reload) asks for the same resend, which is queued once.
     */
    async resendConfirmation(typed: string, seen: number): Promise<ResendAnswer> {
      const record = await recordOf(typed);
      if (!record) return { ok: false, reason: "unknownOrder" };
      if (record.order.status !== "paid") return { ok: false, reason: "notPaid" };
      if (record.order.refund_status === "refunded") return { ok: false, reason: "refunded" };
      const resends = record.emails.filter((email) => email.kind.startsWith(RESEND_KIND)).length;
      if (seen !== resends) return { ok: true, queued: false };
      const queued = await fulfilment.resendConfirmation(record.order, `${RESEND_KIND}${resends + 1}`);
      return queued.queued
        ? { ok: true, queued: true, emailId: queued.id, to: record.order.email, orderId: record.order.id }
        : { ok: true, queued: false };
    },
  };
}

export type BoxOffice = ReturnType<typeof createBoxOffice>;
export type BoxOfficeOrder = NonNullable<Awaited<ReturnType<BoxOffice["order"]>>>;
