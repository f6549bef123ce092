import { dateTimeFormat } from "~/i18n/format";
import type { AccessServiceView } from "~/views/access-services";
import type { SaleState } from "~/views/sale-state";

// Calendar arithmetic on plain calendar dates ("2026-03-14", months as "2026-03"), free of time
// zones: the server has already placed each performance on its day in the venue's time zone.

export type AvailabilityLevel = "good" | "medium" | "low" | "soldOut";

/** One performance as the calendar and the show page show it. */
export interface PerformanceView {
  id: string;
  startsAt: string;
  /** Its day in the venue's time zone, YYYY-MM-DD. */
  day: string;
  level: AvailabilityLevel;
  state: SaleState;
  onSaleFrom: string;
  /** The tickets page, or null where there is nothing to book (sold out, not on sale, cancelled). */
  href: string | null;
  /** Its access services, each with its words in the page's language (the server's), shown where it is listed. */
  access?: AccessServiceView[];
}

const utc = (day: string) => new Date(`${day}T00:00:00Z`);

/** "March 2026" */
export function formatMonth(month: string, locale: string): string {
  return dateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(utc(`${month}-01`));
}

/** "Wednesday 12 March 2026" (in the locale's order) */
export function formatLongDay(day: string, locale: string): string {
  return dateTimeFormat(locale, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(utc(day));
}

/**
 * The same long day as pieces, in the locale's order, with the day's number marked: the calendar
 * shows only the number in a wide month and hides the rest from sight, so the date is read once,
 * whole, by a screen reader and a text browser alike.
 */
export function longDayParts(day: string, locale: string): { text: string; number: boolean }[] {
  const parts = dateTimeFormat(locale, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).formatToParts(utc(day));
  const pieces: { text: string; number: boolean }[] = [];
  for (const part of parts) {
    const number = part.type === "day";
    const last = pieces.at(-1);
    if (last && !last.number && !number) last.text += part.value;
    else pieces.push({ text: part.value, number });
  }
  return pieces;
}

export function addMonths(month: string, count: number): string {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  const index = year * 12 + (monthNumber - 1) + count;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** Sunday-first in the US, Monday-first elsewhere (as printed calendars are). */
export function weekStartsOn(locale: string): 0 | 1 {
  return locale === "en-US" ? 0 : 1;
}

/**
 * The weekdays in column order, each as [short, long] names. The calendar shows the short name
 * and hides the rest of the long one where the short is its start ("Mon" of "Monday").
 */
export function weekdayNames(locale: string): [string, string][] {
  const start = weekStartsOn(locale);
  const short = dateTimeFormat(locale, { weekday: "short", timeZone: "UTC" });
  const long = dateTimeFormat(locale, { weekday: "long", timeZone: "UTC" });
  // 2024-01-07 was a Sunday.
  return Array.from({ length: 7 }, (_, index) => {
    const date = new Date(Date.UTC(2024, 0, 7 + start + index));
    return [short.format(date), long.format(date)];
  });
}

/** The month as weeks of seven cells: a YYYY-MM-DD day, or null before the 1st and after the last. */
export function monthWeeks(month: string, locale: string): (string | null)[][] {
  const first = utc(`${month}-01`);
  const daysInMonth = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  const lead = (first.getUTCDay() - weekStartsOn(locale) + 7) % 7;
  const cells: (string | null)[] = [
    ...Array.from({ length: lead }, () => null),
    ...Array.from({ length: daysInMonth }, (_, index) => `${month}-${String(index + 1).padStart(2, "0")}`),
  ];
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}
