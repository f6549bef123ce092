import type { AppLoadContext } from "@remix-run/node";

import type { StoredPicture } from "~/ticketing/catalogue.server";
import { picturePath, showPath, venuePath } from "~/urls/paths";
import { venueDay } from "~/urls/venue-days";
import type { PictureView, ShowCardView, ShowListItem, ThisWeekItem } from "~/views/show-list";

/** Shows on sale (at one venue, when given), each run with the link to its page in this routing mode. */
export async function showListFor(context: AppLoadContext, venueSlug?: string): Promise<ShowListItem[]> {
  const shows = await context.catalogue.listShows(context.clock.now(), venueSlug);
  return shows.map((show) => ({
    slug: show.slug,
    name: show.name,
    ageGuidance: show.ageGuidance,
    runs: show.runs.map((run) => ({ ...run, href: showPath(context.config.routingType, show.slug, run.venueSlug) })),
  }));
}

const NEXT_DATES = 3;
const THIS_WEEK_DAYS = 7;
const THIS_WEEK_ITEMS = 8;

/** What the import made of a picture, as `<picture>` takes it. */
export function pictureView(picture: StoredPicture): PictureView {
  const srcSet = (format: string) =>
    picture.sources
      .filter((source) => source.format === format)
      .map((source) => `${picturePath(source.file)} ${source.width}w`)
      .join(", ");
  const jpegs = picture.sources.filter((source) => source.format === "jpeg");
  // The fallback: a middle size, which a browser without srcset shows well enough on any screen.
  const fallback = jpegs.find((source) => source.width >= 640) ?? jpegs[jpegs.length - 1]!;
  return {
    alt: picture.alt,
    width: fallback.width,
    height: fallback.height,
    sources: (["avif", "webp"] as const)
      .filter((format) => picture.sources.some((source) => source.format === format))
      .map((format) => ({ type: `image/${format}`, srcSet: srcSet(format) })),
    src: picturePath(fallback.file),
    srcSet: srcSet("jpeg"),
  };
}

/**
 * A run's "from" price, the one its card on the home page shows: the domain's lowest all-in price
 * (face value and booking fee) of the plans its performances still on sale sell. Null when none is.
 */
export async function runFromPrice(
  context: AppLoadContext,
  run: { runId: string; venueSlug: string; currency: string },
): Promise<{ amount: number; currency: string } | null> {
  const onSale = (await context.catalogue.runsOnSale(context.clock.now(), run.venueSlug)).find(
    (candidate) => candidate.runId === run.runId,
  );
  const lowest = onSale ? await context.availability.lowestPrice(onSale.performances.map((p) => p.planId)) : null;
  return lowest === null ? null : { amount: lowest, currency: run.currency };
}

export interface ShowCardFilter {
  /** Only this venue's shows. */
  venueSlug?: string;
  /** Only shows playing on this day (YYYY-MM-DD, in each venue's time zone). */
  day?: string;
}

/**
 * The cards of the shows on sale (one per show and venue): poster, "from" price (the domain's
 * lowest all-in price), venue and next dates; the performances of the coming week; and the venues
 * with shows on sale, for the filter.
 */
export async function showCardsFor(
  context: AppLoadContext,
  filter: ShowCardFilter = {},
): Promise<{ cards: ShowCardView[]; thisWeek: ThisWeekItem[]; venues: { slug: string; name: string }[] }> {
  const now = context.clock.now();
  const mode = context.config.routingType;
  const all = await context.catalogue.runsOnSale(now);
  const venues = [...new Map(all.map((run) => [run.venueSlug, run.venueName]))]
    .map(([slug, name]) => ({ slug, name }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const runs = all
    .filter((run) => !filter.venueSlug || run.venueSlug === filter.venueSlug)
    .map((run) => ({
      ...run,
      shown: filter.day
        ? run.performances.filter((p) => venueDay(p.startsAt, run.timeZone, "yyyy-MM-dd") === filter.day)
        : run.performances,
    }))
    .filter((run) => run.shown.length > 0);
  const cards = await Promise.all(
    runs.map(async (run): Promise<ShowCardView> => {
      const [lowest, pictures] = await Promise.all([
        context.availability.lowestPrice(run.performances.map((p) => p.planId)),
        context.catalogue.picturesOf(run.slug),
      ]);
      return {
        slug: run.slug,
        name: run.name,
        ageGuidance: run.ageGuidance,
        href: showPath(mode, run.slug, run.venueSlug),
        venueName: run.venueName,
        city: run.city,
        venueHref: mode === "DEFAULT" ? venuePath(run.venueSlug) : null,
        timeZone: run.timeZone,
        fromPrice: lowest === null ? null : { amount: lowest, currency: run.currency },
        nextDates: run.shown.slice(0, NEXT_DATES).map((p) => p.startsAt),
        poster: pictures.poster ? pictureView(pictures.poster) : null,
      };
    }),
  );
  const weekEnd = new Date(now.getTime() + THIS_WEEK_DAYS * 86_400_000).toISOString();
  const thisWeek = filter.day
    ? []
    : runs
        .flatMap((run) =>
          run.performances
            .filter((p) => p.startsAt < weekEnd)
            .map((p) => ({
              id: p.id,
              name: run.name,
              venueName: run.venueName,
              startsAt: p.startsAt,
              timeZone: run.timeZone,
              href: showPath(mode, run.slug, run.venueSlug),
            })),
        )
        .sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.name.localeCompare(b.name))
        .slice(0, THIS_WEEK_ITEMS);
  return { cards, thisWeek, venues };
}
