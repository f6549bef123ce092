// Spec section 2's shapes of a slug and a date as plain tests, without zod: a route's `handle`
// uses them (which values may key a kept page), and a handle goes into the page's script, where
// zod would add 10 KB to every page that has one (the form checks fetch zod when a form is used).

/** 1 to 255 of letters, digits and ! . + & - */
export const SLUG_PATTERN = /^[A-Za-z0-9!.+&-]{1,255}$/;

export const isSlug = (value: string): boolean => SLUG_PATTERN.test(value);

/** A real day written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [year, month, day] = value.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
