// A date as words, or the day an instant falls on in a time zone, is a pure function of what it
// is made from, and the calendar and show pages ask for the same ones on every request (each day
// of a month, each performance's day): made through Intl each time, they showed in issue 19's
// profiles. Each is kept by a key naming everything it is made from; past the bound the oldest
// go first. (Not used by what the checkout's pages load: the payment page's JavaScript is at its
// budget.)
const KEPT_MAX = 20_000;
const kept = new Map<string, string>();

export function keptText(key: string, make: () => string): string {
  let text = kept.get(key);
  if (text === undefined) {
    text = make();
    if (kept.size >= KEPT_MAX) kept.delete(kept.keys().next().value!);
    kept.set(key, text);
  }
  return text;
}

/** A formatter of an instant in a time zone, for a locale, whose answers are kept. */
export function keptFormat(name: string, format: (iso: string, timeZone: string, locale: string) => string) {
  return (iso: string, timeZone: string, locale: string) =>
    keptText(`${name}\u0000${locale}\u0000${timeZone}\u0000${iso}`, () => format(iso, timeZone, locale));
}
