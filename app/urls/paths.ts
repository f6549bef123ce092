import type { CheckoutPageName, RoutingMode } from "./route-table.js";

// Where a show's pages live in each routing mode (spec section 2). Pages build links with these,
// never by hand, so a deployment can change ROUTING_TYPE and every link follows.

export function showPath(mode: RoutingMode, titleSlug: string, venueSlug: string): string {
  switch (mode) {
    case "MULTI_VENUE":
      return `/events/${titleSlug}/${venueSlug}`;
    case "SINGLE_VENUE":
      return `/events/${titleSlug}`;
    case "SINGLE_SHOW":
      return "/";
    default:
      return `/shows/${titleSlug}/${venueSlug}`;
  }
}

export function calendarPath(mode: RoutingMode, titleSlug: string, venueSlug: string, date?: string): string {
  const base = showPath(mode, titleSlug, venueSlug).replace(/\/$/, "");
  return `${base}/calendar${date ? `/${date}` : ""}`;
}

export function ticketsPath(mode: RoutingMode, titleSlug: string, venueSlug: string, performanceId: string): string {
  const base = showPath(mode, titleSlug, venueSlug).replace(/\/$/, "");
  return `${base}/tickets/${performanceId}`;
}

export function venuePath(venueSlug: string): string {
  return `/venues/${venueSlug}`;
}

/**
 * A checkout page's address, by its name: the one place the /checkout/ URLs are written. Which
 * page a buyer belongs on is the domain's to say (ticketing/checkout-steps.ts); this only finds it.
 */
export function checkoutPath(name: CheckoutPageName): `/checkout/${CheckoutPageName}` {
  return `/checkout/${name}`;
}

/** Where the server serves the shows' pictures (DATA_DIR/images). */
export const PICTURES_PATH = "/images";

/** A picture file's address, by its content-hashed name. */
export function picturePath(file: string): string {
  return `${PICTURES_PATH}/${file}`;
}

/** The venues page (the default routing mode). */
export function venuesPath(): string {
  return "/venues";
}

/** The access performances (issue 43), every routing mode's: all of them, or one venue's. */
export function accessPath(venueSlug?: string): string {
  return venueSlug ? `/access?venue=${encodeURIComponent(venueSlug)}` : "/access";
}
