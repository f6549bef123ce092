import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDate, formatDateTime } from "~/i18n/format";
import { isIsoDate } from "~/urls/param-values";
import { refuseStaffPost, requireStaff } from "~/web/staff.server";

// Sales and access lists (issue 55 item 4): the performances of two weeks, by show, each linking
// to its sales report. By default the two weeks start a few days back, so last weekend's
// performances are still here for their takings; `?from=YYYY-MM-DD` pages earlier or later,
// with links (no script needed).

export const handle = { titleKey: "staff.reports.title" };

const DAY_MS = 24 * 60 * 60_000;
const WINDOW_DAYS = 14;
const DAYS_BACK = 3;

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "viewReports");
  const asked = new URL(request.url).searchParams.get("from") ?? "";
  const from = isIsoDate(asked) ? asked : isoDay(context.clock.now().getTime() - DAYS_BACK * DAY_MS);
  const start = Date.parse(`${from}T00:00:00.000Z`);
  const until = new Date(start + WINDOW_DAYS * DAY_MS).toISOString();
  // The catalogue's runs as they stood at the window's start, so performances already played
  // in it are still listed.
  const runs = await context.catalogue.runsOnSale(new Date(start));
  const shows = runs
    .map((run) => ({
      runId: run.runId,
      show: run.name,
      venue: run.venueName,
      timeZone: run.timeZone,
      performances: run.performances
        .filter((performance) => performance.startsAt < until)
        .map((performance) => ({ id: performance.id, startsAt: performance.startsAt })),
    }))
    .filter((run) => run.performances.length > 0);
  return {
    shows,
    from,
    // The last day shown, as a date on its own.
    to: isoDay(start + (WINDOW_DAYS - 1) * DAY_MS),
    earlier: isoDay(start - WINDOW_DAYS * DAY_MS),
    later: isoDay(start + WINDOW_DAYS * DAY_MS),
  };
}

export async function action(args: ActionFunctionArgs) {
  return refuseStaffPost(args, "viewReports");
}

export default function StaffPerformances() {
  const { t, i18n } = useTranslation();
  const { shows, from, to, earlier, later } = useLoaderData<typeof loader>();
  const day = (date: string) => formatDate(`${date}T12:00:00.000Z`, "UTC", i18n.language);
  return (
    <>
      <h1>{t("staff.reports.title")}</h1>
      <p>{t("staff.reports.range", { from: day(from), to: day(to) })}</p>
      {shows.length === 0 ? <p>{t("staff.reports.none")}</p> : null}
      {shows.map((run) => (
        <section key={run.runId} aria-labelledby={`show-${run.runId}`}>
          <h2 id={`show-${run.runId}`}>{t("staff.reports.showAtVenue", { show: run.show, venue: run.venue })}</h2>
          <ul>
            {run.performances.map((performance) => (
              <li key={performance.id}>
                <Link to={`/staff/performances/${performance.id}`}>
                  <span className="visually-hidden">{run.show}, </span>
                  {formatDateTime(performance.startsAt, run.timeZone, i18n.language)}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <ul className="report-paging">
        <li>
          <Link to={`/staff/performances?from=${earlier}`}>{t("staff.reports.earlier")}</Link>
        </li>
        <li>
          <Link to={`/staff/performances?from=${later}`}>{t("staff.reports.later")}</Link>
        </li>
      </ul>
      <p>
        <Link to="/staff">{t("staff.home.back")}</Link>
      </p>
    </>
  );
}
