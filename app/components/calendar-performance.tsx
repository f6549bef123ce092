import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDateTime as dateTime, formatTime as time } from "~/i18n/format";
import { AccessServices } from "./access-services";
import { formatLongDay, type PerformanceView } from "./calendar-format";

/** A performance with what the server decided of its sale (sale-window.ts), so no page decides it again. */
export interface CalendarPerformanceView extends PerformanceView {
  /** Places are on sale (to everyone, or in presale to its audience): say how many are left. */
  bookable: boolean;
}

/**
 * One performance: its time, its availability in words (with a colour that only repeats them),
 * and a link to its tickets page where there is something to book. `date` puts the date in view
 * (lists); in the month grid the date is already the cell's, so it is there for screen readers
 * and the links list only.
 */
export function CalendarPerformance({
  performance,
  timeZone,
  date = "hidden",
}: {
  performance: CalendarPerformanceView;
  timeZone: string;
  date?: "hidden" | "visible";
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const { state, level, href, bookable } = performance;
  const when =
    date === "visible" ? (
      <span className="calendar-performance__time">{dateTime(performance.startsAt, timeZone, locale)}</span>
    ) : (
      <>
        <span className="visually-hidden">{formatLongDay(performance.day, locale)}, </span>
        <span className="calendar-performance__time">{time(performance.startsAt, timeZone, locale)}</span>
      </>
    );
  const status =
    state === "cancelled" ? (
      <span className="calendar-performance__status">{t("calendar.cancelled")}</span>
    ) : state === "closed" ? (
      <span className="calendar-performance__status">{t("calendar.salesClosed")}</span>
    ) : state === "notYetOnSale" || state === "queueOpen" ? (
      <span className="calendar-performance__status">
        {t(state === "queueOpen" ? "calendar.queueOpen" : "calendar.onSaleFrom", {
          date: dateTime(performance.onSaleFrom, timeZone, locale),
        })}
      </span>
    ) : (
      <span className="calendar-performance__level">
        <span className="calendar-performance__swatch" aria-hidden="true" />
        {t(`availability.${level}`)}
      </span>
    );
  const presale =
    state === "presale" || state === "presaleUnlocked" ? (
      <span className="calendar-performance__tag">{t("calendar.presaleTag")}</span>
    ) : null;
  const access = performance.access?.length ? (
    <AccessServices services={performance.access} className="calendar-performance__access" />
  ) : null;
  const content = (
    <>
      {when} {status}
      {presale ? <> {presale}</> : null}
      {access ? <> {access}</> : null}
    </>
  );
  const className = `calendar-performance calendar-performance--${bookable ? level : "unavailable"}`;
  return href ? (
    <Link to={href} className={`${className} calendar-performance--bookable`}>
      {content}
    </Link>
  ) : (
    <span className={className}>{content}</span>
  );
}
