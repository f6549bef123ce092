import type { AppLoadContext } from "@remix-run/node";
import type { Reservation } from "~/ticketing/reservation-view.server";
import { basketOrder, paidOrder } from "./order-pages.server";

// Spec section 8 tells a buyer whose payment failed or timed out to phone the venue, so the
// checkout gives the venue's own number (the store's, as the catalogue sets it), not the
// deployment's: that one reaches nobody who can see this booking.

/**
 * The phone number of the venue this buyer's checkout is with: the held seats' venue; else the
 * venue of the basket's order (a failed or unanswered payment whose hold has gone), else of the
 * order just paid. Null when the checkout is with no venue (a membership on its own, or nothing at
 * all): the page then gives the deployment's number.
 */
export async function checkoutVenuePhone(
  request: Request,
  context: AppLoadContext,
  reservation: Reservation | null,
): Promise<string | null> {
  if (reservation) return reservation.show.venuePhone;
  const order = (await basketOrder(request, context)) ?? (await paidOrder(request, context));
  return order?.performance_id ? context.catalogue.venuePhoneOfPerformance(order.performance_id) : null;
}
