import type { CardBrand } from "~/payments/gateway";

// Apart from the card schema, which imports zod and card-validator: the payment page names the
// accepted cards as it renders.

/** The brands as the buyer reads them: Visa Debit is named wherever Visa is taken. */
export function cardTypeNames(brands: readonly CardBrand[]): string[] {
  return brands.flatMap((brand) =>
    brand === "visa" ? ["Visa", "Visa Debit"] : brand === "mastercard" ? ["Mastercard"] : ["American Express"],
  );
}
