// Money is integer minor units; this is the one place it becomes text, in the buyer's language.
export function formatMoney(minor: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(minor / 100);
}
