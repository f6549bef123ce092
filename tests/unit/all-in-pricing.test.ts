import { describe, expect, it } from "vitest";
import {
  allInTicketPrice,
  bandPrice,
  defaultPriceOption,
  orderFee,
  priceBasket,
  specialPriceRange,
  type PricingInput,
} from "~/ticketing/pricing";

// The price a buyer is shown for a ticket is the price the basket charges for it
// (docs/decisions/0012-all-in-prices.md); the per-order fee is stated beside it, or waived.

const option = (kind: string, faceValue: number, bookingFee: number) => ({ kind, faceValue, bookingFee });

describe("all-in ticket prices", () => {
  it("a ticket's price is its face value and its booking fee", () => {
    expect(allInTicketPrice({ faceValue: 8900, bookingFee: 700 })).toBe(9600);
    expect(allInTicketPrice({ faceValue: 6500, bookingFee: 550 })).toBe(7050);
  });

  const basket = (tickets: PricingInput["tickets"], promo: PricingInput["promo"] = null): PricingInput => ({
    currency: "GBP",
    tickets,
    extras: [],
    membership: null,
    protection: { chosen: null, feePerTicket: 250 },
    delivery: null,
    transactionFee: 295,
    benefits: { protectionIncluded: false, noTransactionFee: false },
    promo,
    vouchers: [],
  });

  it("the basket's ticket line charges exactly the all-in price", () => {
    const tickets = [
      { ref: "A1", priceOptionId: "full", faceValue: 12500, bookingFee: 900 },
      { ref: "A2", priceOptionId: "member", faceValue: 11500, bookingFee: 900 },
    ];
    const priced = priceBasket(basket(tickets));
    expect(priced.lines.filter((line) => line.kind === "ticket").map((line) => line.amount)).toEqual(
      tickets.map(allInTicketPrice),
    );
  });

  it("a band is shown at its first Full Price option, the one a seat is charged at until another is chosen", () => {
    const options = [option("concession", 5500, 550), option("full", 6500, 550), option("full", 6000, 550)];
    expect(defaultPriceOption(options)).toBe(options[1]);
    expect(bandPrice(options)).toBe(7050);
    // A band with no Full Price is charged (and shown) at its first option.
    expect(bandPrice([option("child", 2000, 250), option("concession", 2500, 250)])).toBe(2250);
    expect(bandPrice([])).toBeNull();
  });

  it("the transaction fee is per order, and nothing for a member whose membership waives it", () => {
    expect(orderFee(295, { noTransactionFee: false })).toEqual({ amount: 295, waived: false });
    expect(orderFee(295, { noTransactionFee: true })).toEqual({ amount: 0, waived: true });
  });

  it("a special price is stated as what the basket charges once its discount is taken off", () => {
    const options = [
      option("full", 8900, 700),
      option("full", 4500, 400),
      option("full", 2500, 250),
      option("child", 2000, 250),
    ].map((priced, index) => ({ ...priced, id: `${priced.kind}-${index}` }));
    const fullPrice = options.filter(({ kind }) => kind === "full").map(({ id }) => id);
    const range = specialPriceRange(options, { priceOptionIds: fullPrice, faceValue: 4000 });
    // £40 + £7 and £40 + £4; the £25 ticket is cheaper already, so the code does not bring it down.
    expect(range).toEqual({ min: 4400, max: 4700 });
    const tickets = options.slice(0, 2).map(({ faceValue, bookingFee }, index) => ({
      ref: `T${index}`,
      priceOptionId: `full-${index}`,
      faceValue,
      bookingFee,
    }));
    const priced = priceBasket(
      basket(tickets, {
        code: "FULL40",
        rule: { kind: "specialPrice", priceOptionIds: ["full-0", "full-1"], faceValue: 4000 },
      }),
    );
    const ticketTotal = priced.lines
      .filter((line) => line.kind === "ticket")
      .reduce((sum, line) => sum + line.amount, 0);
    expect(ticketTotal - priced.discount).toBe(range!.min + range!.max);
    expect(specialPriceRange(options, { priceOptionIds: [], faceValue: 4000 })).toBeNull();
  });
});
