/**
 * Access performances (issue 43): the services a performance can carry. A fixed set so the
 * catalogue, the calendar filter, the locale wording (`access.service.*`) and the structured data
 * all know every value; "signed" is BSL in the UK and ASL in the US, the wording set says which.
 * A view, so components (which read views, not the domain) share the one list with the catalogue.
 */
export const ACCESS_SERVICES = [
  "captioned",
  "audio-described",
  "signed",
  "relaxed",
  "touch-tour",
  "dementia-friendly",
  "chill-out-space",
] as const;
export type AccessService = (typeof ACCESS_SERVICES)[number];

export const isAccessService = (value: string): value is AccessService =>
  (ACCESS_SERVICES as readonly string[]).includes(value);

/** A stored comma-separated list ("captioned,signed"): the known values only, in the set's order. */
export function knownOf<T extends string>(known: readonly T[], stored: string | null | undefined): T[] {
  const named = new Set((stored ?? "").split(","));
  return known.filter((value) => named.has(value));
}

/** A performance's stored services ("captioned,signed"), known ones only, in the set's order. */
export const accessServicesOf = (stored: string | null | undefined): AccessService[] =>
  knownOf(ACCESS_SERVICES, stored);

/**
 * The locale key that words a service at a venue: the sign language is the venue's country's
 * (BSL in the UK, ASL in the US) whichever language the buyer reads; the rest follow the locale.
 */
export function accessServiceKey(service: AccessService, country?: "GB" | "US" | string): string {
  return service === "signed" && (country === "GB" || country === "US")
    ? `access.signedIn.${country}`
    : `access.service.${service}`;
}

/** A locale key under `stem` for a service at a venue: a signed one is the venue's sign language's. */
function keyAtVenue(stem: string, service: AccessService, country?: "GB" | "US" | string): string {
  return service === "signed" && (country === "GB" || country === "US")
    ? `${stem}.signedIn.${country}`
    : `${stem}.${service}`;
}

/**
 * The locale key stem that words seats suited to a service at a venue (`access.seats.*`: `.seat`
 * in a seat's name, `.key` in the seat map's key): signed seats face the venue's interpreter.
 */
export const suitedSeatsKey = (service: AccessService, country?: "GB" | "US" | string) =>
  keyAtVenue("access.seats", service, country);

/**
 * The locale key of a service's mark, the short sign beside its words ("CC", "AD", "BSL"), as
 * theatres print them: something to spot in a list, never the only way it is said.
 */
export const accessMarkKey = (service: AccessService, country?: "GB" | "US" | string) =>
  keyAtVenue("access.mark", service, country);

/** A set of services as bits, the Nth of ACCESS_SERVICES as 1 << N: cheap to intersect per seat. */
export const accessServiceBits = (services: readonly AccessService[]): number =>
  services.reduce((bits, service) => bits | (1 << ACCESS_SERVICES.indexOf(service)), 0);

/**
 * A service as a page's data names it: its key in the fixed set, for assistive tools and scripts
 * that read the data, and its words in the page's language, which the page shows (issue 43 item 4).
 */
export interface AccessServiceView {
  service: AccessService;
  words: string;
  /** Its mark ("CC"), shown beside the words and hidden from assistive technology, which has them. */
  mark: string;
}

/** How many access performances the home and show pages list before "See all access performances". */
export const NEXT_ACCESS_PERFORMANCES = 3;

/** One access performance as the lists of them (`/access`, the show and home pages) show it. */
export interface AccessListingView {
  id: string;
  show: string;
  venue: string;
  venueSlug: string;
  startsAt: string;
  timeZone: string;
  services: AccessServiceView[];
  notes: string | null;
  href: string;
  /** On sale: the link books it. Otherwise it goes to its calendar month, which says when it will be. */
  bookable: boolean;
}
