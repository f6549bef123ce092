import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDateTime, formatMoney } from "~/i18n/format";
import type { PlaceCounts } from "~/ticketing/performance-report.server";
import { notFound } from "~/urls/params";
import { reportedPerformance } from "~/web/staff-reports.server";

// A performance's sales report (issue 55 item 4): sold, held and free by price band and by part
// of the house, takings before and after refunds, and the ways to its access list and its CSV.

export const handle = { titleKey: "staff.reports.report.title" };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const performance = await reportedPerformance(request, context, params);
  const report = await context.performanceReports.performanceReport(performance.performanceId);
  if (!report) throw notFound();
  return { performance, report };
}

// A POST here is no form of this page's: refused as to anyone, but a 404 to anyone not allowed.
export async function action({ request, context, params }: ActionFunctionArgs) {
  await reportedPerformance(request, context, params);
  throw new Response(null, { status: 405, statusText: "Method Not Allowed" });
}

const COUNTS = ["capacity", "sold", "held", "free", "withheld"] as const satisfies (keyof PlaceCounts)[];

function PlacesTable({
  caption,
  heading,
  rows,
  total,
}: {
  caption: string;
  heading: string;
  rows: ({ key: string; name: string } & PlaceCounts)[];
  total: PlaceCounts;
}) {
  const { t } = useTranslation();
  return (
    <table className="report-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{heading}</th>
          {COUNTS.map((count) => (
            <th scope="col" key={count} className="report-table__number">
              {t(`staff.reports.report.${count}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.name}</th>
            {COUNTS.map((count) => (
              <td key={count} className="report-table__number">
                {row[count]}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">{t("staff.reports.report.total")}</th>
          {COUNTS.map((count) => (
            <td key={count} className="report-table__number">
              {total[count]}
            </td>
          ))}
        </tr>
      </tfoot>
    </table>
  );
}

export default function PerformanceReport() {
  const { t, i18n } = useTranslation();
  const { performance, report } = useLoaderData<typeof loader>();
  const money = (minor: number) => formatMoney(minor, report.currency, i18n.language);
  const base = `/staff/performances/${performance.performanceId}`;
  const summary: [string, string | number][] = [
    ["orders", report.orders],
    ["tickets", report.tickets],
    ["voidTickets", report.voidTickets],
    ["gross", money(report.gross)],
    ["refunded", money(report.refunded)],
    ["net", money(report.net)],
  ];
  return (
    <>
      <h1>{t("staff.reports.report.title")}</h1>
      <p>
        {t("staff.reports.report.performance", {
          show: performance.show,
          venue: performance.venue,
          when: formatDateTime(performance.startsAt, performance.timeZone, i18n.language),
        })}
      </p>
      <h2>{t("staff.reports.report.summaryHeading")}</h2>
      <dl className="report-summary">
        {summary.map(([key, value]) => (
          <div key={key} className="report-summary__item">
            <dt>{t(`staff.reports.report.${key}`)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h2>{t("staff.reports.report.placesHeading")}</h2>
      <PlacesTable
        caption={t("staff.reports.report.bandsCaption")}
        heading={t("staff.reports.report.band")}
        rows={report.bands.map((band) => ({ ...band, key: band.bandId }))}
        total={report.total}
      />
      <PlacesTable
        caption={t("staff.reports.report.sectionsCaption")}
        heading={t("staff.reports.report.section")}
        rows={report.sections.map((section) => ({ ...section, key: section.sectionId }))}
        total={report.total}
      />
      <p>{t("staff.reports.report.withheldNote")}</p>
      <h2>{t("staff.reports.report.listsHeading")}</h2>
      <ul>
        <li>
          <Link to={`${base}/access`}>{t("staff.reports.report.accessList")}</Link>
        </li>
        <li>
          {/* A download, not a page: reloadDocument so script's router does not ask for it as data. */}
          <Link to={`${base}/orders.csv`} reloadDocument download>
            {t("staff.reports.report.csv")}
          </Link>
        </li>
      </ul>
      <p>
        <Link to="/staff/performances">{t("staff.reports.report.allPerformances")}</Link>
      </p>
    </>
  );
}
