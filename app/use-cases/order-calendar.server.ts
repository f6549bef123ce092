import ical, { ICalCalendarMethod } from "ical-generator";
import type { Clock } from "~/clock";
import type { Catalogue } from "~/ticketing/catalogue.server";
import type { Orders } from "~/ticketing/orders.server";
import { addressQuery, venueAddressLines } from "~/views/venue-address";
import { eTicketsPath } from "./order-view.server";

// "Add to calendar" (issue 56 item 6): a paid order's performance as an iCalendar file (RFC 5545),
// found by the same secret key as its e-tickets. The times are written in UTC ("…Z"), not as the
// venue's TZID: a TZID needs a VTIMEZONE beside it, which would be a copy of the zone's rules as
// a library last knew them, and calendar apps differ in how they read one (Outlook maps it to its
// own zones); an instant in UTC every app imports alike, and shows at the venue's local time to
// anyone whose device is in the venue's zone. The instant itself is the catalogue's, set in the
// venue's time zone when the performance was imported. See docs/decisions/0065-calendar-files.md.

export function createOrderCalendars(deps: {
  orders: Pick<Orders, "byAccessKey">;
  catalogue: Pick<Catalogue, "placeOfPerformance">;
  clock: Clock;
  publicUrl: string;
}) {
  const { orders, catalogue, clock, publicUrl } = deps;
  return {
    /** The order's calendar file; undefined for an unknown key, an unpaid order or one of no performance. */
    async file(key: string): Promise<string | undefined> {
      const order = await orders.byAccessKey(key);
      if (!order || order.status !== "paid" || !order.performance_id) return undefined;
      const place = await catalogue.placeOfPerformance(order.performance_id);
      if (!place?.starts_at) return undefined;
      const start = new Date(place.starts_at);
      const calendar = ical({
        prodId: { company: "Box Office", product: "Tickets", language: "EN" },
        method: ICalCalendarMethod.PUBLISH,
      });
      calendar.createEvent({
        // Stable for the order and its performance: importing the file again updates the entry.
        id: `${order.id}.${order.performance_id}@${new URL(publicUrl).hostname}`,
        stamp: clock.now(),
        start,
        end: new Date(start.getTime() + place.running_time_minutes * 60_000),
        summary: order.show_name,
        location: addressQuery(place.venue_name, venueAddressLines(place)),
        url: `${publicUrl}${eTicketsPath(key)}`,
      });
      return calendar.toString();
    },
  };
}

export type OrderCalendars = ReturnType<typeof createOrderCalendars>;
