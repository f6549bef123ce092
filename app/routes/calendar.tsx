import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { addDays } from "date-fns";
import { fromZonedTime } from "date-fns-tz";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "~/components/format";
import { availabilityOf } from "~/ticketing/availability.server";
import { isoDate, parseParams } from "~/routing/params";
import { ticketsPath } from "~/routing/paths";
import { showFromParams } from "~/routing/show-params.server";

export const handle = { titleKey: "calendar.title" };

const DAYS_SHOWN = 31;

// The performances of the coming month (or from the date in the URL) with their availability in
// words. The month grid and its filters come with the browsing pages.
export async function loader({ params, context }: LoaderFunctionArgs) {
  const show = await showFromParams(params, context);
  const { date } = parseParams(params, { date: isoDate.optional() });
  const now = context.clock.now();
  const from = date ? fromZonedTime(`${date}T00:00:00`, show.timeZone) : now;
  const performances = await context.catalogue.performances(
    show.runId,
    from < now ? now : from,
    addDays(from, DAYS_SHOWN),
  );
  const availability = await availabilityOf(
    context.store,
    performances.map((performance) => performance.id),
    now,
    context.config.availabilityThresholds,
  );
  return {
    show: { name: show.name, venueName: show.venueName, timeZone: show.timeZone },
    performances: performances.map((performance) => ({
      id: performance.id,
      startsAt: performance.startsAt,
      level: availability.get(performance.id)?.level ?? "soldOut",
      href: ticketsPath(context.config.routingType, show.slug, show.venueSlug, performance.id),
    })),
  };
}

export default function Calendar() {
  const { t, i18n } = useTranslation();
  const { show, performances } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("calendar.title")}</h1>
      <p>{t("calendar.at", { show: show.name, venue: show.venueName })}</p>
      {performances.length === 0 ? (
        <p className="empty-state">{t("calendar.empty")}</p>
      ) : (
        <ul className="performance-list">
          {performances.map((performance) => (
            <li key={performance.id} className={`performance-list__item availability--${performance.level}`}>
              <span className="performance-list__when">
                {formatDateTime(performance.startsAt, show.timeZone, i18n.language)}
              </span>{" "}
              <span className="performance-list__availability">{t(`availability.${performance.level}`)}</span>{" "}
              {performance.level === "soldOut" ? null : (
                <Link
                  to={performance.href}
                  aria-label={t("calendar.chooseAria", {
                    when: formatDateTime(performance.startsAt, show.timeZone, i18n.language),
                  })}
                >
                  {t("calendar.choose")}
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
