// Money, dates and times as the buyer reads them: money from integer minor units, times in the
// venue's time zone, all in the buyer's language. Building an Intl formatter costs far more than
// using one (it showed in the calendar's profile), so each is made once per locale and options.
// They are few and fixed: two languages, the styles below, the venues' time zones; nothing a
// visitor sends picks one.

const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(`d|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

export function formatMoney(minor: number, currency: string, locale: string): string {
  return cached(`m|${locale}|${currency}`, () => new Intl.NumberFormat(locale, { style: "currency", currency })).format(
    minor / 100,
  );
}

export function formatDate(iso: string, timeZone: string, locale: string): string {
  return dateTimeFormat(locale, { dateStyle: "medium", timeZone }).format(new Date(iso));
}

export function formatDateTime(iso: string, timeZone: string, locale: string): string {
  return dateTimeFormat(locale, {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
  }).format(new Date(iso));
}

export function formatTime(iso: string, timeZone: string, locale: string): string {
  return dateTimeFormat(locale, { hour: "numeric", minute: "2-digit", timeZone }).format(new Date(iso));
}

/**
 * The place a time zone is named after, as the IANA name has it ("America/New_York": "New York"):
 * what "held until 7:47 PM New York time" names. Every venue's zone in the catalogue is a city's.
 */
export function timeZonePlace(timeZone: string): string {
  return timeZone.slice(timeZone.lastIndexOf("/") + 1).replace(/_/g, " ");
}
