import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { AccessListEntry } from "~/ticketing/performance-report.server";
import { accessServiceKey, type AccessService } from "~/views/access-services";
import { readReport, refuseReportPost } from "~/web/staff-reports.server";
import { ReportHeading } from "~/components/report-heading";

// A performance's access list (issue 55 item 4), for front of house to print and carry: each
// access booking by its first seat, with its wheelchair spaces and companion seats, the services
// each seat is placed for, what the buyer registered and how to reach them. The print styles
// (styles/_staff-reports.scss) leave the site's frame off and keep the table to one page.

export const handle = { titleKey: "staff.reports.access.title" };

export async function loader(args: LoaderFunctionArgs) {
  const [performance, list] = await readReport(args, (reported) =>
    args.context.performanceReports.accessList(reported.performanceId),
  );
  return { performance, list };
}

export const action = refuseReportPost;

/** The seat types the list words: places kept for access. */
const PLACE_KEYS = { wheelchair: true, companion: true, access: true } as const;

function useServiceNames(country: string) {
  const { t } = useTranslation();
  return (services: readonly AccessService[]) =>
    services.map((service) => t(accessServiceKey(service, country))).join(", ");
}

function Registered({ registered }: { registered: AccessListEntry["registered"] }) {
  const { t } = useTranslation();
  const lines = registered
    ? [
        registered.wheelchair ? t("staff.reports.access.registeredWheelchair") : null,
        registered.companions ? t("staff.reports.access.registeredCompanions", { count: registered.companions }) : null,
        registered.otherNeeds,
      ].filter((line): line is string => Boolean(line))
    : [];
  if (lines.length === 0) return <>{t("staff.reports.access.notRegistered")}</>;
  return (
    <ul className="access-list__lines">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

export default function AccessListPage() {
  const { t } = useTranslation();
  const { performance, list } = useLoaderData<typeof loader>();
  const serviceNames = useServiceNames(performance.country);
  return (
    <div className="access-list">
      <ReportHeading title={t("staff.reports.access.title")} performance={performance} />
      <p>
        {list.services.length
          ? t("staff.reports.access.services", { services: serviceNames(list.services) })
          : t("staff.reports.access.noServices")}
      </p>
      {list.entries.length === 0 ? (
        <p>{t("staff.reports.access.none")}</p>
      ) : (
        <table className="report-table access-list__table">
          <caption>{t("staff.reports.access.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("staff.reports.access.seats")}</th>
              <th scope="col">{t("staff.reports.access.bookedBy")}</th>
              <th scope="col">{t("staff.reports.access.contact")}</th>
              <th scope="col">{t("staff.reports.access.registered")}</th>
            </tr>
          </thead>
          <tbody>
            {list.entries.map((entry) => (
              <tr key={entry.orderNumber}>
                <td>
                  <ul className="access-list__lines">
                    {entry.seats.map((seat) => {
                      const notes = [
                        seat.seatType && seat.seatType in PLACE_KEYS
                          ? t(`staff.reports.access.place.${seat.seatType}`)
                          : null,
                        seat.services.length
                          ? t("staff.reports.access.placedFor", { services: serviceNames(seat.services) })
                          : null,
                      ].filter(Boolean);
                      return (
                        <li key={seat.label}>
                          {seat.label}
                          {notes.length ? <>: {notes.join(", ")}</> : null}
                        </li>
                      );
                    })}
                  </ul>
                </td>
                <th scope="row">
                  {entry.name}
                  <span className="access-list__note">
                    {t("staff.reports.access.order", { number: entry.orderNumber })}
                  </span>
                </th>
                <td>
                  <ul className="access-list__lines">
                    <li>{entry.email}</li>
                    {entry.phone ? <li>{entry.phone}</li> : null}
                  </ul>
                </td>
                <td>
                  <Registered registered={entry.registered} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="access-list__links">
        <Link to={`/staff/performances/${performance.performanceId}`}>{t("staff.reports.access.backToReport")}</Link>
      </p>
    </div>
  );
}
