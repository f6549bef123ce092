import { z } from "zod";
import type { CardBrand, CardDetails } from "./card-types";
import { cardFields, cardSchema, paymentMethodSchema } from ".";

// The Pay form's one schema, for the server and for Conform in the browser: the payment method,
// and the card's fields only when the card is the method. Sponsored-partner (American Express)
// seats narrow the accepted brands before the buyer types a digit.

export type PayMethod = "card" | "paypal" | "googlePay" | "applePay";

const ALL_BRANDS: CardBrand[] = ["visa", "mastercard", "amex"];

export function acceptedBrands(sponsoredSeats: boolean): CardBrand[] {
  return sponsoredSeats ? ["amex"] : ALL_BRANDS;
}

export interface PayFormOptions {
  methods: readonly PayMethod[];
  brands: readonly CardBrand[];
  now: Date;
  /** Nothing left to pay (vouchers cover it): no method to choose. */
  free?: boolean;
  /** `hosted`: the card is typed on the provider's page, so this form has no card fields to check. */
  cardEntry?: "onSite" | "hosted";
}

export function payFormSchema(options: PayFormOptions) {
  const card = cardSchema({ acceptedBrands: options.brands, now: options.now });
  const methods: readonly (PayMethod | "voucher")[] = options.free ? ["voucher"] : options.methods;
  return paymentMethodSchema(methods)
    .extend({ ...cardFields, walletToken: z.string().optional() })
    .superRefine((value, ctx) => {
      if (value.method !== "card" || options.cardEntry === "hosted") return;
      const parsed = card.safeParse(value);
      if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue(issue);
    });
}

/** The card as the gateway takes it, from a Pay form that passed payFormSchema with these options. */
export function readCard(value: Record<string, unknown>, options: PayFormOptions): CardDetails {
  const card = cardSchema({ acceptedBrands: options.brands, now: options.now }).parse(value);
  return {
    number: card.number,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    cvv: card.cvv,
    holderName: card.holderName,
  };
}
