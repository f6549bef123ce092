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

/**
 * What one ticket at this price option costs: its face value and its booking fee, both mandatory.
 * The seat map, its key and filters, best available, the calendar's price filter and the tickets
 * page show this, and the basket's ticket line charges it, so the first price a buyer sees is the
 * price they pay (docs/decisions/0012-all-in-prices.md).
 */
export function allInTicketPrice(option: { faceValue: number; bookingFee: number }): number {
  return option.faceValue + option.bookingFee;
}

/**
 * The option a ticket is charged at until the buyer picks another: the band's first Full Price
 * option in the catalogue's order, else its first option. Options must be in that order.
 */
export function defaultPriceOption<T extends { kind: string }>(options: readonly T[]): T | undefined {
  return options.find((option) => option.kind === "full") ?? options[0];
}

/** Price options anyone may pick by themselves; member prices come with a membership, promo prices with a code. */
const OPEN_PRICE_KINDS: ReadonlySet<string> = new Set(["full", "concession", "child"]);

/** Whether a buyer may choose a price option of this kind for a ticket they hold. */
export function mayChoosePriceOption(kind: string, benefits: { memberPrices: boolean }): boolean {
  return OPEN_PRICE_KINDS.has(kind) || (kind === "member" && benefits.memberPrices);
}

/**
 * A price band's price as the buyer first sees it (seat labels, the key, price filters, standing
 * areas): what the basket charges a place of the band before any other option is chosen.
 */
export function bandPrice(options: readonly { kind: string; faceValue: number; bookingFee: number }[]): number | null {
  const option = defaultPriceOption(options);
  return option ? allInTicketPrice(option) : null;
}

/**
 * The per-order transaction fee as this buyer will pay it: the amount, or nothing when their
 * membership waives it. Charged by priceBasket and stated beside the prices before seats are
 * chosen, because it is mandatory but not per ticket.
 */
export function orderFee(
  transactionFee: number,
  benefits: { noTransactionFee: boolean },
): { amount: number; waived: boolean } {
  const waived = benefits.noTransactionFee;
  return { amount: waived ? 0 : transactionFee, waived };
}

/**
 * The all-in prices a special-price rule brings tickets down to, lowest and highest: for each of
 * its options dearer than the special face value, that face value plus the option's booking fee,
 * which is what priceBasket charges for such a ticket once the discount is taken off. Null when no
 * option is brought down.
 */
export function specialPriceRange(
  options: readonly { id: string; faceValue: number; bookingFee: number }[],
  rule: { priceOptionIds: readonly string[]; faceValue: number },
): { min: number; max: number } | null {
  const prices = options
    .filter((option) => rule.priceOptionIds.includes(option.id) && option.faceValue > rule.faceValue)
    .map((option) => allInTicketPrice({ faceValue: rule.faceValue, bookingFee: option.bookingFee }));
  return prices.length ? { min: Math.min(...prices), max: Math.max(...prices) } : null;
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
    lines.push({ kind: "ticket", ...ticket, amount: allInTicketPrice(ticket) });
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
    lines.push({ kind: "transactionFee", ...orderFee(input.transactionFee, input.benefits) });
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

/** What the basket charges for the tickets whose refs are `ref` or start with `ref:`: one seat, or every place of a standing claim. */
export function ticketsAmount(priced: PricedBasket, ref: string): number {
  return priced.lines.reduce(
    (sum, line) =>
      line.kind === "ticket" && (line.ref === ref || line.ref.startsWith(`${ref}:`)) ? sum + line.amount : sum,
    0,
  );
}

/** The tickets with the per-order transaction fee: what the chosen seats cost before any extras. */
export function ticketsWithFee(priced: PricedBasket): number {
  return priced.lines.reduce(
    (sum, line) => (line.kind === "ticket" || line.kind === "transactionFee" ? sum + line.amount : sum),
    0,
  );
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

/**
 * An amount in minor units as a decimal string ("1250" pence → "12.50"): for machine-read prices
 * (schema.org offers), which want a number in the currency's major unit. Done on the integer, so no
 * floating-point division can round it. Both currencies sold (GBP, USD) have two decimals.
 */
export function decimalAmount(minor: number): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`not an amount in minor units: ${minor}`);
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
}
