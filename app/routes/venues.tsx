import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { venuePath } from "~/urls/paths";
import { venueAddressLines } from "~/views/venue-address";
import { headTags } from "~/components/page-head";
import { pageHead } from "~/web/page-head.server";

export const meta = headTags;

export const handle = { titleKey: "venues.title", keptPage: true };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const venues = await context.catalogue.venuesWithAddresses();
  return {
    head: await pageHead(request, context, { describe: (t) => t("seo.venues", { brand: t("brand.name") }) }),
    venues: venues.map((venue) => ({
      name: venue.name,
      href: venuePath(venue.slug),
      lines: venueAddressLines(venue),
    })),
  };
}

export default function Venues() {
  const { t } = useTranslation();
  const { venues } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("venues.title")}</h1>
      {venues.length === 0 ? (
        <p className="empty-state">{t("venues.empty")}</p>
      ) : (
        <ul className="venue-list">
          {venues.map((venue) => (
            <li key={venue.href} className="venue-list__item">
              <h2 className="venue-list__name">
                <Link to={venue.href}>{venue.name}</Link>
              </h2>
              <address className="venue-address">
                {venue.lines.map((line, index) => (
                  <span key={line}>
                    {index > 0 ? <br /> : null}
                    {line}
                  </span>
                ))}
              </address>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
