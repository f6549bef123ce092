// The shows list as the home, venue and show pages give it to the components.

export interface ShowListItem {
  slug: string;
  name: string;
  ageGuidance: string;
  runs: {
    href: string;
    venueName: string;
    city: string;
    timeZone: string;
    firstPerformance: string;
    lastPerformance: string;
  }[];
}

/** A picture in every size and format the import made, for `<picture>`: the browser picks. */
export interface PictureView {
  alt: string;
  /** The fallback `<img>`'s size (every size has the same shape), so the page keeps its space. */
  width: number;
  height: number;
  /** AVIF then WebP, each with its sizes. */
  sources: { type: string; srcSet: string }[];
  /** The JPEG sizes, for browsers that take neither. */
  src: string;
  srcSet: string;
}

/** One show at one venue on the home and venue pages. */
export interface ShowCardView {
  slug: string;
  name: string;
  ageGuidance: string;
  href: string;
  venueName: string;
  city: string;
  /** The venue's page, where there are venue pages (the default routing mode). */
  venueHref: string | null;
  timeZone: string;
  /** The lowest all-in price of a ticket (the domain's), in minor units, or null when none is priced. */
  fromPrice: { amount: number; currency: string } | null;
  /** The next few performances' start times. */
  nextDates: string[];
  poster: PictureView | null;
}

/** A performance in the "this week" strip. */
export interface ThisWeekItem {
  id: string;
  name: string;
  venueName: string;
  startsAt: string;
  timeZone: string;
  href: string;
}
