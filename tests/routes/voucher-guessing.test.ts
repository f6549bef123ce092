import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSDOM } from "jsdom";
import { fixedClock } from "~/clock";
import { startServer } from "../support/app";
import { buyerBrowser } from "../support/browser";
import { throughToPayment } from "../support/checkout-journey";
import { insertVoucher } from "../support/money";
import { seedSmall } from "../support/seed";

// The payment page's voucher form as a guesser uses it (issue 53): each guess from a new basket,
// a new session and a new address behind the trusted proxy. The card number's count carries on
// across all of them, and the page says the same for a wrong number as for a wrong code.

describe("guessing a voucher's code on the payment page", () => {
  const clock = fixedClock(new Date().toISOString());
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: "1" }, { seed: seedSmall, clock });
    await insertVoucher(server.services.store, { number: "GVGUESS0001", redemptionCode: "4821", balance: 5000 });
  });
  afterAll(async () => {
    await server.close();
  });

  let seats = 0;
  /**
   * Someone new on the payment page: their own basket (a seat of row B from B3 on, as B1 and B2
   * take no vouchers), session and address.
   */
  const stranger = async () => {
    seats += 1;
    const buyer = buyerBrowser(server.url, { headers: { "X-Forwarded-For": `203.0.113.${seats}` } });
    await throughToPayment(buyer, server.services.store, [`B${seats + 2}`]);
    return buyer;
  };
  /** The answer to the voucher form: its status and what the page says beside the number. */
  const tryVoucher = async (
    buyer: Awaited<ReturnType<typeof stranger>>,
    voucherNumber: string,
    voucherCode: string,
  ) => {
    const response = await buyer.post("/checkout/payment", { intent: "voucher", voucherNumber, voucherCode });
    const { document } = new JSDOM(await response.text()).window;
    const described = document.querySelector("#voucherNumber")?.getAttribute("aria-describedby")?.split(" ") ?? [];
    const message = described.map((id) => document.getElementById(id)?.textContent?.trim()).join(" ");
    return { status: response.status, message };
  };

  it("a wrong number and a wrong code get the same page; five wrong codes from five strangers lock the number", async () => {
    const wrongNumber = await tryVoucher(await stranger(), "GVGUESS9999", "4821");
    const answers = [];
    for (const code of ["0000", "0001", "0002", "0003", "0004"]) {
      answers.push(await tryVoucher(await stranger(), "GVGUESS0001", code));
      clock.advance(6_000);
    }
    const invalid = {
      status: 400,
      message: expect.stringContaining(
        "We can't find a voucher with that number and code. Please check them and try again.",
      ) as unknown,
    };
    expect(wrongNumber).toEqual(invalid);
    expect(answers).toEqual(Array.from({ length: 5 }, () => wrongNumber));
    // The holder, from elsewhere, with the right code: refused as the fifth wrong code locked it.
    expect(await tryVoucher(await stranger(), "GV-GUESS-0001", "4821")).toEqual({
      status: 400,
      message: expect.stringContaining("Too many attempts. Please wait a while before trying again.") as unknown,
    });
  }, 60_000);
});
