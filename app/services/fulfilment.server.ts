import { randomUUID } from "node:crypto";
import type { TFunction } from "i18next";
import type { Logger } from "pino";
import { formatDateTime, formatMoney } from "~/i18n/format";
import type { Config } from "~/config/env.server";
import type { Store } from "~/db/connection.server";
import { renderOrderConfirmation } from "~/services/email/order-email";
import type { Outbox } from "~/services/email/outbox.server";
import { newBarcode } from "~/services/barcode.server";
import type { I18nService } from "~/i18n/i18n.server";
import { isLanguage } from "~/i18n/languages";
import type { Order } from "~/ticketing/orders.server";
import type { PricedBasket } from "~/ticketing/pricing";
import type { OrderViews } from "./order-view.server";
import type { SummaryLabel } from "~/views/summary";

// What happens once an order is paid: a ticket (with its barcode) for every place bought, and the
// confirmation email queued. Both are idempotent, so a retried completion issues nothing twice;
// neither can fail the order (the payment service logs and carries on).

export function createFulfilment(deps: {
  store: Store;
  orderViews: OrderViews;
  i18n: I18nService;
  outbox: Outbox;
  config: Config;
  logger: Logger;
}) {
  const { store, orderViews, i18n, outbox, config } = deps;
  const { db } = store;

  async function translator(order: Order, venueSlug: string | undefined): Promise<{ t: TFunction; language: string }> {
    const language = order.language && isLanguage(order.language) ? order.language : config.language;
    const instance = await i18n.createInstance(language, i18n.wordingSetFor(venueSlug));
    return { t: instance.t, language };
  }

  /** Names each place the order bought, in the buyer's language. */
  async function ticketLabels(order: Order, t: TFunction): Promise<{ ref: string; label: string }[]> {
    const priced = JSON.parse(order.lines) as PricedBasket;
    const refs = priced.lines.flatMap((line) => (line.kind === "ticket" ? [line.ref] : []));
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
    return refs.map((ref) => {
      const [kind, first, second] = ref.split(":");
      if (kind === "seat") {
        const seat = seats.find((candidate) => candidate.id === Number(second));
        return {
          ref,
          label: seat ? t("tickets.seatName", { section: seat.section, row: seat.row_name, seat: seat.label }) : ref,
        };
      }
      const area = areas.find((candidate) => candidate.id === first);
      return { ref, label: t("tickets.standingName", { area: area?.section ?? "", count: 1 }) };
    });
  }

  async function issueTickets(order: Order, t: TFunction) {
    const existing = await db.selectFrom("order_tickets").select("id").where("order_id", "=", order.id).execute();
    if (existing.length > 0) return;
    const labels = await ticketLabels(order, t);
    if (labels.length === 0) return;
    await db
      .insertInto("order_tickets")
      .values(
        labels.map((ticket, index) => ({
          id: randomUUID(),
          order_id: order.id,
          ref: ticket.ref,
          label: ticket.label,
          barcode: newBarcode(),
          sort_order: index,
        })),
      )
      .execute();
  }

  async function queueConfirmation(order: Order, t: TFunction, language: string) {
    const view = await orderViews.view(order);
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
        lines: [
          ...view.summary.lines.map((line) => ({
            label: [say(line.label), say(line.note)].filter(Boolean).join(" – "),
            amount: money(line.amount),
          })),
          ...view.summary.vouchers.map((voucher) => ({ label: say(voucher.label), amount: money(-voucher.amount) })),
        ],
        total: money(view.summary.total),
        paid: money(view.summary.toPay),
        eTicketsUrl: view.eTicketsKey ? `${config.publicUrl}/e-tickets/${view.eTicketsKey}` : null,
        // The venue's own number; the deployment's for an order of no venue (a membership).
        supportPhone: view.supportPhone ?? t("venue.supportPhone"),
      },
      (key: string, values?: Record<string, unknown>) => t(key, values),
    );
    const queued = await outbox.enqueue({ kind: "orderConfirmation", to: order.email, orderId: order.id, ...email });
    if (queued.queued) outbox.kick();
  }

  return {
    async orderPaid(order: Order): Promise<void> {
      const venue = await db
        .selectFrom("performances")
        .innerJoin("runs", "runs.id", "performances.run_id")
        .innerJoin("venues", "venues.id", "runs.venue_id")
        .select("venues.slug")
        .where("performances.id", "=", order.performance_id ?? "")
        .executeTakeFirst();
      const { t, language } = await translator(order, venue?.slug);
      await issueTickets(order, t);
      await queueConfirmation(order, t, language);
    },
  };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;
