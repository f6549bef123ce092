import type { AppLoadContext } from "@remix-run/node";
import type { Params } from "@remix-run/react";
import { notFound, parseParams, showParams } from "~/urls/params";

/**
 * The show a page belongs to, as it plays at its venue. In the single-show mode it is the
 * configured one; in the single-venue mode the venue is the configured one; elsewhere both come
 * from the URL. A show that does not play there is a 404.
 */
export async function showFromParams(params: Params, context: AppLoadContext) {
  const { config } = context;
  const { titleSlug = config.titleSlug, venueSlug = config.venueSlug } = parseParams(params, showParams);
  if (!titleSlug || !venueSlug) throw notFound();
  const show = await context.catalogue.showAtVenue(titleSlug, venueSlug);
  if (!show) throw notFound();
  return show;
}
