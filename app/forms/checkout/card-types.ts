// Apart from the card schema, which imports zod and card-validator: the payment page names the
// accepted cards as it renders. The card's shape is here, not in the gateway, because the Pay form
// reads it and shared modules import no layer; the gateway takes the card the form read.

export type CardBrand = "visa" | "mastercard" | "amex";

export interface CardDetails {
  /** Digits only. */
  number: string;
  expiryMonth: number;
  /** Four digits. */
  expiryYear: number;
  cvv: string;
  holderName: string;
}

/** The brands as the buyer reads them: Visa Debit is named wherever Visa is taken. */
export function cardTypeNames(brands: readonly CardBrand[]): string[] {
  return brands.flatMap((brand) =>
    brand === "visa" ? ["Visa", "Visa Debit"] : brand === "mastercard" ? ["Mastercard"] : ["American Express"],
  );
}
