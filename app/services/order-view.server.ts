import type { Store } from "~/db/connection.server";
import type { Order } from "~/ticketing/orders.server";
import { parseContactDetails } from "~/views/contact-details";
import type { Summaries } from "./summary.server";

export function createOrderViews(store: Store, summaries: Summaries) {
  return {
    /** A paid order as the confirmation page, the e-tickets page and the email show it. */
    view: (order: Order) => orderView(store.db, summaries, order),
  };
}

export type OrderViews = ReturnType<typeof createOrderViews>;

async function orderView(db: Store["db"], summaries: Summaries, order: Order) {
  const [performance, tickets, summary] = await Promise.all([
    db
      .selectFrom("performances")
      .innerJoin("runs", "runs.id", "performances.run_id")
      .innerJoin("venues", "venues.id", "runs.venue_id")
      .select([
        "performances.starts_at",
        "venues.name as venue_name",
        "venues.slug as venue_slug",
        "venues.time_zone",
        "venues.support_phone",
      ])
      .where("performances.id", "=", order.performance_id ?? "")
      .executeTakeFirst(),
    db
      .selectFrom("order_tickets")
      .select(["id", "label", "barcode"])
      .where("order_id", "=", order.id)
      .orderBy("sort_order")
      .execute(),
    summaries.order(order),
  ]);
  const contacts = parseContactDetails(order.contacts);
  return {
    number: order.number,
    customerName: order.customer_name,
    email: order.email,
    showName: order.show_name,
    venueName: performance?.venue_name ?? "",
    venueSlug: performance?.venue_slug ?? "",
    /** The venue's own number; null without a venue, where the deployment's is given. */
    supportPhone: performance?.support_phone ?? null,
    startsAt: performance?.starts_at ?? "",
    timeZone: performance?.time_zone ?? "UTC",
    delivery: order.delivery_method,
    address: order.delivery_method === "post" ? (contacts?.address ?? null) : null,
    tickets,
    summary,
    eTicketsKey: order.delivery_method === "eTicket" ? order.access_key : null,
  };
}

export type OrderView = Awaited<ReturnType<typeof orderView>>;
