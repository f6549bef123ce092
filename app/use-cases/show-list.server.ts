import type { AppLoadContext } from "@remix-run/node";

import { showPath } from "~/urls/paths";
import type { ShowListItem } from "~/views/show-list";

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
