import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { startFakePayPal, type FakePayPal } from "../support/fake-paypal";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { htmlDriver, validateAllPages, type HtmlDriver } from "../support/html-driver";
import { fillCard, holdOneSeatToPayment, orderNumber } from "../support/no-script-checkout";
import { seedSmall } from "../support/seed";

// The whole no-script purchase with real providers' adapters: Stripe (cards on our page, and
// Stripe Checkout) and PayPal, each against a local stand-in of its HTTP API that answers as the
// provider's API reference documents, with the buyer sent to the stand-in's own pages (3-D Secure,
// PayPal's approval, Stripe's hosted card page) and back, as a browser without script would go.

type Server = Awaited<ReturnType<typeof startServer>>;
const pathOf = (buyer: HtmlDriver) => new URL(buyer.url).pathname;
const toPayment = (server: Server, buyer: HtmlDriver, row: "A" | "B", seat: number) =>
  holdOneSeatToPayment(server.services.store, buyer, row, seat);
const h1 = (buyer: HtmlDriver) => buyer.document.querySelector("h1")?.textContent?.trim();

/** What the Pay button says the buyer will pay, in minor units ("Pay £51.25" is 5125). */
function shownToPay(buyer: HtmlDriver) {
  const button = [...buyer.document.querySelectorAll("button")].find((b) => /^Pay /.test(b.textContent ?? ""));
  return Math.round(Number(button!.textContent!.replace(/[^0-9.]/g, "")) * 100);
}

describe("real providers without script: Stripe with cards on our page, and PayPal", () => {
  let stripe: FakeStripe;
  let paypal: FakePayPal;
  let server: Server;
  const buyer = (language = "en-GB") => htmlDriver(server.url(""), { language, otherSites: [stripe.url, paypal.url] });

  beforeAll(async () => {
    stripe = await startFakeStripe();
    paypal = await startFakePayPal();
    server = await startServer(
      {
        PAYMENT_PROVIDER: "stripe",
        STRIPE_MODE: "direct",
        STRIPE_SECRET_KEY: "sk_test_journeys",
        STRIPE_API_URL: stripe.url,
        PAYPAL_CLIENT_ID: paypal.clientId,
        PAYPAL_CLIENT_SECRET: paypal.clientSecret,
        PAYPAL_ENVIRONMENT: "sandbox",
        PAYPAL_API_URL: paypal.url,
      },
      { seed: seedSmall },
    );
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
    await paypal?.close();
  });

  it("a card pays: the confirmation, the PaymentIntent captured once for the amount shown", async () => {
    const jo = buyer();
    await toPayment(server, jo, "B", 3);
    fillCard(jo, "4242 4242 4242 4242");
    const shown = shownToPay(jo);
    await jo.press(/^Pay /);
    expect(pathOf(jo)).toBe("/checkout/confirmation");
    expect(jo.text()).toContain("Thank you, Jo Bloggs. Your order is complete.");
    expect(jo.text()).toContain("Stalls, row B, seat 3");
    const intents = stripe.paymentIntents().filter((intent) => intent.metadata.order_number === orderNumber(jo));
    expect(intents).toEqual([
      expect.objectContaining({
        status: "succeeded",
        amount: shown,
        amount_received: shown,
        brand: "visa",
        last4: "4242",
      }),
    ]);
  });

  it("a 3-D Secure card: to the bank's page and back, settled from the PaymentIntent", async () => {
    const jo = buyer("en-US");
    await toPayment(server, jo, "B", 4);
    fillCard(jo, "4000 0000 0000 3220");
    await jo.press(/^Pay /);
    expect(pathOf(jo)).toBe("/checkout/verify");
    expect(jo.text()).toContain("Your bank needs to confirm it's you.");
    await jo.follow("Continue");
    expect(new URL(jo.url).origin).toBe(new URL(stripe.url).origin);
    await jo.press("Complete authentication");
    expect(pathOf(jo)).toBe("/checkout/confirmation");
    expect(h1(jo)).toBe("Order complete");
  });

  it("a declined card reaches the failed page; another card then pays the same order", async () => {
    const jo = buyer();
    await toPayment(server, jo, "B", 5);
    fillCard(jo, "4000 0000 0000 0002");
    await jo.press(/^Pay /);
    expect(pathOf(jo)).toBe("/checkout/failed");
    expect(h1(jo)).toBe("Your payment was unsuccessful");
    await jo.follow("Try again");
    expect(pathOf(jo)).toBe("/checkout/payment");
    fillCard(jo, "5555 5555 5555 4444");
    await jo.press(/^Pay /);
    expect(pathOf(jo)).toBe("/checkout/confirmation");
  });

  it("PayPal: cancelled at PayPal comes back to pay again; approved, the order is paid", async () => {
    const jo = buyer();
    await toPayment(server, jo, "B", 6);
    jo.choose("PayPal");
    await jo.press(/^Pay /);
    expect(jo.text()).toContain("You'll go to PayPal to approve the payment.");
    await jo.follow("Continue");
    await jo.press("Cancel and return to merchant");
    expect(pathOf(jo)).toBe("/checkout/payment");
    jo.choose("PayPal");
    await jo.press(/^Pay /);
    await jo.follow("Continue");
    await jo.press("Approve");
    expect(pathOf(jo)).toBe("/checkout/confirmation");
    expect(h1(jo)).toBe("Order complete");
    // Two PayPal orders (the cancelled one and the approved one); one capture, nothing by card.
    expect(paypal.ordersCreated).toBe(2);
    expect(paypal.captures()).toHaveLength(1);
    expect(stripe.paymentIntents().filter((intent) => intent.metadata.order_number === orderNumber(jo))).toEqual([]);
  });

  it("the sandbox's pages are not there when Stripe takes the payments", async () => {
    for (const path of ["/sandbox/payments", "/sandbox/challenge/x", "/sandbox/paypal/x"])
      expect((await fetch(server.url(path))).status, path).toBe(404);
  });
});

describe("real providers without script: Stripe Checkout (cards on Stripe's page)", () => {
  let stripe: FakeStripe;
  let server: Server;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    server = await startServer(
      {
        PAYMENT_PROVIDER: "stripe",
        STRIPE_MODE: "hosted",
        STRIPE_SECRET_KEY: "sk_test_journeys",
        STRIPE_API_URL: stripe.url,
      },
      { seed: seedSmall },
    );
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  it("the payment page asks for no card; Stripe's page takes it and sends the buyer back paid", async () => {
    const jo = htmlDriver(server.url(""), { otherSites: [stripe.url] });
    await toPayment(server, jo, "A", 4);
    expect(jo.document.querySelector('input[autocomplete="cc-number"]')).toBeNull();
    expect(jo.text()).toContain("You'll enter your card details on our payment provider's secure page next.");
    expect(jo.text()).not.toContain("PayPal");
    await jo.press(/^Pay /);
    expect(jo.text()).toContain("You'll go to our payment provider's secure page to enter your card details.");
    await jo.follow("Continue");
    expect(new URL(jo.url).origin).toBe(new URL(stripe.url).origin);
    jo.fill("Card number", "4242 4242 4242 4242")
      .fill("Expiry (MM/YY)", "12/30")
      .fill("CVC", "123")
      .fill("Name on card", "Jo Bloggs");
    await jo.press("Pay");
    expect(pathOf(jo)).toBe("/checkout/confirmation");
    expect(h1(jo)).toBe("Order complete");
  });

  it("a sponsored-partner seat: Stripe's page refuses any card but American Express", async () => {
    const jo = htmlDriver(server.url(""), { otherSites: [stripe.url] });
    await toPayment(server, jo, "B", 1);
    expect(jo.text()).toContain("We accept American Express.");
    await jo.press(/^Pay /);
    await jo.follow("Continue");
    const card = (number: string) =>
      jo
        .fill("Card number", number)
        .fill("Expiry (MM/YY)", "12/30")
        .fill("CVC", "1234")
        .fill("Name on card", "Jo Bloggs");
    card("4242 4242 4242 4242");
    await jo.press("Pay");
    expect(new URL(jo.url).origin).toBe(new URL(stripe.url).origin);
    expect(jo.text()).toContain("Your card is not supported.");
    card("3782 822463 10005");
    await jo.press("Pay");
    expect(pathOf(jo)).toBe("/checkout/confirmation");
    expect(h1(jo)).toBe("Order complete");
  });
});

describe("pages", () => {
  it("every page the journeys received passes the Nu HTML Checker", async () => {
    await validateAllPages();
  });
});
