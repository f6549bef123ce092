import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ShowList } from "~/components/show-list";
import { notFound, parseParams, venueParams } from "~/urls/params";
import { showListFor } from "~/use-cases/show-list.server";
import { venuePhoneHandle } from "~/components/venue-phone-handle";

export const handle = {
  title: (data: { venue?: { name: string } } | undefined) => data?.venue?.name,
  keptPage: true,
  ...venuePhoneHandle,
};

export async function loader({ params, context }: LoaderFunctionArgs) {
  const { venueSlug } = parseParams(params, venueParams);
  const venue = await context.catalogue.venue(venueSlug);
  if (!venue) throw notFound();
  return {
    venue: {
      name: venue.name,
      addressLines: venue.address_lines.split("\n").filter(Boolean),
      city: venue.city,
      postcode: venue.postcode,
      region: venue.region,
      phone: venue.support_phone,
    },
    shows: await showListFor(context, venueSlug),
    venuePhone: venue.support_phone,
  };
}

export default function Venue() {
  const { t } = useTranslation();
  const { venue, shows } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{venue.name}</h1>
      <section className="venue__section" aria-labelledby="venue-address">
        <h2 id="venue-address">{t("venue.addressHeading")}</h2>
        <address className="venue-address">
          {venue.name}
          {[...venue.addressLines, [venue.city, venue.region, venue.postcode].filter(Boolean).join(" ")].map((line) => (
            <span key={line}>
              <br />
              {line}
            </span>
          ))}
        </address>
        <p>{t("venue.phone", { phone: venue.phone })}</p>
      </section>
      <section className="venue__section" aria-labelledby="venue-shows">
        <h2 id="venue-shows">{t("venue.showsHeading")}</h2>
        <ShowList shows={shows} headingLevel={3} />
      </section>
    </>
  );
}
