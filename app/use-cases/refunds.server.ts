import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type { Config } from "~/config/env.server";
import { formatMoney } from "~/i18n/format";
import type { I18nService } from "~/i18n/i18n.server";
import { isLanguage } from "~/i18n/languages";
import type { PaymentGateway } from "~/payments/gateway";
import type { Catalogue } from "~/ticketing/catalogue.server";
import type { IssuedTicket, Order, Orders } from "~/ticketing/orders.server";
import type { Refund, RefundLedger, VoucherPart } from "~/ticketing/refunds.server";
import type { Vouchers } from "~/ticketing/vouchers.server";
import type { Outbox } from "~/use-cases/email/outbox.server";
import { renderRefundNotice } from "~/use-cases/email/refund-email";
import { UNCOUNTED, type Counted } from "~/monitoring/counted";

// The box office's refund (issue 39 item 5; decision 0041): a paid order, whole or some of its
// tickets, given back through the provider that took the payment. The refund is recorded before
// the provider is called, with an idempotency key made from what was asked for, and finished
// after; so a run that dies anywhere is finished by running the same command again, and the
// provider refunds once. A run asking for what is already refunded changes nothing and calls
// nobody. Membership cancellation is this same path: the membership's order, refunded whole.

/** How the operator names a ticket: its barcode (printed on the e-ticket), its seat ("B12"), or its id. */
export type TicketSelection = readonly string[];

export interface RefundDone {
  order: Order;
  refund: Refund;
  /** The tickets it voided, by name. */
  tickets: string[];
  toVouchers: (VoucherPart & { number: string })[];
}

export type RefundAnswer =
  | ({ ok: true; outcome: "refunded" } & RefundDone)
  /** Asked for again: nothing was done and nobody was called. */
  | ({ ok: true; outcome: "alreadyRefunded" } & Partial<RefundDone> & { order: Order })
  | { ok: false; reason: "unknownOrder" }
  | { ok: false; reason: "notPaid"; order: Order }
  | { ok: false; reason: "ticketNotInOrder" | "ambiguousTicket"; given: string[]; tickets: OrderTicketChoice[] }
  | { ok: false; reason: "ticketsAlreadyRefunded"; tickets: string[] }
  /** Money went to a card the order has no captured payment for: nothing to refund it through. */
  | { ok: false; reason: "noCapturedPayment"; order: Order }
  /** The provider refused: nothing was given back or released; the command may be run again. */
  | { ok: false; reason: "providerRefused"; order: Order; refund: Refund }
  /** The provider's answer never came: the refund stays pending, and running the command again finishes it. */
  | { ok: false; reason: "providerError"; order: Order; refund: Refund };

/** A ticket of the order as the operator may name it. */
export interface OrderTicketChoice {
  label: string;
  seat: string | null;
  barcode: string;
  refunded: boolean;
}

const squash = (value: string) => value.replace(/[\s-]+/g, "").toUpperCase();

export function createRefunds(deps: {
  orders: Pick<Orders, "byNumber" | "byId" | "tickets" | "placesOf">;
  ledger: RefundLedger;
  vouchers: Pick<Vouchers, "numbers">;
  catalogue: Pick<Catalogue, "placeOfPerformance">;
  /** The gateway that took the payments (the composition's, from PAYMENT_PROVIDER). */
  gateway: Pick<PaymentGateway, "refund">;
  outbox: Outbox;
  i18n: I18nService;
  config: Pick<Config, "language">;
  logger: Logger;
  /** Hears of every performance whose places a refund put back on sale (the availability cache). */
  placesFreed?: (performanceId: string) => void;
  counted?: Pick<Counted, "order">;
}) {
  const { orders, ledger, vouchers, catalogue, gateway, outbox, i18n, config, logger } = deps;

  async function choices(order: Order, tickets: IssuedTicket[]): Promise<OrderTicketChoice[]> {
    const places = await orders.placesOf(tickets.map((ticket) => ticket.ref));
    return tickets.map((ticket) => {
      const place = places.get(ticket.ref);
      return {
        label: ticket.label,
        seat: place?.kind === "seat" ? `${place.row}${place.seat}` : null,
        barcode: ticket.barcode,
        refunded: ticket.refund_id !== null,
      };
    });
  }

  /** The order's tickets the operator named, or the names that match none (or more than one). */
  function resolve(
    tickets: (IssuedTicket & OrderTicketChoice)[],
    given: TicketSelection,
  ): { ok: true; ids: string[] } | { ok: false; reason: "ticketNotInOrder" | "ambiguousTicket"; given: string[] } {
    const ids = new Set<string>();
    const missing: string[] = [];
    const ambiguous: string[] = [];
    for (const name of given) {
      const key = squash(name);
      const matches = tickets.filter(
        (ticket) => ticket.id === name.trim() || ticket.barcode === key || (ticket.seat && squash(ticket.seat) === key),
      );
      if (matches.length === 0) missing.push(name);
      else if (matches.length > 1) ambiguous.push(name);
      else ids.add(matches[0]!.id);
    }
    if (missing.length) return { ok: false, reason: "ticketNotInOrder", given: missing };
    if (ambiguous.length) return { ok: false, reason: "ambiguousTicket", given: ambiguous };
    return { ok: true, ids: [...ids].sort() };
  }

  async function translator(order: Order) {
    const place = order.performance_id ? await catalogue.placeOfPerformance(order.performance_id) : undefined;
    const language = order.language && isLanguage(order.language) ? order.language : config.language;
    const instance = await i18n.createInstance(language, i18n.wordingSetFor(place?.venue_slug));
    return { t: instance.t, language, supportPhone: place?.support_phone ?? null };
  }

  async function describe(order: Order, refund: Refund): Promise<RefundDone> {
    const voided = new Set(refund.ticket_ids.split(",").filter(Boolean));
    const tickets = (await orders.tickets(order.id)).filter((ticket) => voided.has(ticket.id));
    const parts = JSON.parse(refund.voucher_parts) as VoucherPart[];
    const numbers = await vouchers.numbers(parts.map((part) => part.voucherId));
    return {
      order,
      refund,
      tickets: tickets.map((ticket) => ticket.label),
      toVouchers: parts.map((part) => ({ ...part, number: numbers.get(part.voucherId) ?? "" })),
    };
  }

  /** Queued once per refund (the outbox keeps one email of a kind per order). */
  async function notifyBuyer(done: RefundDone): Promise<string | null> {
    const { order, refund } = done;
    const { t, language, supportPhone } = await translator(order);
    const money = (amount: number) => formatMoney(amount, order.currency, language);
    const email = renderRefundNotice(
      {
        orderNumber: order.number,
        customerName: order.customer_name,
        email: order.email,
        showName: order.show_name,
        amount: money(refund.amount),
        toCard: refund.card_amount > 0 ? money(refund.card_amount) : null,
        toVouchers: done.toVouchers.map((part) => ({ ending: part.number.slice(-4), amount: money(part.amount) })),
        tickets: done.tickets,
        whole: refund.whole === 1,
        membershipEnded:
          refund.whole === 1 &&
          (JSON.parse(order.lines) as { lines: { kind: string }[] }).lines.some((line) => line.kind === "membership"),
        supportPhone: supportPhone ?? t("venue.supportPhone"),
      },
      (key, values) => t(key, values),
    );
    const queued = await outbox.enqueue({ kind: `refund:${refund.id}`, to: order.email, orderId: order.id, ...email });
    return queued.queued ? queued.id : null;
  }

  /** Gives the money back at the provider (when any goes to the card), then settles. */
  async function finish(order: Order, refund: Refund): Promise<RefundAnswer> {
    if (refund.card_amount > 0) {
      let answer: { ok: boolean };
      try {
        answer = await gateway.refund(refund.provider_reference!, refund.card_amount, refund.idempotency_key);
      } catch (error) {
        logger.error({ err: error, orderId: order.id, refundId: refund.id }, "refund: the provider did not answer");
        return { ok: false, reason: "providerError", order, refund };
      }
      if (!answer.ok) {
        await ledger.refused(refund.id);
        logger.warn({ orderId: order.id, refundId: refund.id }, "refund refused by the provider");
        return { ok: false, reason: "providerRefused", order, refund: (await ledger.byId(refund.id)) ?? refund };
      }
    }
    const done = await describe(order, refund);
    // Queued before the refund is settled: a run that dies between the two queues nothing twice
    // when run again, and one that dies after never leaves the buyer untold.
    const emailId = await notifyBuyer(done);
    const freed = await ledger.settle(refund.id);
    for (const performanceId of freed ?? []) deps.placesFreed?.(performanceId);
    if (emailId) outbox.kick(emailId);
    logger.info(
      { orderId: order.id, refundId: refund.id, amount: refund.amount, card: refund.card_amount },
      "order refunded",
    );
    const settled = (await ledger.byId(refund.id)) ?? refund;
    (deps.counted ?? UNCOUNTED).order("refunded");
    return { ok: true, outcome: "refunded", ...done, order: (await orders.byId(order.id)) ?? order, refund: settled };
  }

  return {
    /**
     * Refunds a paid order by its number: the whole order (whatever is left of it), or the tickets
     * named. Safe to run again: what is already refunded is said so, and a refund left half-done
     * (the provider's answer lost, the process killed) is finished with the same idempotency key.
     */
    async refund(
      orderNumber: string,
      options: { tickets?: TicketSelection; reason?: string | null } = {},
    ): Promise<RefundAnswer> {
      const order = await orders.byNumber(orderNumber);
      if (!order) return { ok: false, reason: "unknownOrder" };
      if (order.status !== "paid") return { ok: false, reason: "notPaid", order };
      const issued = await orders.tickets(order.id);
      const named = await choices(order, issued);
      const tickets = issued.map((ticket, index) => ({ ...ticket, ...named[index]! }));
      const whole = !options.tickets || options.tickets.length === 0;
      let ticketIds: string[] = [];
      if (!whole) {
        const resolved = resolve(tickets, options.tickets!);
        if (!resolved.ok) return { ...resolved, tickets: named };
        ticketIds = resolved.ids;
      }
      const requestKey = whole
        ? `refund:${order.id}:order`
        : `refund:${order.id}:${createHash("sha256").update(ticketIds.join(",")).digest("hex").slice(0, 24)}`;
      const asked = await ledger.byRequest(requestKey);
      const settled = asked.find((refund) => refund.status === "succeeded");
      if (settled) return { ok: true, outcome: "alreadyRefunded", ...(await describe(order, settled)) };
      const pending = asked.find((refund) => refund.status === "pending");
      if (pending) return finish(order, pending);
      const recorded = await ledger.record({
        order,
        requestKey,
        whole,
        ticketIds,
        reason: options.reason?.trim() || null,
      });
      if (recorded.ok) return finish(order, recorded.refund);
      switch (recorded.reason) {
        case "nothingToRefund":
          // The whole order asked for after every part of it was given back one by one.
          return { ok: true, outcome: "alreadyRefunded", order };
        case "ticketsAlreadyRefunded": {
          const taken = new Set(recorded.ticketIds);
          const labels = tickets.filter((ticket) => taken.has(ticket.id)).map((ticket) => ticket.label);
          // Another run of this same request recorded it a moment ago: finish that one.
          const now = await ledger.byRequest(requestKey);
          const mine = now.find((refund) => refund.status !== "refused");
          if (mine?.status === "pending") return finish(order, mine);
          if (mine?.status === "succeeded")
            return { ok: true, outcome: "alreadyRefunded", ...(await describe(order, mine)) };
          return { ok: false, reason: "ticketsAlreadyRefunded", tickets: labels };
        }
        case "noCapturedPayment":
          return { ok: false, reason: "noCapturedPayment", order };
      }
    },
  };
}

export type Refunds = ReturnType<typeof createRefunds>;
