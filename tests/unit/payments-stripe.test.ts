import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CardDetails } from "~/forms/checkout/card-types";
import type { GatewayResult, PaymentRequest } from "~/payments/gateway";
import { createStripeGateway, type StripeGateway, type StripeGatewayOptions } from "~/payments/stripe.server";
import {
  FAKE_STRIPE_CARDS as CARDS,
  HostedPageError,
  completeThreeDSecure,
  hostedPageBackLink,
  payOnHostedPage,
  startFakeStripe,
  type FakeEvent,
  type FakeStripe,
} from "../support/fake-stripe";

// The Stripe adapter through the real `stripe` SDK, against a local fake of Stripe's HTTP API
// (tests/support/fake-stripe.ts): every answer below went over HTTP as Stripe's would.

const PUBLIC_URL = "https://tickets.example.com";
const SECRET_KEY = "sk_test_box_office";

let fake: FakeStripe;
let direct: StripeGateway;
let hosted: StripeGateway;
let keys = 0;

beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: SECRET_KEY });
});
afterAll(() => fake.close());

function gateway(overrides: Partial<StripeGatewayOptions> = {}): StripeGateway {
  return createStripeGateway({
    secretKey: SECRET_KEY,
    webhookSecret: fake.webhookSecret,
    mode: "direct",
    publicUrl: PUBLIC_URL,
    apiUrl: fake.url,
    timeoutMs: 5000,
    // Off unless a test is about retries: a failure shows at once instead of after backoff.
    maxNetworkRetries: 0,
    ...overrides,
  });
}

beforeEach(() => {
  direct = gateway();
  hosted = gateway({ mode: "hosted" });
});

function request(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  keys += 1;
  // The fake outlives each test: keys are unique per run so no test replays another's answer.
  return {
    idempotencyKey: `order-${keys}-${Date.now()}:1`,
    amount: 4550,
    currency: "GBP",
    description: "Hamlet, 2 tickets",
    returnUrl: "/checkout/verify",
    orderNumber: `BX-${1000 + keys}`,
    ...overrides,
  };
}

function card(number: string, overrides: Partial<CardDetails> = {}): CardDetails {
  return { number, expiryMonth: 4, expiryYear: 2099, cvv: "123", holderName: "Ada Lovelace", ...overrides };
}

const pay = (number: string, overrides: Partial<PaymentRequest> = {}, cardOverrides: Partial<CardDetails> = {}) =>
  direct.authorise({ ...request(overrides), card: card(number, cardOverrides) });

function referenceOf(result: GatewayResult): string {
  if (!("reference" in result) || !result.reference) throw new Error(`no reference in ${JSON.stringify(result)}`);
  return result.reference;
}

function actionUrlOf(result: GatewayResult): string {
  if (result.status !== "actionRequired") throw new Error(`no action in ${JSON.stringify(result)}`);
  return result.action.url;
}

const intent = (id: string) => {
  const found = fake.paymentIntents().find((candidate) => candidate.id === id);
  if (!found) throw new Error(`fake Stripe has no ${id}`);
  return found;
};
const session = (id: string) => fake.sessions().find((candidate) => candidate.id === id);

async function authorised(amount = 4550): Promise<string> {
  const result = await pay(CARDS.visa, { amount });
  expect(result.status).toBe("authorised");
  return referenceOf(result);
}

describe("stripe gateway: what it offers", () => {
  it("takes Visa, Mastercard and Amex, on our page (direct) or Stripe's (hosted), and no PayPal or wallets", () => {
    expect(direct.name).toBe("stripe");
    expect(direct.cardBrands).toEqual(["visa", "mastercard", "amex"]);
    expect(direct.offers).toEqual({ cardEntry: "onSite", paypal: false, wallets: false });
    expect(hosted.offers).toEqual({ cardEntry: "hosted", paypal: false, wallets: false });
  });

  it("refuses PayPal and wallets without asking Stripe", async () => {
    const before = fake.requests.length;
    expect(await direct.startPayPal({ ...request(), cancelUrl: "/checkout/verify" })).toEqual({
      status: "declined",
      reference: null,
      failure: "error",
      brand: null,
      last4: null,
    });
    expect(await direct.authoriseWallet({ ...request(), wallet: "googlePay", token: "tok" })).toMatchObject({
      status: "declined",
      failure: "error",
      reference: null,
    });
    expect(fake.requests.length).toBe(before);
  });

  it("never sends a card number from a hosted deployment", async () => {
    const before = fake.requests.length;
    expect(await hosted.authorise({ ...request(), card: card(CARDS.visa) })).toMatchObject({
      status: "declined",
      failure: "error",
      reference: null,
    });
    expect(fake.requests.length).toBe(before);
  });
});

describe("stripe gateway: cards on our page", () => {
  it.each([
    [CARDS.visa, "visa", "4242"],
    [CARDS.mastercard, "mastercard", "4444"],
    [CARDS.amex, "amex", "0005"],
  ])("%s is authorised (%s), held for capture with our key and order number", async (number, brand, last4) => {
    const req = request();
    const result = await direct.authorise({ ...req, card: card(number) });
    expect(result).toEqual({
      status: "authorised",
      reference: expect.stringMatching(/^pi_/),
      brand,
      last4,
      amount: 4550,
      currency: "GBP",
    });
    expect(intent(referenceOf(result))).toMatchObject({
      status: "requires_capture",
      capture_method: "manual",
      amount: 4550,
      amount_capturable: 4550,
      amount_received: 0,
      currency: "gbp",
      description: "Hamlet, 2 tickets",
      metadata: { idempotency_key: req.idempotencyKey, order_number: req.orderNumber },
    });
  });

  it.each([
    [CARDS.declined, "declined"],
    [CARDS.insufficientFunds, "insufficientFunds"],
    [CARDS.expired, "declined"],
    [CARDS.incorrectCvc, "declined"],
    [CARDS.processingError, "declined"],
  ])("%s is declined: %s, with the PaymentIntent Stripe made", async (number, failure) => {
    const result = await pay(number);
    expect(result).toEqual({
      status: "declined",
      reference: expect.stringMatching(/^pi_/),
      failure,
      brand: "visa",
      last4: number.slice(-4),
    });
    expect(intent(referenceOf(result)).status).toBe("requires_payment_method");
  });

  it("declines a number Stripe cannot read, with no PaymentIntent made", async () => {
    const before = fake.counts.paymentIntents;
    expect(await pay("4242424242424241")).toEqual({
      status: "declined",
      reference: null,
      failure: "declined",
      brand: null,
      last4: "4241",
    });
    expect(fake.counts.paymentIntents).toBe(before);
  });

  it("names a brand the checkout does not take, and leaves refusing it to the payment service", async () => {
    // The payment service refuses and voids it, whichever path brings the authorisation first
    // (this answer or the webhook): an adapter cancelling on its own raced the webhook's sale.
    const cancelsBefore = fake.counts.cancels;
    const result = await pay(CARDS.discover);
    expect(result).toMatchObject({ status: "authorised", brand: "discover", last4: "1117" });
    expect(intent(referenceOf(result)).status).toBe("requires_capture");
    expect(fake.counts.cancels).toBe(cancelsBefore);
  });

  it("says nothing of a brand Stripe calls unknown", async () => {
    fake.treatCard(CARDS.mastercard, { brand: "unknown" });
    try {
      expect(await pay(CARDS.mastercard)).toMatchObject({ status: "authorised", brand: null, last4: "4444" });
    } finally {
      fake.treatCard(CARDS.mastercard, {});
    }
  });

  it("makes one PaymentIntent for one idempotency key, however often it is sent", async () => {
    const req = { ...request(), card: card(CARDS.visa) };
    const before = fake.counts.paymentIntents;
    const first = await direct.authorise(req);
    const second = await gateway().authorise(req);
    expect(second).toEqual(first);
    expect(fake.counts.paymentIntents).toBe(before + 1);
    const sent = fake.requests.filter((entry) => entry.idempotencyKey === req.idempotencyKey);
    expect(sent.map((entry) => entry.replayed)).toEqual([false, true]);
  });

  it("answers a repeated decline with the same decline, not a second attempt", async () => {
    const req = { ...request(), card: card(CARDS.insufficientFunds) };
    const before = fake.counts.paymentIntents;
    const first = await direct.authorise(req);
    expect(await direct.authorise(req)).toEqual(first);
    expect(first).toMatchObject({ status: "declined", failure: "insufficientFunds" });
    expect(fake.counts.paymentIntents).toBe(before + 1);
  });

  it("sends the buyer to 3-D Secure and takes the outcome from Stripe when they pass", async () => {
    const result = await pay(CARDS.threeDSecure);
    const reference = referenceOf(result);
    expect(result).toEqual({
      status: "actionRequired",
      reference,
      action: { kind: "challenge", url: `${fake.url}/3ds/${reference}`, method: "GET", fields: {} },
      brand: "visa",
      last4: "3220",
    });
    expect(fake.object(reference).next_action).toMatchObject({
      redirect_to_url: { return_url: `${PUBLIC_URL}/checkout/verify` },
    });
    // Not answered yet: continuing asks again.
    expect(await direct.continue(reference, {})).toMatchObject({ status: "actionRequired", reference });

    const back = new URL(await completeThreeDSecure(actionUrlOf(result), true));
    expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC_URL}/checkout/verify`);
    expect(back.searchParams.get("redirect_status")).toBe("succeeded");
    expect(direct.returnedReference(back.searchParams)).toBe(reference);
    expect(await direct.continue(reference, Object.fromEntries(back.searchParams))).toEqual({
      status: "authorised",
      reference,
      brand: "visa",
      last4: "3220",
      amount: 4550,
      currency: "GBP",
    });
    expect(intent(reference).status).toBe("requires_capture");
  });

  it("declines a failed 3-D Secure, whatever the return URL is edited to say", async () => {
    const result = await pay(CARDS.threeDSecure);
    const reference = referenceOf(result);
    const back = new URL(await completeThreeDSecure(actionUrlOf(result), false));
    expect(back.searchParams.get("redirect_status")).toBe("failed");
    back.searchParams.set("redirect_status", "succeeded");
    expect(await direct.continue(reference, Object.fromEntries(back.searchParams))).toEqual({
      status: "declined",
      reference,
      failure: "challengeFailed",
      brand: "visa",
      last4: "3220",
    });
  });

  it("finds Stripe's references among the return URL's query, and nothing else", () => {
    const query = (value: string) => new URLSearchParams(value);
    expect(direct.returnedReference(query("payment_intent=pi_123&redirect_status=succeeded"))).toBe("pi_123");
    expect(direct.returnedReference(query("session_id=cs_test_abc"))).toBe("cs_test_abc");
    expect(direct.returnedReference(query("reference=sbx_123"))).toBeNull();
    expect(direct.returnedReference(query("payment_intent=cs_123"))).toBeNull();
    expect(direct.returnedReference(query("session_id=pi_123"))).toBeNull();
    expect(direct.returnedReference(query("payment_intent=pi_1/../../v1/refunds"))).toBeNull();
  });
});

describe("stripe gateway: failures that are not declines", () => {
  it("throws when Stripe refuses the key", async () => {
    await expect(
      gateway({ secretKey: "sk_test_wrong" }).authorise({ ...request(), card: card(CARDS.visa) }),
    ).rejects.toThrow(/Invalid API Key/);
  });

  it("throws when Stripe fails", async () => {
    fake.failNext(500);
    await expect(pay(CARDS.visa)).rejects.toMatchObject({ statusCode: 500 });
  });

  it("throws when Stripe does not answer in time, and nothing was made", async () => {
    const before = fake.counts.paymentIntents;
    fake.hang(CARDS.mastercard, 1);
    const started = Date.now();
    await expect(
      gateway({ timeoutMs: 300 }).authorise({ ...request(), card: card(CARDS.mastercard) }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(fake.counts.paymentIntents).toBe(before);
  });

  it("retries an unanswered call with the same idempotency key, and charges once", async () => {
    const before = fake.counts.paymentIntents;
    fake.hang(CARDS.amex, 1);
    const req = { ...request(), card: card(CARDS.amex) };
    const result = await gateway({ timeoutMs: 300, maxNetworkRetries: 1 }).authorise(req);
    expect(result).toMatchObject({ status: "authorised", brand: "amex" });
    expect(fake.counts.paymentIntents).toBe(before + 1);
    expect(fake.requests.filter((entry) => entry.idempotencyKey === req.idempotencyKey)).toHaveLength(2);
  });

  it("throws when Stripe cannot be reached at all", async () => {
    await expect(
      gateway({ apiUrl: "http://127.0.0.1:9" }).authorise({ ...request(), card: card(CARDS.visa) }),
    ).rejects.toThrow();
  });
});

describe("stripe gateway: capture, void, refund", () => {
  it("captures an authorised payment once", async () => {
    const reference = await authorised();
    const before = fake.counts.captures;
    expect(await direct.capture(reference, 4550)).toEqual({ ok: true });
    expect(intent(reference)).toMatchObject({ status: "succeeded", amount_received: 4550, amount_capturable: 0 });
    // Another server capturing the same payment: answered from the first, never captured twice.
    expect(await gateway().capture(reference, 4550)).toEqual({ ok: false });
    expect(await direct.capture(reference, 4550)).toEqual({ ok: false });
    expect(fake.counts.captures).toBe(before + 1);
  });

  it("captures less than authorised, never more", async () => {
    const reference = await authorised();
    expect(await direct.capture(reference, 4551)).toEqual({ ok: false });
    expect(intent(reference).status).toBe("requires_capture");
    expect(await direct.capture(reference, 0)).toEqual({ ok: false });
    const other = await authorised();
    expect(await direct.capture(other, 1000)).toEqual({ ok: true });
    expect(intent(other)).toMatchObject({ status: "succeeded", amount_received: 1000 });
  });

  it("captures nothing declined, waiting on 3-D Secure or unknown", async () => {
    expect(await direct.capture(referenceOf(await pay(CARDS.declined)), 4550)).toEqual({ ok: false });
    expect(await direct.capture(referenceOf(await pay(CARDS.threeDSecure)), 4550)).toEqual({ ok: false });
    expect(await direct.capture("pi_unknown", 4550)).toEqual({ ok: false });
    expect(await direct.capture("sbx_123", 4550)).toEqual({ ok: false });
  });

  it("voids an authorisation before capture, twice harmlessly, and then it cannot be captured", async () => {
    const reference = await authorised();
    expect(await direct.void(reference)).toEqual({ ok: true });
    expect(intent(reference)).toMatchObject({ status: "canceled", amount_capturable: 0 });
    expect(await direct.void(reference)).toEqual({ ok: true });
    expect(await direct.capture(reference, 4550)).toEqual({ ok: false });
  });

  it("voids a payment still waiting on 3-D Secure, and the buyer's late pass changes nothing", async () => {
    const result = await pay(CARDS.threeDSecure);
    const reference = referenceOf(result);
    expect(await direct.void(reference)).toEqual({ ok: true });
    await completeThreeDSecure(actionUrlOf(result), true);
    expect(await direct.continue(reference, {})).toMatchObject({ status: "declined", failure: "cancelled" });
  });

  it("does not void a captured payment", async () => {
    const reference = await authorised();
    await direct.capture(reference, 4550);
    expect(await direct.void(reference)).toEqual({ ok: false });
    expect(intent(reference).status).toBe("succeeded");
  });

  it("refunds in parts up to what was captured, once per idempotency key", async () => {
    const reference = await authorised();
    await direct.capture(reference, 4000);
    const before = fake.counts.refunds;
    expect(await direct.refund(reference, 1000, `${reference}:refund:1`)).toEqual({ ok: true });
    expect(intent(reference).amount_refunded).toBe(1000);
    // A retried command: answered ok, nothing refunded twice.
    expect(await direct.refund(reference, 1000, `${reference}:refund:1`)).toEqual({ ok: true });
    expect(intent(reference).amount_refunded).toBe(1000);
    expect(fake.counts.refunds).toBe(before + 1);
    // The same key for another amount is another request: refused.
    expect(await direct.refund(reference, 2000, `${reference}:refund:1`)).toEqual({ ok: false });
    expect(await direct.refund(reference, 3001, `${reference}:refund:2`)).toEqual({ ok: false });
    expect(await direct.refund(reference, 3000, `${reference}:refund:3`)).toEqual({ ok: true });
    expect(intent(reference).amount_refunded).toBe(4000);
    expect(fake.counts.refunds).toBe(before + 2);
  });

  it("refunds nothing that was not captured", async () => {
    const reference = await authorised();
    expect(await direct.refund(reference, 1000, `${reference}:refund:1`)).toEqual({ ok: false });
    expect(await direct.refund(reference, 0, `${reference}:refund:2`)).toEqual({ ok: false });
    expect(intent(reference).amount_refunded).toBe(0);
  });
});

describe("stripe gateway: status", () => {
  it("by reference: authorised, a step still waiting as pending, voided as cancelled, unknown as unknown", async () => {
    const reference = await authorised();
    expect(await direct.status("any-key", reference)).toEqual({
      status: "authorised",
      reference,
      brand: "visa",
      last4: "4242",
      amount: 4550,
      currency: "GBP",
    });
    const waiting = referenceOf(await pay(CARDS.threeDSecure));
    expect(await direct.status("any-key", waiting)).toEqual({ status: "pending", reference: waiting });
    await direct.void(reference);
    expect(await direct.status("any-key", reference)).toMatchObject({ status: "declined", failure: "cancelled" });
    expect(await direct.status("any-key", "pi_never_made")).toEqual({ status: "unknown" });
  });

  it("by idempotency key alone when the call's answer never came", async () => {
    const req = request({ idempotencyKey: `o'brien-${Date.now()}:1` });
    const result = await direct.authorise({ ...req, card: card(CARDS.mastercard) });
    expect(await gateway().status(req.idempotencyKey)).toEqual({
      status: "authorised",
      reference: referenceOf(result),
      brand: "mastercard",
      last4: "4444",
      amount: 4550,
      currency: "GBP",
    });
    const declined = request();
    await direct.authorise({ ...declined, card: card(CARDS.insufficientFunds) });
    expect(await direct.status(declined.idempotencyKey)).toMatchObject({
      status: "declined",
      failure: "insufficientFunds",
    });
  });

  it("does not know a key whose call never reached Stripe", async () => {
    const req = request();
    fake.hang(CARDS.visa, 1);
    await expect(gateway({ timeoutMs: 200 }).authorise({ ...req, card: card(CARDS.visa) })).rejects.toThrow();
    expect(await direct.status(req.idempotencyKey)).toEqual({ status: "unknown" });
  });
});

describe("stripe gateway: cards on Stripe's page (Checkout)", () => {
  const typed = (number: string) => ({ number, expiry: "04/34", cvc: "123", name: "Ada Lovelace" });

  async function start(overrides: Partial<PaymentRequest> = {}) {
    const req = request(overrides);
    const cancelUrl = `/checkout/verify?cancelled=${encodeURIComponent(req.idempotencyKey)}`;
    const result = await hosted.startHostedCard({ ...req, cancelUrl });
    return { req, result, reference: referenceOf(result), url: actionUrlOf(result) };
  }

  it("sends the buyer to a Checkout Session for the amount, held for capture", async () => {
    const { req, result, reference } = await start();
    expect(result).toEqual({
      status: "actionRequired",
      reference: expect.stringMatching(/^cs_/),
      action: { kind: "hostedPage", url: `${fake.url}/pay/${reference}`, method: "GET", fields: {} },
      brand: null,
      last4: null,
    });
    expect(session(reference)).toMatchObject({
      status: "open",
      amount_total: 4550,
      currency: "gbp",
      client_reference_id: req.orderNumber,
      metadata: { idempotency_key: req.idempotencyKey, order_number: req.orderNumber },
      success_url: `${PUBLIC_URL}/checkout/verify?session_id={CHECKOUT_SESSION_ID}`,
      // Stripe fills the placeholder in on the success address only: the cancel address is the caller's.
      cancel_url: `${PUBLIC_URL}/checkout/verify?cancelled=${encodeURIComponent(req.idempotencyKey)}`,
    });
  });

  it("makes one session for one idempotency key", async () => {
    const req = { ...request(), cancelUrl: "/checkout/verify" };
    const before = fake.counts.sessions;
    const first = await hosted.startHostedCard(req);
    expect(await hosted.startHostedCard(req)).toEqual(first);
    expect(fake.counts.sessions).toBe(before + 1);
  });

  it("is authorised once the buyer has paid there, read from Stripe, and captured by either reference", async () => {
    const { req, reference, url } = await start();
    const back = new URL(await payOnHostedPage(url, typed(CARDS.visa)));
    expect(back.href).toBe(`${PUBLIC_URL}/checkout/verify?session_id=${reference}`);
    expect(hosted.returnedReference(back.searchParams)).toBe(reference);
    const result = await hosted.continue(reference, Object.fromEntries(back.searchParams));
    expect(result).toEqual({
      status: "authorised",
      reference: expect.stringMatching(/^pi_/),
      brand: "visa",
      last4: "4242",
      amount: 4550,
      currency: "GBP",
    });
    const paid = intent(referenceOf(result));
    expect(paid).toMatchObject({ status: "requires_capture", capture_method: "manual", amount: 4550 });
    expect(paid.metadata.idempotency_key).toBe(req.idempotencyKey);
    expect(await hosted.status(req.idempotencyKey)).toMatchObject({ status: "authorised", reference: paid.id });
    expect(await hosted.capture(reference, 4550)).toEqual({ ok: true });
    expect(intent(paid.id)).toMatchObject({ status: "succeeded", amount_received: 4550 });
    expect(await hosted.refund(reference, 550, `${reference}:refund:1`)).toEqual({ ok: true });
    expect(intent(paid.id).amount_refunded).toBe(550);
  });

  it("leaves the buyer on Stripe's page after a declined card: still pending, then paid with another", async () => {
    const { req, reference, url } = await start();
    await expect(payOnHostedPage(url, typed(CARDS.declined))).rejects.toThrow(
      new HostedPageError("Your card was declined."),
    );
    expect(await hosted.status(req.idempotencyKey, reference)).toEqual({ status: "pending", reference });
    // The failed try's PaymentIntent is found by key, but is not the answer while the page is open.
    expect(await hosted.status(req.idempotencyKey)).toMatchObject({ status: "pending" });
    await payOnHostedPage(url, typed(CARDS.amex));
    expect(await hosted.continue(reference, {})).toMatchObject({ status: "authorised", brand: "amex", last4: "0005" });
  });

  it("takes 3-D Secure on Stripe's page as part of paying there", async () => {
    const { reference, url } = await start();
    const challenge = await payOnHostedPage(url, typed(CARDS.threeDSecure));
    expect(challenge).toMatch(new RegExp(`^${fake.url}/3ds/pi_`));
    // Still on Stripe's side: the session is open until the buyer answers.
    expect(await hosted.status("any-key", reference)).toEqual({ status: "pending", reference });
    const afterChallenge = await completeThreeDSecure(challenge, true);
    const back = await fetch(afterChallenge, { redirect: "manual" });
    expect(back.headers.get("location")).toBe(`${PUBLIC_URL}/checkout/verify?session_id=${reference}`);
    expect(await hosted.continue(reference, {})).toMatchObject({ status: "authorised", brand: "visa", last4: "3220" });
  });

  it("cancels when the buyer comes back through the cancel URL, and the session can no longer be paid", async () => {
    const { req, reference, url } = await start();
    const back = new URL(await hostedPageBackLink(url));
    // No placeholder left in it: the caller's own address, naming the attempt (its key).
    expect(back.href).toBe(`${PUBLIC_URL}/checkout/verify?cancelled=${encodeURIComponent(req.idempotencyKey)}`);
    expect(hosted.returnedReference(back.searchParams)).toBeNull();
    expect(await hosted.continue(reference, Object.fromEntries(back.searchParams))).toEqual({
      status: "declined",
      reference,
      failure: "cancelled",
      brand: null,
      last4: null,
    });
    expect(session(reference)?.status).toBe("expired");
    await expect(payOnHostedPage(url, typed(CARDS.visa))).rejects.toThrow(/410/);
    expect(await hosted.status("any-key", reference)).toMatchObject({ status: "declined", failure: "cancelled" });
  });

  it("voids an open session by expiring it", async () => {
    const { reference } = await start();
    expect(await hosted.status("any-key", reference)).toEqual({ status: "pending", reference });
    expect(await hosted.void(reference)).toEqual({ ok: true });
    expect(session(reference)?.status).toBe("expired");
    expect(await hosted.void(reference)).toEqual({ ok: true });
  });

  it("voids a paid session's authorisation", async () => {
    const { reference, url } = await start();
    await payOnHostedPage(url, typed(CARDS.visa));
    expect(await hosted.void(reference)).toEqual({ ok: true });
    expect(intent(session(reference)!.payment_intent!).status).toBe("canceled");
  });
});

describe("stripe gateway: notifications (webhooks)", () => {
  function delivery(event: FakeEvent, header?: string) {
    const body = JSON.stringify(event);
    return { body, headers: new Headers({ "stripe-signature": header ?? fake.webhookHeader(body) }) };
  }

  const eventFor = (type: string, objectId: string) => {
    const found = fake.events(type).find((event) => event.data.object.id === objectId);
    if (!found) throw new Error(`no ${type} event for ${objectId}`);
    return found;
  };

  it("reads an authorisation, with the event's id, our key and the card", async () => {
    const req = request();
    const reference = referenceOf(await direct.authorise({ ...req, card: card(CARDS.visa) }));
    const event = eventFor("payment_intent.amount_capturable_updated", reference);
    const { body, headers } = delivery(event);
    expect(await direct.parseNotification(body, headers)).toEqual({
      eventId: event.id,
      idempotencyKey: req.idempotencyKey,
      result: { status: "authorised", reference, brand: "visa", last4: "4242", amount: 4550, currency: "GBP" },
    });
  });

  it("reads a failed payment and a cancelled one", async () => {
    const req = request();
    const failed = referenceOf(await direct.authorise({ ...req, card: card(CARDS.insufficientFunds) }));
    const failedEvent = delivery(eventFor("payment_intent.payment_failed", failed));
    expect(await direct.parseNotification(failedEvent.body, failedEvent.headers)).toMatchObject({
      idempotencyKey: req.idempotencyKey,
      result: { status: "declined", reference: failed, failure: "insufficientFunds", last4: "9995" },
    });
    const voided = await authorised();
    await direct.void(voided);
    const cancelled = delivery(eventFor("payment_intent.canceled", voided));
    expect(await direct.parseNotification(cancelled.body, cancelled.headers)).toMatchObject({
      result: { status: "declined", reference: voided, failure: "cancelled" },
    });
  });

  it("reads a completed and an expired Checkout Session", async () => {
    const req = request();
    const started = await hosted.startHostedCard({ ...req, cancelUrl: "/checkout/verify" });
    await payOnHostedPage(actionUrlOf(started), { number: CARDS.mastercard, expiry: "12/40", cvc: "123", name: "A" });
    const completed = delivery(eventFor("checkout.session.completed", referenceOf(started)));
    expect(await hosted.parseNotification(completed.body, completed.headers)).toMatchObject({
      idempotencyKey: req.idempotencyKey,
      result: { status: "authorised", reference: expect.stringMatching(/^pi_/), brand: "mastercard", last4: "4444" },
    });

    const other = request();
    const abandoned = referenceOf(await hosted.startHostedCard({ ...other, cancelUrl: "/checkout/verify" }));
    await hosted.void(abandoned);
    const expired = delivery(eventFor("checkout.session.expired", abandoned));
    expect(await hosted.parseNotification(expired.body, expired.headers)).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      idempotencyKey: other.idempotencyKey,
      result: { status: "declined", reference: abandoned, failure: "cancelled", brand: null, last4: null },
    });
  });

  it("refuses a tampered body, another secret, a stale signature, no signature, or no secret of its own", async () => {
    const reference = await authorised();
    const event = eventFor("payment_intent.amount_capturable_updated", reference);
    const genuine = delivery(event);
    expect(await direct.parseNotification(genuine.body, genuine.headers)).not.toBeNull();

    const tampered = genuine.body.replace('"amount":4550', '"amount":1');
    expect(tampered).not.toBe(genuine.body);
    expect(await direct.parseNotification(tampered, genuine.headers)).toBeNull();
    const forged = delivery(event, fake.webhookHeader(genuine.body, { secret: "whsec_someone_else" }));
    expect(await direct.parseNotification(forged.body, forged.headers)).toBeNull();
    const stale = delivery(
      event,
      fake.webhookHeader(genuine.body, { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
    );
    expect(await direct.parseNotification(stale.body, stale.headers)).toBeNull();
    expect(await direct.parseNotification(genuine.body, new Headers())).toBeNull();
    expect(await gateway({ webhookSecret: undefined }).parseNotification(genuine.body, genuine.headers)).toBeNull();
  });

  it("acknowledges, and ignores, an event it does not act on or one not about a payment of ours", async () => {
    const reference = await authorised();
    const created = eventFor("payment_intent.created", reference);
    const other = delivery(created);
    expect(await direct.parseNotification(other.body, other.headers)).toEqual({
      eventId: created.id,
      idempotencyKey: "",
      result: { status: "unknown" },
    });
    const foreign = fake.event("payment_intent.succeeded", { ...fake.object(reference), metadata: {} });
    const theirs = delivery(foreign);
    expect(await direct.parseNotification(theirs.body, theirs.headers)).toEqual({
      eventId: foreign.id,
      idempotencyKey: "",
      result: { status: "unknown" },
    });
  });

  it("delivers a signed event over HTTP that the gateway accepts", async () => {
    const received: { body: string; headers: Headers }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({
          body: Buffer.concat(chunks).toString("utf8"),
          headers: new Headers({ "stripe-signature": String(req.headers["stripe-signature"]) }),
        });
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const reference = await authorised();
      const event = eventFor("payment_intent.amount_capturable_updated", reference);
      const port = (server.address() as AddressInfo).port;
      expect((await fake.sendWebhook(`http://127.0.0.1:${port}/webhooks/stripe`, event)).status).toBe(200);
      expect(received).toHaveLength(1);
      expect(await direct.parseNotification(received[0]!.body, received[0]!.headers)).toMatchObject({
        eventId: event.id,
        result: { status: "authorised", reference },
      });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
