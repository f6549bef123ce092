import { describe, expect, it } from "vitest";
import {
  decimalAmount,
  hasPriceChanged,
  mayChoosePriceOption,
  priceBasket,
  priceFingerprint,
  ticketsAmount,
  ticketsWithFee,
  type PricingInput,
} from "~/ticketing/pricing";

const basket = (overrides: Partial<PricingInput> = {}): PricingInput => ({
  currency: "GBP",
  tickets: [
    { ref: "A5", priceOptionId: "full-a", faceValue: 6500, bookingFee: 300 },
    { ref: "A6", priceOptionId: "conc-a", faceValue: 5000, bookingFee: 300 },
  ],
  extras: [{ id: "programme", unitPrice: 600, quantity: 2 }],
  membership: null,
  protection: { chosen: null, feePerTicket: 250 },
  delivery: { method: "post", fee: 195 },
  transactionFee: 295,
  benefits: { protectionIncluded: false, noTransactionFee: false },
  promo: null,
  vouchers: [],
  ...overrides,
});

describe("pricing a basket", () => {
  it("itemises tickets (face value + booking fee), extras, delivery and the transaction fee", () => {
    const priced = priceBasket(basket());
    expect(priced.lines.map((line) => [line.kind, line.amount])).toEqual([
      ["ticket", 6800],
      ["ticket", 5300],
      ["extra", 1200],
      ["delivery", 195],
      ["transactionFee", 295],
    ]);
    expect(priced.total).toBe(6800 + 5300 + 1200 + 195 + 295);
    expect(priced.toPay).toBe(priced.total);
  });

  it("adds protection per ticket only when chosen", () => {
    expect(
      priceBasket(basket({ protection: { chosen: false, feePerTicket: 250 } })).lines.some(
        (line) => line.kind === "protection",
      ),
    ).toBe(false);
    const protectedBasket = priceBasket(basket({ protection: { chosen: true, feePerTicket: 250 } }));
    expect(protectedBasket.lines.find((line) => line.kind === "protection")).toEqual({
      kind: "protection",
      tickets: 2,
      feePerTicket: 250,
      amount: 500,
      included: false,
    });
  });

  it("members: protection included and no transaction fee, both shown", () => {
    const priced = priceBasket(basket({ benefits: { protectionIncluded: true, noTransactionFee: true } }));
    expect(priced.lines.find((line) => line.kind === "protection")).toMatchObject({ amount: 0, included: true });
    expect(priced.lines.find((line) => line.kind === "transactionFee")).toEqual({
      kind: "transactionFee",
      amount: 0,
      waived: true,
    });
    expect(priced.total).toBe(6800 + 5300 + 1200 + 195);
  });

  it("a percentage off takes off the face value only, rounded to the minor unit", () => {
    const priced = priceBasket(basket({ promo: { code: "SPRING15", rule: { kind: "percentageOff", percent: 15 } } }));
    expect(priced.discount).toBe(Math.round((6500 + 5000) * 0.15));
    expect(priced.lines.at(-1)).toEqual({ kind: "discount", code: "SPRING15", amount: -1725 });
    expect(priced.total).toBe(priced.subtotal - 1725);
  });

  it("an amount off never takes off more than the tickets' face value", () => {
    expect(priceBasket(basket({ promo: { code: "TENOFF", rule: { kind: "amountOff", amount: 1000 } } })).discount).toBe(
      1000,
    );
    expect(
      priceBasket(basket({ promo: { code: "HUGE", rule: { kind: "amountOff", amount: 999_999 } } })).discount,
    ).toBe(11_500);
  });

  it("a special price applies to its price option only, and never raises a price", () => {
    const special = priceBasket(
      basket({
        promo: { code: "FULL40", rule: { kind: "specialPrice", priceOptionIds: ["full-a"], faceValue: 4000 } },
      }),
    );
    expect(special.discount).toBe(2500);
    const dearer = priceBasket(
      basket({ promo: { code: "ODD", rule: { kind: "specialPrice", priceOptionIds: ["conc-a"], faceValue: 9000 } } }),
    );
    expect(dearer.discount).toBe(0);
    expect(dearer.lines.some((line) => line.kind === "discount")).toBe(false);
  });

  it("vouchers pay in order, partly when the balance is short, and keep what is left", () => {
    const priced = priceBasket(
      basket({
        vouchers: [
          { id: "v1", balance: 5000 },
          { id: "v2", balance: 100_000 },
        ],
      }),
    );
    expect(priced.vouchers).toEqual([
      { id: "v1", amount: 5000, remaining: 0 },
      { id: "v2", amount: priced.total - 5000, remaining: 100_000 - (priced.total - 5000) },
    ]);
    expect(priced.toPay).toBe(0);
    const small = priceBasket(basket({ vouchers: [{ id: "v3", balance: 1500 }] }));
    expect(small.toPay).toBe(small.total - 1500);
  });

  it("an empty basket costs nothing, not even the transaction fee", () => {
    expect(priceBasket(basket({ tickets: [], extras: [], delivery: null })).total).toBe(0);
  });

  it("notices any change in what the buyer pays", () => {
    const seen = priceFingerprint(priceBasket(basket()));
    expect(hasPriceChanged(seen, priceBasket(basket()))).toBe(false);
    expect(hasPriceChanged(seen, priceBasket(basket({ transactionFee: 300 })))).toBe(true);
    expect(hasPriceChanged(null, priceBasket(basket({ transactionFee: 300 })))).toBe(false);
    // Nothing priced differently, but a voucher now covers less: the card would be charged more.
    const withVoucher = priceFingerprint(priceBasket(basket({ vouchers: [{ id: "v1", balance: 500 }] })));
    expect(hasPriceChanged(withVoucher, priceBasket(basket({ vouchers: [{ id: "v1", balance: 0 }] })))).toBe(true);
  });
  it("prices the paid membership as a line of its own; a membership alone has no transaction fee", () => {
    const membership = { productId: "plus-gbp", name: "Plus membership", months: 12, price: 4500 };
    const alone = priceBasket(
      basket({ tickets: [], extras: [], delivery: null, membership, protection: { chosen: true, feePerTicket: 250 } }),
    );
    expect(alone.lines).toEqual([
      { kind: "membership", productId: "plus-gbp", name: "Plus membership", months: 12, amount: 4500 },
    ]);
    expect(alone.total).toBe(4500);
    const withTickets = priceBasket(basket({ membership }));
    expect(withTickets.total).toBe(priceBasket(basket()).total + 4500);
  });
});

describe("what the tickets page adds up, from the priced basket", () => {
  const priced = priceBasket(
    basket({
      tickets: [
        { ref: "seat:p:12", priceOptionId: "full", faceValue: 6500, bookingFee: 300 },
        { ref: "seat:p:123", priceOptionId: "full", faceValue: 6500, bookingFee: 300 },
        { ref: "standing:c1:0", priceOptionId: "full", faceValue: 2000, bookingFee: 150 },
        { ref: "standing:c1:1", priceOptionId: "full", faceValue: 2000, bookingFee: 150 },
      ],
    }),
  );

  it("one seat, or every place of a standing claim", () => {
    expect(ticketsAmount(priced, "seat:p:12")).toBe(6800);
    expect(ticketsAmount(priced, "standing:c1")).toBe(4300);
    expect(ticketsAmount(priced, "seat:p:9")).toBe(0);
  });

  it("the tickets and the transaction fee, without extras or delivery", () => {
    expect(ticketsWithFee(priced)).toBe(6800 + 6800 + 4300 + 295);
  });
});

describe("price options a buyer may choose", () => {
  it("anyone: full, concession, child; members also member prices; nobody promo prices", () => {
    const guest = { memberPrices: false };
    const member = { memberPrices: true };
    expect(["full", "concession", "child"].every((kind) => mayChoosePriceOption(kind, guest))).toBe(true);
    expect(mayChoosePriceOption("member", guest)).toBe(false);
    expect(mayChoosePriceOption("member", member)).toBe(true);
    expect(mayChoosePriceOption("promo", member)).toBe(false);
  });
});

describe("decimalAmount (machine-read prices)", () => {
  it("writes minor units as a two-decimal string, on the integer", () => {
    expect([0, 5, 99, 100, 2700, 123456789].map(decimalAmount)).toEqual([
      "0.00",
      "0.05",
      "0.99",
      "1.00",
      "27.00",
      "1234567.89",
    ]);
    expect(() => decimalAmount(12.5)).toThrow(RangeError);
    expect(() => decimalAmount(-1)).toThrow(RangeError);
  });
});
