import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Paragraphs } from "~/components/venue-visit";
import { formatDateTime } from "~/i18n/format";
import { bookable, saleState } from "~/ticketing/sale-window";
import { calendarPath, ticketsPath } from "~/urls/paths";
import { accessServiceKey, accessServicesOf } from "~/views/access-services";
import { venueDay } from "~/urls/venue-days";

export const handle = { titleKey: "access.title", keptPage: true };

/**
 * Every access performance still on sale, soonest first, with each venue's access information:
 * what a buyer who needs a captioned or relaxed date looks for first. A single-venue or
 * single-show deployment lists only its own.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = context;
  const mode = config.routingType;
  const now = context.clock.now();
  const found = await context.catalogue.accessPerformances(now, {
    venueSlug: config.venueSlug,
    titleSlug: config.titleSlug,
  });
  const venueSlugs = [...new Set(found.map((entry) => entry.venueSlug))];
  const venues = await Promise.all(venueSlugs.map((slug) => context.catalogue.venue(slug)));
  return {
    performances: found.map(({ performance, slug, name, venueSlug, venueName, venueCountry, timeZone }) => ({
      id: performance.id,
      show: name,
      venue: venueName,
      startsAt: performance.startsAt,
      timeZone,
      services: accessServicesOf(performance.accessServices).map((service) => accessServiceKey(service, venueCountry)),
      notes: performance.accessNotes,
      // A date not yet on sale (or in a presale) is booked from its calendar, which says when.
      href: bookable(saleState(performance, now, new Set()))
        ? ticketsPath(mode, slug, venueSlug, performance.id)
        : calendarPath(mode, slug, venueSlug, `${venueDay(performance.startsAt, timeZone, "yyyy-MM")}-01`),
    })),
    venues: venues.flatMap((venue) => (venue?.access_info ? [{ name: venue.name, access: venue.access_info }] : [])),
  };
}

export default function Access() {
  const { t, i18n } = useTranslation();
  const { performances, venues } = useLoaderData<typeof loader>();
  return (
    <div className="access">
      <h1>{t("access.title")}</h1>
      <p>{t("access.intro")}</p>
      {performances.length === 0 ? (
        <p className="empty-state">{t("access.empty")}</p>
      ) : (
        <ol className="access-list">
          {performances.map((performance) => {
            const when = formatDateTime(performance.startsAt, performance.timeZone, i18n.language);
            return (
              <li key={performance.id} className="access-list__item">
                <p className="access-list__when">
                  <strong>
                    <time dateTime={performance.startsAt}>{when}</time>
                  </strong>
                </p>
                <p className="access-list__show">
                  {t("calendar.at", { show: performance.show, venue: performance.venue })}
                </p>
                <p className="access-list__services">
                  {t("access.services", {
                    list: performance.services.map((key) => t(key)).join(", "),
                  })}
                </p>
                {performance.notes ? <p className="access-list__notes">{performance.notes}</p> : null}
                <p>
                  <Link to={performance.href} aria-label={t("access.bookAria", { show: performance.show, when })}>
                    {t("access.book")}
                  </Link>
                </p>
              </li>
            );
          })}
        </ol>
      )}
      {venues.map((venue) => (
        <section key={venue.name} className="venue__section">
          <h2>{t("access.venueHeading", { venue: venue.name })}</h2>
          <Paragraphs text={venue.access} />
        </section>
      ))}
    </div>
  );
}
