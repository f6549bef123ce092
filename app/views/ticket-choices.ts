// The buyer's tickets as the tickets page and the reservations page show them.

export interface TicketLine {
  /** The form field that chooses this ticket's price option. */
  field: string;
  section: string;
  row: string | null;
  seat: string | null;
  quantity: number;
  /** wheelchair, companion, access, package, promotional, amex */
  marks: string[];
  viewNote: string | null;
  priceOptionId: string;
  options: { id: string; label: string; kind: string; amount: number }[];
  amount: number;
}

export interface TicketsView {
  currency: string;
  lines: TicketLine[];
  /** The per-order transaction fee as the basket charges it (waived for members); null when nothing is priced yet. */
  transactionFee: { amount: number; waived: boolean } | null;
  /** The tickets and the transaction fee: what these seats cost before any extras. */
  total: number;
  notice: string | null;
  admissionMessage: string | null;
}

export type FieldErrors = Record<string, { key: string; values?: Record<string, string | number> }>;
