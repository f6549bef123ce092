import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ShowList } from "~/components/show-list";
import { notFound, parseParams, slug } from "~/routing/params";
import { showListFor } from "~/routing/show-links.server";

export const handle = { title: (data: { venue?: { name: string } } | undefined) => data?.venue?.name };

export async function loader({ params, context }: LoaderFunctionArgs) {
  const { venueSlug } = parseParams(params, { venueSlug: slug });
  const venue = await context.catalogue.venue(venueSlug);
  if (!venue) throw notFound();
  return {
    venue: {
      name: venue.name,
      addressLines: venue.address_lines.split("\n"),
      city: venue.city,
      postcode: venue.postcode,
      region: venue.region,
    },
    shows: await showListFor(context, venueSlug),
  };
}

export default function Venue() {
  const { t } = useTranslation();
  const { venue, shows } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{venue.name}</h1>
      <address className="venue-address">
        {[...venue.addressLines, [venue.city, venue.region, venue.postcode].filter(Boolean).join(" ")].map((line) => (
          <span key={line}>
            {line}
            <br />
          </span>
        ))}
      </address>
      <h2>{t("venue.showsHeading")}</h2>
      <ShowList shows={shows} />
    </>
  );
}
