import type { Catalogue } from "~/ticketing/catalogue.server";
import type { IssuedTicket, Order, Orders } from "~/ticketing/orders.server";
import { parseContactDetails } from "~/views/contact-details";
import { accessServiceKey, accessServicesOf } from "~/views/access-services";
import { mapHref, venueAddressLines } from "~/views/venue-address";
import type { Summaries } from "./summary.server";

interface OrderViewReads {
  orders: Pick<Orders, "tickets" | "refundedAmount">;
  catalogue: Pick<Catalogue, "placeOfPerformance">;
  summaries: Summaries;
}

export function createOrderViews(reads: OrderViewReads) {
  return {
    /**
     * A paid order as the confirmation page, the e-tickets page and the email show it; with its
     * tickets when the caller has just issued them.
     */
    view: (order: Order, issued?: IssuedTicket[]) => orderView(reads, order, issued),
  };
}

export type OrderViews = ReturnType<typeof createOrderViews>;

async function orderView(reads: OrderViewReads, order: Order, known?: IssuedTicket[]) {
  const [performance, issued, refunded] = await Promise.all([
    order.performance_id ? reads.catalogue.placeOfPerformance(order.performance_id) : undefined,
    known ?? reads.orders.tickets(order.id),
    order.refund_status ? reads.orders.refundedAmount(order.id) : 0,
  ]);
  const summary = await reads.summaries.order(order, issued);
  // A void ticket's barcode is not handed to the page: it admits nobody, so nothing may show it.
  const tickets = issued.map(({ id, label, barcode, voided_at }) =>
    voided_at ? { id, label, barcode: null, voided: true } : { id, label, barcode, voided: false },
  );
  const contacts = parseContactDetails(order.contacts);
  const services = accessServicesOf(performance?.access_services);
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
    /**
     * The performance's access services, as the locale keys that word them (the sign language is
     * the venue's), and the catalogue's notes about them; null for a performance without any.
     */
    access:
      services.length > 0
        ? {
            services: services.map((service) => accessServiceKey(service, performance?.country)),
            notes: performance?.access_notes ?? null,
          }
        : null,
    delivery: order.delivery_method,
    address: order.delivery_method === "post" ? (contacts?.address ?? null) : null,
    tickets,
    summary,
    eTicketsKey: order.delivery_method === "eTicket" ? order.access_key : null,
    /**
     * Where the performance is and how to get there (null for an order of no performance). The
     * calendar entry hangs on the e-tickets key, so it is offered with e-tickets only.
     */
    visit: performance
      ? {
          lines: venueAddressLines(performance),
          mapHref: mapHref(performance.venue_name, venueAddressLines(performance)),
          travel: performance.travel_info,
          calendarPath:
            order.delivery_method === "eTicket" && order.access_key && performance.starts_at
              ? eTicketsCalendarPath(order.access_key)
              : null,
        }
      : null,
    /** What has been refunded: the whole order or part of it, and how much went back. */
    refund: order.refund_status ? { status: order.refund_status, amount: refunded, currency: order.currency } : null,
  };
}

/** A paid order's e-tickets, by the order's secret key. */
export function eTicketsPath(key: string): string {
  return `/e-tickets/${encodeURIComponent(key)}`;
}

/** The e-tickets' calendar entry, by the same secret key as the e-tickets themselves. */
export function eTicketsCalendarPath(key: string): string {
  return `${eTicketsPath(key)}/calendar.ics`;
}

export type OrderView = Awaited<ReturnType<typeof orderView>>;
