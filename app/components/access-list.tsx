import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "~/i18n/format";
import type { AccessListingView } from "~/views/access-services";
import { AccessServices } from "./access-services";

/**
 * Access performances in date order, each with its date and time, its services in words (from
 * the page's data), its notes and a link: to book it, or to its calendar month when it is not on
 * sale yet. `where` leaves out the show and venue on a show's own page, which names them already.
 */
export function AccessList({ performances, where = true }: { performances: AccessListingView[]; where?: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <ol className="access-list">
      {performances.map((performance) => {
        const when = formatDateTime(performance.startsAt, performance.timeZone, i18n.language);
        const label = { show: performance.show, when };
        return (
          <li key={performance.id} className="access-list__item">
            <p className="access-list__when">
              <strong>
                <time dateTime={performance.startsAt}>{when}</time>
              </strong>
            </p>
            {where ? (
              <p className="access-list__show">
                {t("calendar.at", { show: performance.show, venue: performance.venue })}
              </p>
            ) : null}
            <p className="access-list__services">
              <AccessServices services={performance.services} />
            </p>
            {performance.notes ? <p className="access-list__notes">{performance.notes}</p> : null}
            <p>
              {performance.bookable ? (
                <Link to={performance.href} aria-label={t("access.bookAria", label)}>
                  {t("access.book")}
                </Link>
              ) : (
                <Link to={performance.href} aria-label={t("access.next.calendarAria", label)}>
                  {t("access.next.calendar")}
                </Link>
              )}
            </p>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The next few access performances, on the home and show pages, and the way to all of them.
 * Nothing at all when there are none: the pages say enough without an empty section.
 */
export function AccessNext({
  performances,
  allHref,
  where = true,
}: {
  performances: AccessListingView[];
  allHref: string;
  where?: boolean;
}) {
  const { t } = useTranslation();
  if (performances.length === 0) return null;
  return (
    <section className="access-next" aria-labelledby="access-next">
      <h2 id="access-next">{t("access.next.heading")}</h2>
      <AccessList performances={performances} where={where} />
      <p>
        <Link to={allHref}>{t("access.next.all")}</Link>
      </p>
    </section>
  );
}
