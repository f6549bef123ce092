import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AccessList } from "~/components/access-list";
import { Paragraphs } from "~/components/venue-visit";
import { accessListings, accessWording } from "~/use-cases/access-listings.server";
import { notFound } from "~/urls/params";
import { isSlug } from "~/urls/param-values";
import type { KeptQuery } from "~/urls/page-query";
import { headTags } from "~/components/page-head";
import { pageHead } from "~/web/page-head.server";

export const meta = headTags;

export const handle = {
  title: (data: { heading?: string } | undefined) => data?.heading,
  keptPage: true,
  query: ["venue"],
};
export const keptQuery: KeptQuery = { venue: isSlug };

/**
 * Every access performance still on sale, soonest first, with each venue's access information:
 * what a buyer who needs a captioned or relaxed date looks for first. A single-venue or
 * single-show deployment lists only its own; `?venue=` lists one venue's (the venue page links
 * there, and a GET form chooses one), in every routing mode. A venue that is not there is a 404.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { config } = context;
  const asked = new URL(request.url).searchParams.get("venue") || undefined;
  if (asked !== undefined && (!isSlug(asked) || (config.venueSlug && asked !== config.venueSlug))) throw notFound();
  const chosen = asked ? await context.catalogue.venue(asked) : undefined;
  if (asked && !chosen) throw notFound();
  const venueSlug = asked ?? config.venueSlug;
  const wording = await accessWording(request, context);
  const performances = await accessListings(context, wording, { venueSlug, titleSlug: config.titleSlug });
  // The venues whose access information the page gives: the chosen one, or those it lists.
  const venues = chosen
    ? [chosen]
    : await Promise.all(
        [...new Set(performances.map((entry) => entry.venueSlug))].map((venue) => context.catalogue.venue(venue)),
      );
  return {
    // One venue's access performances are a page of their own (the sitemap lists each).
    head: await pageHead(request, context, {
      describe: (t) =>
        chosen ? t("seo.accessAtVenue", { venue: chosen.name }) : t("seo.access", { brand: t("brand.name") }),
      keep: ["venue"],
    }),
    heading: chosen ? wording.t("access.venue.title", { venue: chosen.name }) : wording.t("access.title"),
    venue: chosen ? { slug: chosen.slug, name: chosen.name } : null,
    performances,
    venues: venues.flatMap((venue) => (venue?.access_info ? [{ name: venue.name, access: venue.access_info }] : [])),
    // One venue's deployment has nothing to choose between.
    choices: config.venueSlug ? null : await context.catalogue.listVenues(),
  };
}

export default function Access() {
  const { t } = useTranslation();
  const { heading, venue, performances, venues, choices } = useLoaderData<typeof loader>();
  return (
    <div className="access">
      <h1>{heading}</h1>
      <p>{t(venue ? "access.venue.intro" : "access.intro")}</p>
      {choices ? (
        <Form method="get" action="/access" className="access__venues">
          <label htmlFor="access-venue">{t("access.venue.label")}</label>{" "}
          <select id="access-venue" name="venue" defaultValue={venue?.slug ?? ""} key={venue?.slug ?? ""}>
            <option value="">{t("access.venue.all")}</option>
            {choices.map((choice) => (
              <option key={choice.slug} value={choice.slug}>
                {choice.name}
              </option>
            ))}
          </select>{" "}
          <button type="submit">{t("access.venue.submit")}</button>
        </Form>
      ) : null}
      {performances.length === 0 ? (
        <p className="empty-state">{venue ? t("access.venue.empty", { venue: venue.name }) : t("access.empty")}</p>
      ) : (
        <AccessList performances={performances} />
      )}
      {venues.map((entry) => (
        <section key={entry.name} className="venue__section">
          <h2>{t("access.venueHeading", { venue: entry.name })}</h2>
          <Paragraphs text={entry.access} />
        </section>
      ))}
    </div>
  );
}
