import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDate as runDate } from "~/i18n/format";
import type { ShowListItem } from "~/views/show-list";

/** The shows with where and when each plays; `headingLevel` fits the names into the page's outline. */
export function ShowList({ shows, headingLevel = 2 }: { shows: ShowListItem[]; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const { t, i18n } = useTranslation();
  if (shows.length === 0) return <p className="empty-state">{t("home.empty")}</p>;
  return (
    <ul className="show-list">
      {shows.map((show) => (
        <li key={show.slug} className="show-list__item">
          <Heading className="show-list__name">{show.name}</Heading>
          <p className="show-list__age">{t("show.ageGuidance", { age: show.ageGuidance })}</p>
          <ul className="show-list__runs">
            {show.runs.map((run) => (
              <li key={run.href}>
                <Link to={run.href}>{t("home.showAt", { show: show.name, venue: run.venueName, city: run.city })}</Link>{" "}
                <span className="show-list__dates">
                  {t("home.dates", {
                    from: runDate(run.firstPerformance, run.timeZone, i18n.language),
                    to: runDate(run.lastPerformance, run.timeZone, i18n.language),
                  })}
                </span>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
