import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "~/i18n/format";
import type { PlaceCounts } from "~/ticketing/performance-report.server";
import { readReport, refuseReportPost } from "~/web/staff-reports.server";
import { ReportHeading } from "~/components/report-heading";

// A performance's sales report (issue 55 item 4): sold, held and free by price band and by part
// of the house, takings before and after refunds, and the ways to its access list and its CSV.

export const handle = { titleKey: "staff.reports.report.title" };

export async function loader(args: LoaderFunctionArgs) {
  const [performance, report] = await readReport(args, (reported) =>
    args.context.performanceReports.performanceReport(reported.performanceId),
  );
  return { performance, report };
}

export const action = refuseReportPost;

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
      <ReportHeading title={t("staff.reports.report.title")} performance={performance} />
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
