/**
 * What a promo code does, as a page states it before a date is chosen (promotions.server.ts's
 * promoRuleView makes it, the calendar's promo banner words it).
 */
export type PromoRuleView =
  | { kind: "percentageOff"; percent: number }
  | { kind: "amountOff"; amount: number; currency: string }
  /** The all-in prices the code brings its tickets to; null when this show sells none of them. */
  | { kind: "specialPrice"; price: { min: number; max: number } | null; currency: string }
  | { kind: "unlockPresale" }
  | { kind: "unlockPromoSeats" };
