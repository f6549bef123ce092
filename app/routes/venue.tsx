import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ShowCards } from "~/components/show-cards";
import { Paragraphs, VenueAddress } from "~/components/venue-visit";
import { notFound, parseParams, venueParams } from "~/urls/params";
import { showCardsFor } from "~/use-cases/show-list.server";
import { venuePhoneHandle } from "~/components/venue-phone-handle";
import { accessPath } from "~/urls/paths";
import { venueAddressLines } from "~/views/venue-address";
import { venuePlace } from "~/use-cases/structured-data.server";
import { StructuredData } from "~/components/structured-data";
import { headTags } from "~/components/page-head";
import { pageHead } from "~/web/page-head.server";

export const meta = headTags;

export const handle = {
  title: (data: { venue?: { name: string } } | undefined) => data?.venue?.name,
  keptPage: true,
  ...venuePhoneHandle,
};

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { venueSlug } = parseParams(params, venueParams);
  const venue = await context.catalogue.venue(venueSlug);
  if (!venue) throw notFound();
  return {
    head: await pageHead(request, context, {
      describe: (t) => t("seo.venue", { venue: venue.name, city: venue.city }),
      venueSlug,
    }),
    // What a search engine reads of the venue: a schema.org Place with its address and phone.
    structuredData: {
      "@context": "https://schema.org",
      ...venuePlace(context.config, {
        slug: venue.slug,
        name: venue.name,
        addressLines: venue.address_lines,
        city: venue.city,
        postcode: venue.postcode,
        region: venue.region,
        country: venue.country,
        telephone: venue.support_phone,
      }),
    },
    venue: {
      name: venue.name,
      lines: venueAddressLines(venue),
      phone: venue.support_phone,
      access: venue.access_info,
      travel: venue.travel_info,
      accessHref: accessPath(venue.slug),
    },
    shows: (await showCardsFor(context, { venueSlug })).cards,
    venuePhone: venue.support_phone,
  };
}

export default function Venue() {
  const { t } = useTranslation();
  const { venue, shows, structuredData } = useLoaderData<typeof loader>();
  return (
    <>
      <StructuredData data={structuredData} />
      <h1>{venue.name}</h1>
      <section className="venue__section" aria-labelledby="venue-address">
        <h2 id="venue-address">{t("venue.addressHeading")}</h2>
        <VenueAddress name={venue.name} lines={venue.lines} />
        <p>{t("venue.phone", { phone: venue.phone })}</p>
      </section>
      <section className="venue__section" aria-labelledby="venue-access">
        <h2 id="venue-access">{t("venuePage.accessHeading")}</h2>
        {venue.access ? <Paragraphs text={venue.access} /> : null}
        <p>
          <Link to={venue.accessHref}>{t("access.venue.link", { venue: venue.name })}</Link>
        </p>
      </section>
      {venue.travel ? (
        <section className="venue__section" aria-labelledby="venue-travel">
          <h2 id="venue-travel">{t("venuePage.travelHeading")}</h2>
          <Paragraphs text={venue.travel} />
        </section>
      ) : null}
      <section className="venue__section" aria-labelledby="venue-shows">
        <h2 id="venue-shows">{t("venue.showsHeading")}</h2>
        <ShowCards cards={shows} />
      </section>
    </>
  );
}
