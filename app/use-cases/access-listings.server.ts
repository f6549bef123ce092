import type { AppLoadContext } from "@remix-run/node";
import type { TFunction } from "i18next";
import { bookable, saleState } from "~/ticketing/sale-window";
import { calendarPath, ticketsPath } from "~/urls/paths";
import { venueDay } from "~/urls/venue-days";
import {
  accessMarkKey,
  accessServiceKey,
  accessServicesOf,
  type AccessListingView,
  type AccessServiceView,
} from "~/views/access-services";
import { accessHazardsOf, type AccessHazard } from "~/views/access-hazards";

/**
 * The words of a page's access services and hazards, in the page's language and wording set (the
 * root loader's: the venue's in the address or the deployment's). Said on the server so the page
 * data names each service with its words (issue 43 item 4) and no page script words them again.
 */
export async function accessWording(request: Request, context: AppLoadContext, venueSlug?: string) {
  const language = await context.i18n.getLocale(request);
  const { t } = await context.i18n.createInstance(
    language,
    context.i18n.wordingSetFor(venueSlug ?? context.config.venueSlug),
  );
  return {
    t: t as TFunction,
    /** A performance's stored services, each with its words at a venue of this country. */
    services: (stored: string | null | undefined, country: string | undefined): AccessServiceView[] =>
      accessServicesOf(stored).map((service) => ({
        service,
        words: t(accessServiceKey(service, country)),
        mark: t(accessMarkKey(service, country)),
      })),
    /** A show's stored hazards, each with its words. */
    hazards: (stored: string | null | undefined): { hazard: AccessHazard; words: string }[] =>
      accessHazardsOf(stored).map((hazard) => ({ hazard, words: t(`hazard.${hazard}`) })),
  };
}

export type AccessWording = Awaited<ReturnType<typeof accessWording>>;

/**
 * Access performances still on sale after now, soonest first (only a venue's or a show's when
 * given; at most `limit`): a date already selling links to its tickets page, any other to its
 * calendar month, which says when it goes on sale.
 */
export async function accessListings(
  context: AppLoadContext,
  wording: AccessWording,
  only: { venueSlug?: string; titleSlug?: string },
  limit?: number,
): Promise<AccessListingView[]> {
  const mode = context.config.routingType;
  const now = context.clock.now();
  const found = await context.catalogue.accessPerformances(now, only);
  return found.slice(0, limit).map(({ performance, slug, name, venueSlug, venueName, venueCountry, timeZone }) => {
    const selling = bookable(saleState(performance, now, new Set()));
    return {
      id: performance.id,
      show: name,
      venue: venueName,
      venueSlug,
      startsAt: performance.startsAt,
      timeZone,
      services: wording.services(performance.accessServices, venueCountry),
      notes: performance.accessNotes,
      bookable: selling,
      href: selling
        ? ticketsPath(mode, slug, venueSlug, performance.id)
        : calendarPath(mode, slug, venueSlug, `${venueDay(performance.startsAt, timeZone, "yyyy-MM")}-01`),
    };
  });
}
