import type { PricedBasket } from "~/ticketing/pricing";

// The itemised summary a buyer reads on every checkout step, the confirmation page and the email:
// the engine's priced lines with words to name them. Amounts come from the engine only; this adds
// nothing up.

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

export interface SummaryNames {
  /** A ticket's name by its priced ref ("seat:perf:12", "standing:claim:0"). */
  ticket(ref: string): SummaryLabel;
  priceOption(id: string): string | undefined;
  extra(id: string): string | undefined;
  voucher(id: string): SummaryLabel;
}

export function summarise(priced: PricedBasket, names: SummaryNames): SummaryView {
  const lines: SummaryLine[] = priced.lines.map((line, index): SummaryLine => {
    const id = `${line.kind}-${index}`;
    switch (line.kind) {
      case "ticket": {
        const option = names.priceOption(line.priceOptionId);
        return {
          id,
          label: names.ticket(line.ref),
          note: option ? { key: "summary.priceOption", values: { option } } : undefined,
          amount: line.amount,
        };
      }
      case "extra":
        return {
          id,
          label: { key: "summary.extra", values: { name: names.extra(line.id) ?? "", count: line.quantity } },
          amount: line.amount,
        };
      case "protection":
        return {
          id,
          label: { key: "summary.protection", values: { count: line.tickets } },
          note: line.included ? { key: "summary.includedWithMembership" } : undefined,
          amount: line.amount,
        };
      case "membership":
        return {
          id,
          label: { key: "summary.membership", values: { name: line.name, count: line.months } },
          amount: line.amount,
        };
      case "delivery":
        return { id, label: { key: `delivery.${line.method}` }, amount: line.amount };
      case "transactionFee":
        return {
          id,
          label: { key: "summary.transactionFee" },
          note: line.waived ? { key: "summary.waivedForMembers" } : undefined,
          amount: line.amount,
        };
      case "discount":
        return { id, label: { key: "summary.discount", values: { code: line.code } }, amount: line.amount };
    }
  });
  return {
    currency: priced.currency,
    lines,
    total: priced.total,
    vouchers: priced.vouchers.map((voucher) => ({ ...voucher, label: names.voucher(voucher.id) })),
    toPay: priced.toPay,
  };
}
