import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createPayPalGateway } from "~/payments/paypal.server";
import { createStripeGateway } from "~/payments/stripe.server";

// The adapters against the providers' real test-mode APIs, to catch what the local stand-ins
// (tests/support/fake-*.ts) cannot: an API that has moved on. Run only when keys are given (this
// machine has no internet, so CI skips them); docs/buying.md, "Taking real payments", says how:
//   STRIPE_TEST_SECRET_KEY=sk_test_… PAYPAL_TEST_CLIENT_ID=… PAYPAL_TEST_CLIENT_SECRET=… npx vitest run tests/contract
// Cards typed on our page need raw card data APIs enabled on the account: STRIPE_TEST_RAW_CARDS=yes.

const STRIPE_KEY = process.env.STRIPE_TEST_SECRET_KEY ?? "";
const RAW_CARDS = process.env.STRIPE_TEST_RAW_CARDS === "yes";
const PAYPAL_ID = process.env.PAYPAL_TEST_CLIENT_ID ?? "";
const PAYPAL_SECRET = process.env.PAYPAL_TEST_CLIENT_SECRET ?? "";
const PUBLIC_URL = "https://tickets.example.com";

const request = () => ({
  idempotencyKey: `contract-${randomUUID()}:1`,
  amount: 1250,
  currency: "GBP",
  description: "Contract test",
  orderNumber: "CONTR-ACT01",
  returnUrl: "/checkout/verify",
});

describe.skipIf(!STRIPE_KEY)("Stripe's test mode", () => {
  it("a Checkout Session: Stripe's page to go to; given up, it is expired and answers cancelled", async () => {
    const hosted = createStripeGateway({ secretKey: STRIPE_KEY, mode: "hosted", publicUrl: PUBLIC_URL });
    const sent = request();
    const started = await hosted.startHostedCard({ ...sent, cancelUrl: "/checkout/payment" });
    expect(started).toMatchObject({
      status: "actionRequired",
      reference: expect.stringMatching(/^cs_test_/),
      action: { kind: "hostedPage", method: "GET", url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//) },
    });
    const reference = "reference" in started ? started.reference! : "";
    expect(await hosted.status(sent.idempotencyKey, reference)).toMatchObject({ status: "pending" });
    expect(await hosted.continue(reference, {})).toMatchObject({ status: "declined", failure: "cancelled" });
  });

  it.skipIf(!RAW_CARDS)("a card on our page: authorised, captured once, refunded once", async () => {
    const direct = createStripeGateway({ secretKey: STRIPE_KEY, mode: "direct", publicUrl: PUBLIC_URL });
    const sent = request();
    const card = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvv: "123", holderName: "Jo Bloggs" };
    const result = await direct.authorise({ ...sent, card });
    expect(result).toMatchObject({ status: "authorised", brand: "visa", last4: "4242" });
    const reference = "reference" in result ? result.reference! : "";
    expect(await direct.capture(reference, sent.amount)).toEqual({ ok: true });
    expect(await direct.capture(reference, sent.amount)).toEqual({ ok: false });
    expect(await direct.refund(reference, 500, `${sent.idempotencyKey}:refund`)).toEqual({ ok: true });
    expect(await direct.refund(reference, 500, `${sent.idempotencyKey}:refund`)).toEqual({ ok: true });
  });
});

describe.skipIf(!PAYPAL_ID || !PAYPAL_SECRET)("PayPal's sandbox", () => {
  // Made inside each test: the describe's body runs even when it is skipped.
  const gateway = () =>
    createPayPalGateway({
      clientId: PAYPAL_ID,
      clientSecret: PAYPAL_SECRET,
      environment: "sandbox",
      publicUrl: PUBLIC_URL,
    });

  it("an order to approve at PayPal; not approved, it is still waiting and answers cancelled on return", async () => {
    const paypal = gateway();
    const sent = request();
    const started = await paypal.startPayPal({ ...sent, cancelUrl: "/checkout/payment" });
    expect(started).toMatchObject({
      status: "actionRequired",
      action: { kind: "approval", method: "GET", url: expect.stringMatching(/^https:\/\/www\.sandbox\.paypal\.com\//) },
    });
    const reference = "reference" in started ? started.reference! : "";
    expect(await paypal.status(sent.idempotencyKey, reference)).toMatchObject({ status: "pending" });
    expect(await paypal.continue(reference, {})).toMatchObject({ status: "declined", failure: "cancelled" });
  });
});
