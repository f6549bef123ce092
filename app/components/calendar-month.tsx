import { useTranslation } from "react-i18next";
import { CalendarPerformance, type CalendarPerformanceView } from "./calendar-performance";
import { formatLongDay, formatMonth, monthWeeks, weekdayNames } from "./calendar-format";

/**
 * A month as a table: a caption naming it, a header per weekday, a cell per day listing that
 * day's performances. On narrow screens the stylesheet lets it fall into a list of the days that
 * have performances; each day's full name is in the cell for that (and for screen readers).
 */
export function CalendarMonth({
  month,
  performances,
  timeZone,
  captionId,
}: {
  month: string;
  performances: CalendarPerformanceView[];
  timeZone: string;
  captionId?: string;
}) {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  const byDay = new Map<string, CalendarPerformanceView[]>();
  for (const performance of performances) {
    byDay.set(performance.day, [...(byDay.get(performance.day) ?? []), performance]);
  }
  return (
    <table className="calendar-month">
      <caption id={captionId} className="calendar-month__caption">
        {formatMonth(month, locale)}
      </caption>
      <thead>
        <tr>
          {weekdayNames(locale).map(([short, long]) => (
            <th key={long} scope="col" className="calendar-month__weekday">
              <span aria-hidden="true">{short}</span>
              <span className="visually-hidden">{long}</span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {monthWeeks(month, locale).map((week) => (
          <tr key={week.find(Boolean)}>
            {week.map((day, index) => {
              if (!day) return <td key={`blank-${index}`} className="calendar-day calendar-day--outside" />;
              const onDay = byDay.get(day) ?? [];
              return (
                <td key={day} className={`calendar-day${onDay.length ? "" : " calendar-day--empty"}`}>
                  <span className="calendar-day__number" aria-hidden="true">
                    {Number(day.slice(8))}
                  </span>
                  <span className="calendar-day__name">{formatLongDay(day, locale)}</span>
                  {onDay.length ? (
                    <ul className="calendar-day__performances">
                      {onDay.map((performance) => (
                        <li key={performance.id}>
                          <CalendarPerformance performance={performance} timeZone={timeZone} />
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
