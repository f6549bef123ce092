import { dateTimeFormat } from "~/i18n/format";

/**
 * The calendar day (or month) an instant falls on at the venue: every performance the show and
 * calendar pages list asks it. Read from the parts of one formatter per time zone (made once, as
 * every formatter is) rather than through date-fns-tz, which builds its own on each call.
 */
export function venueDay(instant: Date | string, timeZone: string, pattern: "yyyy-MM-dd" | "yyyy-MM"): string {
  const parts = dateTimeFormat("en-GB", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    timeZone,
  }).formatToParts(typeof instant === "string" ? new Date(instant) : instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((each) => each.type === type)!.value;
  const month = `${part("year")}-${part("month")}`;
  return pattern === "yyyy-MM" ? month : `${month}-${part("day")}`;
}
