import type { OrderPayment } from "~/ticketing/orders.server";
import type { GatewayResult } from "./gateway";
import type { PaymentFailureReason } from "./payment-state";

// What an attempt asked the gateway for, and the one check every authorisation passes before it
// may become a sale, whichever path brings it (the call's own answer, the webhook, the return from
// the bank or PayPal, the reconciler): the payment service applies it in `apply`, before the
// conditional update that decides the attempt, so every path judges the same answer alike and the
// first to arrive decides for all (docs/decisions/0055-money-on-every-path.md).

export interface PaymentTerms {
  /** Minor units. */
  amount: number;
  currency: string;
  /** The card brands the payment may be made with; null: no brand rule (PayPal, wallets, vouchers). */
  acceptedBrands: readonly string[] | null;
}

type Authorised = Extract<GatewayResult, { status: "authorised" }>;

export function termsOf(attempt: Pick<OrderPayment, "amount" | "currency" | "accepted_brands">): PaymentTerms {
  return {
    amount: attempt.amount,
    currency: attempt.currency,
    acceptedBrands: attempt.accepted_brands === null ? null : attempt.accepted_brands.split(",").filter(Boolean),
  };
}

/** The brands column of an attempt: a card always has a rule; other methods only when the order narrows the brands. */
export function brandRule(
  method: OrderPayment["method"],
  requested: readonly string[] | undefined,
  gatewayBrands: readonly string[],
): string | null {
  if (method === "voucher") return null;
  const accepted = requested ?? gatewayBrands;
  // PayPal and wallets name no card: held to a brand only when the order allows fewer than the
  // gateway takes (sponsored seats), and then refused, as the payment page never offers them.
  if (method !== "card" && gatewayBrands.every((brand) => accepted.includes(brand))) return null;
  return accepted.join(",");
}

/**
 * Why this authorisation may not be turned into a sale, or null when it may. A provider that does
 * not report the amount or currency is not held to them (each real adapter reports both); a card
 * whose brand it did not report cannot be held to a brand rule, so it is refused as unknown.
 */
export function refusalOf(terms: PaymentTerms, result: Authorised): PaymentFailureReason | null {
  if (result.amount !== null && result.amount !== terms.amount) return "amountMismatch";
  if (result.currency !== null && result.currency.toUpperCase() !== terms.currency.toUpperCase())
    return "amountMismatch";
  if (terms.acceptedBrands) {
    if (result.brand === null) return "brandUnknown";
    if (!terms.acceptedBrands.includes(result.brand)) return "brandNotAccepted";
  }
  return null;
}
