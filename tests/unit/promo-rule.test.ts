import { describe, expect, it } from "vitest";
import { priceBasket } from "~/ticketing/pricing";
import { priceRuleOf, promoRuleView, type PromoCode } from "~/ticketing/promotions.server";
import { promoRow } from "../support/money";

// What a page says a code does is read from the rule the basket prices it by (priceRuleOf), so
// the calendar never promises a price the basket does not charge.

const code = (values: Partial<PromoCode>): PromoCode => ({
  ...promoRow({ id: "promo-1", code: "CODE", percent: null }),
  used_count: 0,
  ...values,
});

// A run's price options: two full prices, a concession and a child price.
const OPTIONS = [
  { id: "a-full", kind: "full", faceValue: 6500, bookingFee: 300 },
  { id: "b-full", kind: "full", faceValue: 4500, bookingFee: 250 },
  { id: "a-concession", kind: "concession", faceValue: 5000, bookingFee: 300 },
  { id: "c-child", kind: "child", faceValue: 2500, bookingFee: 200 },
];

describe("what a promo code does, as a page states it", () => {
  it("a percentage off, and an amount off in the code's currency or else the show's", () => {
    expect(promoRuleView(code({ percent: 20 }), OPTIONS, "GBP")).toEqual({ kind: "percentageOff", percent: 20 });
    expect(promoRuleView(code({ rule_key: "amountOff", amount: 1000, currency: "USD" }), OPTIONS, "USD")).toEqual({
      kind: "amountOff",
      amount: 1000,
      currency: "USD",
    });
    expect(promoRuleView(code({ rule_key: "amountOff", amount: 500 }), OPTIONS, "GBP")).toEqual({
      kind: "amountOff",
      amount: 500,
      currency: "GBP",
    });
  });

  it("a special price, all-in, over the options of its kind it brings down; none when it brings none down", () => {
    const full = code({ rule_key: "specialPrice", price_option_kind: "full", special_face_value: 5000 });
    // Only the £65 full price is dearer than £50: £50 and its £3 booking fee.
    expect(promoRuleView(full, OPTIONS, "GBP")).toEqual({
      kind: "specialPrice",
      price: { min: 5300, max: 5300 },
      currency: "GBP",
    });
    // The concession is dearer than £40 too, but is not the code's kind.
    expect(promoRuleView({ ...full, special_face_value: 4000 }, OPTIONS, "GBP")).toEqual({
      kind: "specialPrice",
      price: { min: 4250, max: 4300 },
      currency: "GBP",
    });
    const child = code({ rule_key: "specialPrice", price_option_kind: "child", special_face_value: 3000 });
    expect(promoRuleView(child, OPTIONS, "GBP")).toEqual({ kind: "specialPrice", price: null, currency: "GBP" });
  });

  it("the special price stated is what the basket charges", () => {
    const full = code({ rule_key: "specialPrice", price_option_kind: "full", special_face_value: 4000 });
    const view = promoRuleView(full, OPTIONS, "GBP");
    if (view.kind !== "specialPrice" || !view.price) throw new Error("no special price");
    const fullOptions = OPTIONS.filter((option) => option.kind === "full");
    const priced = priceBasket({
      currency: "GBP",
      tickets: fullOptions.map(({ id, faceValue, bookingFee }) => ({
        ref: id,
        priceOptionId: id,
        faceValue,
        bookingFee,
      })),
      extras: [],
      membership: null,
      protection: { chosen: false, feePerTicket: 0 },
      delivery: null,
      transactionFee: 0,
      benefits: { protectionIncluded: false, noTransactionFee: false },
      promo: { code: "FULL40", rule: priceRuleOf(full, () => fullOptions.map((option) => option.id)) },
      vouchers: [],
    });
    const tickets = priced.lines.filter((line) => line.kind === "ticket").reduce((sum, line) => sum + line.amount, 0);
    expect(tickets - priced.discount).toBe(view.price.min + view.price.max);
  });

  it("a code that unlocks presale or promotional seats says so", () => {
    expect(promoRuleView(code({ rule_key: "unlockPresale" }), OPTIONS, "GBP")).toEqual({ kind: "unlockPresale" });
    expect(promoRuleView(code({ rule_key: "unlockPromoSeats" }), OPTIONS, "GBP")).toEqual({
      kind: "unlockPromoSeats",
    });
  });
});
