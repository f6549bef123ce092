import { keptByKey } from "~/kept";

// A date as words, or the day an instant falls on in a time zone, is a pure function of what it
// is made from, and the calendar and show pages ask for the same ones on every request (each day
// of a month, each performance's day), as the checkout's hold panel does its buyer's performance
// on every step: made through Intl each time, they showed in issue 19's profiles. Each is kept by
// a key naming everything it is made from; past the bound the least recently asked for go first.
const kept = keptByKey<string>(20_000);

export function keptText(key: string, make: () => string): string {
  return kept.get(key, make);
}

/** A formatter of an instant in a time zone, for a locale, whose answers are kept. */
export function keptFormat(name: string, format: (iso: string, timeZone: string, locale: string) => string) {
  return (iso: string, timeZone: string, locale: string) =>
    keptText(`${name}\u0000${locale}\u0000${timeZone}\u0000${iso}`, () => format(iso, timeZone, locale));
}
