import { useTranslation } from "react-i18next";
import { CalendarPerformance, type CalendarPerformanceView } from "./calendar-performance";
import { formatMonth, longDayParts, monthWeeks, weekdayNames } from "./calendar-format";

/**
 * A month as a table: a caption naming it, a header per weekday, a cell per day listing that
 * day's performances. On narrow screens the stylesheet lets it fall into a list of the days that
 * have performances; each day's full name is in the cell for that (and for screen readers).
 * The short weekday and the day's number are the only parts of the names shown in a wide month;
 * the rest is in the same words, out of sight (not a second copy), so a screen reader and a text
 * browser (which shows no styles) each read "Monday" and "Thursday, 3 December 2026" once.
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
            // Named by aria-label too: a screen reader may read a hidden part of a word apart.
            <th key={long} scope="col" className="calendar-month__weekday" aria-label={long}>
              {long.startsWith(short) ? (
                <>
                  {short}
                  <span className="visually-hidden">{long.slice(short.length)}</span>
                </>
              ) : (
                long
              )}
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
                  <span className="calendar-day__name">
                    {longDayParts(day, locale).map((part, partIndex) =>
                      part.number ? (
                        <span key={partIndex} className="calendar-day__number">
                          {part.text}
                        </span>
                      ) : (
                        <span key={partIndex} className="calendar-day__rest">
                          {part.text}
                        </span>
                      ),
                    )}
                  </span>
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
