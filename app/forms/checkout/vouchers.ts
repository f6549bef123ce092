import { z } from "zod";
import { requiredText } from "./fields";

// Gift vouchers (gift cards in the US) and promo codes. The schemas only ask that something was
// typed: whether the voucher or code exists, is in date and fits this booking is the services'
// answer (vouchers.* and promo.* keys), given on the same field.

const CODE_MAX_LENGTH = 100;

export function voucherSchema(kind: "voucher" | "giftCard") {
  const gift = kind === "giftCard";
  return z.object({
    voucherNumber: requiredText(gift ? "vouchers.giftCardNumberRequired" : "vouchers.numberRequired", CODE_MAX_LENGTH),
    voucherCode: requiredText(gift ? "vouchers.giftCardCodeRequired" : "vouchers.codeRequired", CODE_MAX_LENGTH),
  });
}

export const promoSchema = z.object({
  promoCode: requiredText("promo.empty", CODE_MAX_LENGTH),
});
