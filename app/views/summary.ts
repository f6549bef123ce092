// The itemised summary a buyer reads on every checkout step, the confirmation page and the email:
// the engine's priced lines with words to name them. Amounts come from the engine only; nothing
// here adds up. The shapes only: app/use-cases/summary.server.ts words the priced basket, since a
// shared module does not read the domain.

/** A line's name: a translation key and its values. */
export interface SummaryLabel {
  key: string;
  values?: Record<string, string | number>;
}

export interface SummaryLine {
  id: string;
  label: SummaryLabel;
  /** Set for a price option or a benefit the line carries ("Full Price", "Included with membership"). */
  note?: SummaryLabel;
  amount: number;
}

export interface SummaryView {
  currency: string;
  lines: SummaryLine[];
  total: number;
  vouchers: { id: string; label: SummaryLabel; amount: number; remaining: number }[];
  toPay: number;
}
