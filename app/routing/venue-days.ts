import { formatInTimeZone } from "date-fns-tz";
import { keptText } from "~/i18n/kept-text";

/**
 * The calendar day (or month) an instant falls on at the venue: every performance the show and
 * calendar pages list asks it, and date-fns-tz works it out through Intl's formatToParts.
 */
export function venueDay(instant: Date | string, timeZone: string, pattern: "yyyy-MM-dd" | "yyyy-MM"): string {
  const iso = typeof instant === "string" ? instant : instant.toISOString();
  return keptText(`z\u0000${timeZone}\u0000${pattern}\u0000${iso}`, () => formatInTimeZone(iso, timeZone, pattern));
}
