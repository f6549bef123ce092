import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ShowCards, ShowFilters, ThisWeek } from "~/components/show-cards";
import { isIsoDate, isSlug } from "~/urls/param-values";
import { emptyOr, type KeptQuery, type PageQueryHandle } from "~/urls/page-query";
import { accessPath, showPath, venuesPath } from "~/urls/paths";
import { showCardsFor } from "~/use-cases/show-list.server";
import { AccessNext } from "~/components/access-list";
import { accessListings, accessWording } from "~/use-cases/access-listings.server";
import { NEXT_ACCESS_PERFORMANCES } from "~/views/access-services";
import { headTags } from "~/components/page-head";
import { pageHead } from "~/web/page-head.server";

export const meta = headTags;

export const handle: PageQueryHandle & { titleKey: string } = {
  titleKey: "home.title",
  keptPage: true,
  query: ["venue", "date"],
};
export const keptQuery: KeptQuery = {
  venue: (value) => emptyOr(value, isSlug),
  date: (value) => emptyOr(value, isIsoDate),
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { config } = context;
  // A single-venue site configured with a show (TITLE_SLUG) opens on that show.
  if (config.routingType === "SINGLE_VENUE" && config.titleSlug && config.venueSlug) {
    throw redirect(showPath(config.routingType, config.titleSlug, config.venueSlug));
  }
  const url = new URL(request.url);
  const singleVenue = config.routingType === "SINGLE_VENUE" ? config.venueSlug : undefined;
  // A filter that does not fit (an unknown venue, a day that is no date) is no filter.
  const askedDay = url.searchParams.get("date") ?? "";
  const day = isIsoDate(askedDay) ? askedDay : "";
  const askedVenue = url.searchParams.get("venue") ?? "";
  const { cards, thisWeek, venues } = await showCardsFor(context, {
    venueSlug: singleVenue ?? (askedVenue || undefined),
    day: day || undefined,
  });
  const venue = !singleVenue && venues.some((entry) => entry.slug === askedVenue) ? askedVenue : "";
  // The next access performances, of the venue chosen (or the deployment's) when there is one.
  const accessNext =
    askedVenue && !venue && !singleVenue
      ? []
      : await accessListings(
          context,
          await accessWording(request, context),
          { venueSlug: singleVenue ?? (venue || undefined) },
          NEXT_ACCESS_PERFORMANCES,
        );
  return {
    // A venue or a day chosen filters the listing: it makes no other page.
    head: await pageHead(request, context, { describe: (t) => t("seo.home", { brand: t("brand.name") }) }),
    cards: askedVenue && !venue && !singleVenue ? [] : cards,
    thisWeek: askedVenue && !venue && !singleVenue ? [] : thisWeek,
    // One venue's site has nothing to choose between.
    venues: singleVenue ? null : venues,
    filter: { venue, day },
    venuesHref: config.routingType === "DEFAULT" ? venuesPath() : null,
    accessNext,
    // All of them: the chosen venue's, when the list is of one venue's.
    accessHref: accessPath(venue || undefined),
  };
}

export default function Home() {
  const { t } = useTranslation();
  const { cards, thisWeek, venues, filter, venuesHref, accessNext, accessHref } = useLoaderData<typeof loader>();
  const filtered = Boolean(filter.venue || filter.day);
  return (
    <div className="home">
      <h1>{t("home.title")}</h1>
      <ShowFilters venues={venues} venue={filter.venue} day={filter.day} />
      {venuesHref ? (
        <p className="home__venues">
          <Link to={venuesHref}>{t("venues.link")}</Link>
        </p>
      ) : null}
      <ThisWeek items={thisWeek} />
      <AccessNext performances={accessNext} allHref={accessHref} />
      <section className="home__shows" aria-labelledby="home-shows">
        <h2 id="home-shows">{filtered ? t("showCards.matching") : t("showCards.allShows")}</h2>
        {filtered ? (
          <p>
            <Link to="/">{t("showCards.clear")}</Link>
          </p>
        ) : null}
        <ShowCards cards={cards} />
      </section>
    </div>
  );
}
