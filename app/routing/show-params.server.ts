import type { Params } from "@remix-run/react";
import type { AppLoadContext } from "@remix-run/node";
import { notFound, parseParams, slug } from "./params";

/**
 * The show a page belongs to. In the single-show mode it is the configured one; in the
 * single-venue mode the venue is the configured one; elsewhere both come from the URL.
 */
export function showFromParams(params: Params, context: AppLoadContext) {
  const { config } = context;
  const { titleSlug = config.titleSlug, venueSlug = config.venueSlug } = parseParams(params, {
    titleSlug: slug.optional(),
    venueSlug: slug.optional(),
  });
  if (!titleSlug) throw notFound();
  return { titleSlug, venueSlug };
}
