import type { AppLoadContext } from "@remix-run/node";
import { accessServicesOf, type AccessService } from "~/views/access-services";
import { accessHazardsOf } from "~/views/access-hazards";
import type { AccessWording } from "./access-listings.server";
import { formatInTimeZone } from "date-fns-tz";
import { decimalAmount } from "~/ticketing/pricing";
import { picturePath, ticketsPath, venuePath } from "~/urls/paths";
import { COMMON_NS } from "~/i18n/languages";
import type { ShareCard } from "~/views/share-card";

// What a search engine and a link preview read of a show's and a performance's pages (issue 40
// item 4): schema.org events as JSON-LD, and the page's share card (Open Graph, Twitter). Every
// price is the domain's all-in price (pricing.ts bandPrice, through availability.lowestPrices),
// turned into a decimal string only here, at the edge; availability is the calendar's own level.

/** The show as showAtVenue reads it: what an event listing needs of it. */
export interface ListedShow {
  slug: string;
  name: string;
  description: string;
  venueSlug: string;
  venueName: string;
  addressLines: string;
  city: string;
  postcode: string;
  region: string | null;
  country: string;
  currency: string;
  timeZone: string;
  genre: string | null;
  performers: string;
  imageUrl: string | null;
  /** How long a performance lasts, intervals included: its end, for endDate and duration. */
  runningTimeMinutes: number;
  /** When the catalogue import added the show (null: before this was recorded). */
  importedAt?: string | null;
  /** What it warns of, as stored ("flashing,noSoundHazard"); nothing said when absent. */
  accessHazards?: string | null;
}

export interface ListedPerformance {
  id: string;
  startsAt: string;
  onSaleFrom: string;
  /** A presale opens the sale before onSaleFrom, to its audience. */
  presaleFrom?: string | null;
  status: "on_sale" | "cancelled";
  level: "good" | "medium" | "low" | "soldOut";
  /** Its access services as stored ("captioned,signed"); none when absent. */
  accessServices?: string | null;
  /** What a buyer needs to know of them. */
  accessNotes?: string | null;
}

// schema.org's accessibilityFeature vocabulary has words for these services only (a touch tour's
// set and costumes are its "tactileObject"). A relaxed or dementia-friendly performance or a
// chill-out space has no word there: it is said as the audience it is for, in the page's words,
// rather than in a feature word a search engine would misread.
const ACCESSIBILITY_FEATURES: Partial<Record<AccessService, string>> = {
  captioned: "captions",
  "audio-described": "audioDescription",
  signed: "signLanguage",
  "touch-tour": "tactileObject",
};

function accessibilityFeatures(stored: string | null | undefined): string[] {
  return accessServicesOf(stored).flatMap((service) => ACCESSIBILITY_FEATURES[service] ?? []);
}

/** ISO 8601's duration of a running time ("PT2H30M"), as schema.org's `duration` takes it. */
export function isoDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `PT${hours > 0 ? `${hours}H` : ""}${rest > 0 || hours === 0 ? `${rest}M` : ""}`;
}

/**
 * When a performance's sale opened: its presale's start, else its general sale's. Unknown (null)
 * when that is no later than the show's import: the catalogue then said only "on sale now", and
 * the moment the server loaded it is no on-sale date a search engine should show.
 */
export function saleOpened(
  performance: Pick<ListedPerformance, "onSaleFrom" | "presaleFrom">,
  importedAt: string | null | undefined,
): string | null {
  const opened = [performance.presaleFrom, performance.onSaleFrom]
    .filter((moment): moment is string => Boolean(moment))
    .sort()[0]!;
  return importedAt && opened <= importedAt ? null : opened;
}

/** A venue as schema.org's Place: its address, and its page where the routing mode has one. */
export function venuePlace(
  config: Pick<AppLoadContext["config"], "publicUrl" | "routingType">,
  venue: {
    slug: string;
    name: string;
    addressLines: string;
    city: string;
    postcode: string;
    region: string | null;
    country: string;
    telephone?: string | null;
  },
) {
  return {
    "@type": "Place",
    name: venue.name,
    ...(config.routingType === "DEFAULT" && { url: absolute(config.publicUrl, venuePath(venue.slug)) }),
    address: {
      "@type": "PostalAddress",
      streetAddress: venue.addressLines.split("\n").filter(Boolean).join(", "),
      addressLocality: venue.city,
      ...(venue.region && { addressRegion: venue.region }),
      postalCode: venue.postcode,
      addressCountry: venue.country,
    },
    ...(venue.telephone && { telephone: venue.telephone }),
  };
}

const AVAILABILITY = {
  good: "https://schema.org/InStock",
  medium: "https://schema.org/InStock",
  low: "https://schema.org/LimitedAvailability",
  soldOut: "https://schema.org/SoldOut",
} as const;

/** A site path or an absolute address made absolute against the site's public address. */
const absolute = (publicUrl: string, pathOrUrl: string) => new URL(pathOrUrl, `${publicUrl}/`).toString();

function performersOf(show: ListedShow) {
  let listed: { name: string; kind: string }[] = [];
  try {
    listed = JSON.parse(show.performers) as { name: string; kind: string }[];
  } catch {
    // A row written by hand that is not JSON names nobody: the listing goes without performers.
  }
  const group = show.genre === "music" ? "MusicGroup" : "PerformingGroup";
  return listed.map((performer) => ({
    "@type": performer.kind === "person" ? "Person" : group,
    name: performer.name,
  }));
}

/**
 * schema.org events for these performances of a show, one each: a MusicEvent when the catalogue
 * says the show is music, a TheaterEvent otherwise. Dates carry the venue's UTC offset.
 */
/**
 * The show's picture for search engines and share cards: its poster's largest JPEG (the format
 * every crawler reads), else the address the catalogue's older `image` field gave; null for none.
 */
async function imageOf(context: AppLoadContext, show: ListedShow): Promise<string | null> {
  const { poster } = await context.catalogue.picturesOf(show.slug);
  const largest = (poster?.sources ?? [])
    .filter((source) => source.format === "jpeg")
    .reduce<{
      width: number;
      file: string;
    } | null>((best, source) => (best && best.width >= source.width ? best : source), null);
  return largest ? picturePath(largest.file) : show.imageUrl;
}

export async function eventListings(
  context: AppLoadContext,
  show: ListedShow,
  performances: ListedPerformance[],
  /** The page's words for the services: each access performance sums them up in them too. */
  wording: AccessWording,
) {
  const { publicUrl, routingType: mode } = context.config;
  const [prices, image] = await Promise.all([
    context.availability.lowestPrices(performances.map((performance) => performance.id)),
    imageOf(context, show),
  ]);
  const local = (iso: string) => formatInTimeZone(new Date(iso), show.timeZone, "yyyy-MM-dd'T'HH:mm:ssxxx");
  const performers = performersOf(show);
  // schema.org's own words, as the catalogue gives them: a hazard the show has, or says it has not.
  const hazards = accessHazardsOf(show.accessHazards);
  const location = venuePlace(context.config, { ...show, slug: show.venueSlug, name: show.venueName });
  // The venue puts the performance on: its page where it has one, else the site where the site is
  // the venue's own (one venue or one show); a site of several venues without venue pages has none.
  const organizer = {
    "@type": "Organization",
    name: show.venueName,
    ...(mode === "DEFAULT"
      ? { url: absolute(publicUrl, venuePath(show.venueSlug)) }
      : mode !== "MULTI_VENUE" && { url: `${publicUrl}/` }),
  };
  const duration = show.runningTimeMinutes > 0 ? isoDuration(show.runningTimeMinutes) : null;
  return performances.map((performance) => {
    const url = absolute(publicUrl, ticketsPath(mode, show.slug, show.venueSlug, performance.id));
    const price = prices.get(performance.id);
    const features = accessibilityFeatures(performance.accessServices);
    // Every service in words, those schema.org has no word for too (a relaxed performance).
    const services = wording.services(performance.accessServices, show.country);
    const audiences = services.filter((service) => !ACCESSIBILITY_FEATURES[service.service]);
    const validFrom = saleOpened(performance, show.importedAt);
    const ends = new Date(new Date(performance.startsAt).getTime() + show.runningTimeMinutes * 60_000);
    const summary = services.length
      ? [
          wording.t("access.services", { list: services.map((service) => service.words).join(", ") }),
          performance.accessNotes,
        ]
          .filter(Boolean)
          .join(". ")
      : null;
    return {
      "@context": "https://schema.org",
      "@type": show.genre === "music" ? "MusicEvent" : "TheaterEvent",
      name: show.name,
      description: show.description,
      startDate: local(performance.startsAt),
      ...(duration && { endDate: local(ends.toISOString()), duration }),
      eventStatus:
        performance.status === "cancelled" ? "https://schema.org/EventCancelled" : "https://schema.org/EventScheduled",
      eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
      url,
      ...(image && { image: [absolute(publicUrl, image)] }),
      location,
      organizer,
      ...(performers.length > 0 && { performer: performers }),
      ...(features.length > 0 && { accessibilityFeature: features }),
      ...(audiences.length > 0 && {
        audience: audiences.map((service) => ({ "@type": "Audience", audienceType: service.words })),
      }),
      ...(hazards.length > 0 && { accessibilityHazard: hazards }),
      ...(summary && { accessibilitySummary: summary }),
      ...(price !== undefined &&
        price !== null && {
          offers: {
            "@type": "Offer",
            url,
            price: decimalAmount(price),
            priceCurrency: show.currency,
            availability: AVAILABILITY[performance.level],
            ...(validFrom && { validFrom: local(validFrom) }),
          },
        }),
    };
  });
}

/**
 * The share card of a show's page, or of one of its performances' (the tickets page). The site's
 * name is the deployment's in the buyer's language (the brand's when configured), not the venue's.
 */
export async function showShareCard(
  request: Request,
  context: AppLoadContext,
  show: ListedShow,
  page: { title: string; path: string },
): Promise<ShareCard> {
  const common = await context.i18n.createInstance(await context.i18n.getLocale(request), COMMON_NS);
  return {
    title: page.title,
    description: show.description,
    type: "website",
    url: absolute(context.config.publicUrl, page.path),
    image: await imageOf(context, show).then((image) => image && absolute(context.config.publicUrl, image)),
    siteName: common.t("brand.name"),
  };
}
