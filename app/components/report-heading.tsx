import { useTranslation } from "react-i18next";
import { formatDateTime } from "~/i18n/format";
import type { ListedPerformance } from "~/views/staff-performances";

/** A staff report's heading (issue 55 item 4): its title, then the performance it is of. */
export function ReportHeading({
  title,
  performance,
}: {
  title: string;
  performance: Pick<ListedPerformance, "show" | "venue" | "startsAt" | "timeZone">;
}) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <h1>{title}</h1>
      <p>
        {t("staff.reports.report.performance", {
          show: performance.show,
          venue: performance.venue,
          when: formatDateTime(performance.startsAt, performance.timeZone, i18n.language),
        })}
      </p>
    </>
  );
}
