import type { TFunction } from "i18next";
import type { Logger } from "pino";
import { formatDateTime, formatMoney } from "~/i18n/format";
import type { Config } from "~/config/env.server";
import { renderOrderConfirmation } from "~/use-cases/email/order-email";
import type { Outbox } from "~/use-cases/email/outbox.server";
import { newBarcode } from "~/use-cases/barcode.server";
import type { I18nService } from "~/i18n/i18n.server";
import { isLanguage } from "~/i18n/languages";
import type { Catalogue } from "~/ticketing/catalogue.server";
import type { IssuedTicket, Order, Orders } from "~/ticketing/orders.server";
import type { PricedBasket } from "~/ticketing/pricing";
import { eTicketsPath, type OrderViews } from "./order-view.server";
import type { SummaryLabel } from "~/views/summary";

// What happens once an order is paid: a ticket (with its barcode) for every place bought, and the
// confirmation email queued. Both are idempotent, so a retried completion issues nothing twice;
// neither can fail the order (the payment service logs and carries on).

export function createFulfilment(deps: {
  orders: Pick<Orders, "placesOf" | "issueTickets">;
  catalogue: Pick<Catalogue, "placeOfPerformance">;
  orderViews: OrderViews;
  i18n: I18nService;
  outbox: Outbox;
  config: Config;
  logger: Logger;
}) {
  const { orders, catalogue, orderViews, i18n, outbox, config } = deps;

  async function translator(order: Order, venueSlug: string | undefined): Promise<{ t: TFunction; language: string }> {
    const language = order.language && isLanguage(order.language) ? order.language : config.language;
    const instance = await i18n.createInstance(language, i18n.wordingSetFor(venueSlug));
    return { t: instance.t, language };
  }

  /** Names each place the order bought, in the buyer's language. */
  async function ticketLabels(order: Order, t: TFunction): Promise<{ ref: string; label: string }[]> {
    const priced = JSON.parse(order.lines) as PricedBasket;
    const refs = priced.lines.flatMap((line) => (line.kind === "ticket" ? [line.ref] : []));
    const places = await orders.placesOf(refs);
    return refs.map((ref) => {
      const place = places.get(ref);
      if (place?.kind === "standing") return { ref, label: t("tickets.standingName", { area: place.area, count: 1 }) };
      return {
        ref,
        label: place ? t("tickets.seatName", { section: place.section, row: place.row, seat: place.seat }) : ref,
      };
    });
  }

  /** Queued as `kind`: once per order and kind (the outbox's key), so a retried completion sends one. */
  async function queueConfirmation(
    order: Order,
    t: TFunction,
    language: string,
    issued: IssuedTicket[] | undefined,
    kind: string,
  ): Promise<{ queued: false } | { queued: true; id: string }> {
    const view = await orderViews.view(order, issued);
    const say = (label: SummaryLabel | undefined) => (label ? t(label.key, label.values) : "");
    const money = (amount: number) => formatMoney(amount, order.currency, language);
    const email = renderOrderConfirmation(
      {
        orderNumber: view.number,
        customerName: view.customerName,
        email: view.email,
        showName: view.showName,
        venueName: view.venueName,
        when: view.startsAt ? formatDateTime(view.startsAt, view.timeZone, language) : "",
        tickets: view.tickets.map((ticket) => ticket.label),
        delivery: view.delivery ? t(`delivery.${view.delivery}`) : "",
        access: view.access ? view.access.services.map((key) => t(key)).join(", ") : "",
        accessNotes: view.access?.notes ?? "",
        lines: [
          ...view.summary.lines.map((line) => ({
            label: [say(line.label), say(line.note)].filter(Boolean).join(" – "),
            amount: money(line.amount),
          })),
          ...view.summary.vouchers.map((voucher) => ({ label: say(voucher.label), amount: money(-voucher.amount) })),
        ],
        total: money(view.summary.total),
        paid: money(view.summary.toPay),
        eTicketsUrl: view.eTicketsKey ? `${config.publicUrl}${eTicketsPath(view.eTicketsKey)}` : null,
        visit: view.visit
          ? {
              lines: view.visit.lines,
              mapUrl: view.visit.mapHref,
              travel: view.visit.travel ?? "",
              calendarUrl: view.visit.calendarPath ? `${config.publicUrl}${view.visit.calendarPath}` : null,
            }
          : null,
        // The venue's own number; the deployment's for an order of no venue (a membership).
        supportPhone: view.supportPhone ?? t("venue.supportPhone"),
      },
      (key: string, values?: Record<string, unknown>) => t(key, values),
    );
    const queued = await outbox.enqueue({ kind, to: order.email, orderId: order.id, ...email });
    if (queued.queued) outbox.kick(queued.id);
    return queued;
  }

  return {
    async orderPaid(order: Order): Promise<void> {
      const place = order.performance_id ? await catalogue.placeOfPerformance(order.performance_id) : undefined;
      const { t, language } = await translator(order, place?.venue_slug);
      const labels = await ticketLabels(order, t);
      const issued = await orders.issueTickets(
        order.id,
        labels.map((ticket) => ({ ...ticket, barcode: newBarcode() })),
      );
      await queueConfirmation(order, t, language, issued, "orderConfirmation");
    },

    /**
     * The confirmation (with its e-tickets link) queued again, as it reads now, under a kind of
     * its own (the box office's resend): the outbox keeps one email per order and kind, so a
     * resend asked for twice with the same kind is queued once.
     */
    async resendConfirmation(order: Order, kind: string) {
      const place = order.performance_id ? await catalogue.placeOfPerformance(order.performance_id) : undefined;
      const { t, language } = await translator(order, place?.venue_slug);
      return queueConfirmation(order, t, language, undefined, kind);
    },
  };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;
