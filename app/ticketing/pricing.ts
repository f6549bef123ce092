// The one place a basket is priced. Every amount is integer minor units in the basket's currency.
// Pages show what this returns; nothing else adds up money.

export type Currency = "GBP" | "USD";

export interface PricedTicketInput {
  /** The seat or standing place, as the basket knows it. */
  ref: string;
  priceOptionId: string;
  faceValue: number;
  bookingFee: number;
}

export interface ExtraInput {
  id: string;
  unitPrice: number;
  quantity: number;
}

/** What a promo code does to prices. Codes that only unlock seats or presale have no price rule. */
export type PromoPriceRule =
  | { kind: "percentageOff"; percent: number }
  | { kind: "amountOff"; amount: number }
  | { kind: "specialPrice"; priceOptionIds: readonly string[]; faceValue: number };

export interface PricingInput {
  currency: Currency;
  tickets: PricedTicketInput[];
  extras: ExtraInput[];
  /** The paid membership, when the basket carries it. */
  membership: { productId: string; name: string; months: number; price: number } | null;
  /** The buyer's answer: true (protect), false (declined), or null (not asked yet). */
  protection: { chosen: boolean | null; feePerTicket: number };
  delivery: { method: string; fee: number } | null;
  transactionFee: number;
  /** Member benefits that change prices. */
  benefits: { protectionIncluded: boolean; noTransactionFee: boolean };
  promo: { code: string; rule: PromoPriceRule | null } | null;
  /** Gift vouchers, in the order they were applied, with what is left on each. */
  vouchers: { id: string; balance: number }[];
}

export type PriceLine =
  | { kind: "ticket"; ref: string; priceOptionId: string; faceValue: number; bookingFee: number; amount: number }
  | { kind: "extra"; id: string; quantity: number; unitPrice: number; amount: number }
  | { kind: "membership"; productId: string; name: string; months: number; amount: number }
  | { kind: "protection"; tickets: number; feePerTicket: number; amount: number; included: boolean }
  | { kind: "delivery"; method: string; amount: number }
  | { kind: "transactionFee"; amount: number; waived: boolean }
  | { kind: "discount"; code: string; amount: number };

export interface PricedBasket {
  currency: Currency;
  lines: PriceLine[];
  /** Everything before the discount. */
  subtotal: number;
  discount: number;
  /** What the order costs. */
  total: number;
  vouchers: { id: string; amount: number; remaining: number }[];
  /** What is left to pay by card, PayPal or wallet. */
  toPay: number;
}

function discountFor(tickets: PricedTicketInput[], rule: PromoPriceRule | null): number {
  if (!rule) return 0;
  const faceTotal = tickets.reduce((sum, ticket) => sum + ticket.faceValue, 0);
  switch (rule.kind) {
    case "percentageOff":
      // Off the face value only; booking fees are not discounted. Rounded to the nearest minor unit.
      return Math.round((faceTotal * Math.min(Math.max(rule.percent, 0), 100)) / 100);
    case "amountOff":
      return Math.min(Math.max(rule.amount, 0), faceTotal);
    case "specialPrice":
      return tickets
        .filter((ticket) => rule.priceOptionIds.includes(ticket.priceOptionId))
        .reduce((sum, ticket) => sum + Math.max(ticket.faceValue - rule.faceValue, 0), 0);
  }
}

export function priceBasket(input: PricingInput): PricedBasket {
  const lines: PriceLine[] = [];
  for (const ticket of input.tickets) {
    lines.push({ kind: "ticket", ...ticket, amount: ticket.faceValue + ticket.bookingFee });
  }
  for (const extra of input.extras) {
    if (extra.quantity > 0) lines.push({ kind: "extra", ...extra, amount: extra.unitPrice * extra.quantity });
  }
  if (input.membership) {
    const { productId, name, months, price } = input.membership;
    lines.push({ kind: "membership", productId, name, months, amount: price });
  }
  const ticketCount = input.tickets.length;
  if (ticketCount > 0 && (input.benefits.protectionIncluded || input.protection.chosen === true)) {
    const included = input.benefits.protectionIncluded;
    lines.push({
      kind: "protection",
      tickets: ticketCount,
      feePerTicket: input.protection.feePerTicket,
      amount: included ? 0 : input.protection.feePerTicket * ticketCount,
      included,
    });
  }
  if (input.delivery) lines.push({ kind: "delivery", method: input.delivery.method, amount: input.delivery.fee });
  if (ticketCount > 0 || input.extras.some((extra) => extra.quantity > 0)) {
    const waived = input.benefits.noTransactionFee;
    lines.push({ kind: "transactionFee", amount: waived ? 0 : input.transactionFee, waived });
  }
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  const discount = input.promo ? discountFor(input.tickets, input.promo.rule) : 0;
  if (input.promo && discount > 0) lines.push({ kind: "discount", code: input.promo.code, amount: -discount });
  const total = subtotal - discount;

  let outstanding = total;
  const vouchers = input.vouchers.map((voucher) => {
    const amount = Math.min(Math.max(voucher.balance, 0), outstanding);
    outstanding -= amount;
    return { id: voucher.id, amount, remaining: voucher.balance - amount };
  });
  return { currency: input.currency, lines, subtotal, discount, total, vouchers, toPay: outstanding };
}

/**
 * A short fingerprint of everything the buyer is asked to pay. The basket keeps the one the buyer
 * last saw; a different one now means a price or fee changed, and the buyer must acknowledge it.
 * What each voucher covers and what is left to pay are part of it: another buyer spending the same
 * voucher changes what this buyer's card is charged, even though no price moved.
 */
export function priceFingerprint(priced: PricedBasket): string {
  return [
    ...priced.lines.map((line) => `${line.kind}:${line.amount}`),
    `total:${priced.total}`,
    ...priced.vouchers.map((voucher) => `voucher:${voucher.id}:${voucher.amount}`),
    `toPay:${priced.toPay}`,
    priced.currency,
  ].join("|");
}

export function hasPriceChanged(lastSeen: string | null, priced: PricedBasket): boolean {
  return lastSeen !== null && lastSeen !== priceFingerprint(priced);
}
