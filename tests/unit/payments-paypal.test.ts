import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { GatewayResult, PaymentRequest } from "~/payments/gateway";
import {
  createPayPalGateway,
  fromPayPalValue,
  toPayPalValue,
  type PayPalGateway,
  type PayPalGatewayOptions,
} from "~/payments/paypal.server";
import { startFakePayPal, type FakePayPal } from "../support/fake-paypal";

// The PayPal adapter against a local fake of PayPal's API and approval page (tests/support/
// fake-paypal.ts), over real HTTP: PayPal itself is never reached.

const PUBLIC_URL = "https://tickets.example/box";

let fake: FakePayPal;
let gateway: PayPalGateway;
let keys = 0;

beforeAll(async () => {
  fake = await startFakePayPal();
});
afterAll(() => fake.close());

function paypal(overrides: Partial<PayPalGatewayOptions> = {}): PayPalGateway {
  return createPayPalGateway({
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    environment: "sandbox",
    apiUrl: fake.url,
    webhookId: fake.webhookId,
    publicUrl: PUBLIC_URL,
    timeoutMs: 5000,
    ...overrides,
  });
}

beforeEach(() => {
  gateway = paypal();
});

function request(overrides: Partial<PaymentRequest> = {}): PaymentRequest & { cancelUrl: string } {
  keys += 1;
  return {
    idempotencyKey: `order-${keys}-${Date.now()}:1`,
    amount: 4550,
    currency: "GBP",
    description: "Hamlet, 2 tickets",
    returnUrl: "/checkout/verify",
    cancelUrl: "/checkout/verify?cancelled=1",
    orderNumber: `BO-${keys}`,
    ...overrides,
  };
}

function approvalOf(result: GatewayResult) {
  if (result.status !== "actionRequired") throw new Error(`no action in ${JSON.stringify(result)}`);
  return { reference: result.reference, url: result.action.url };
}

/** Starts a PayPal payment; the buyer is at the approval page. */
async function started(overrides: Partial<PaymentRequest> = {}) {
  const sent = request(overrides);
  return { ...approvalOf(await gateway.startPayPal(sent)), request: sent };
}

/** What the return URL PayPal sends the buyer to carries, as our route would read it. */
function returned(location: string) {
  const url = new URL(location);
  return { path: url.origin + url.pathname, query: url.searchParams };
}

/** Started, approved at PayPal and back at our return URL: authorised. */
async function authorisedPayment(overrides: Partial<PaymentRequest> = {}) {
  const payment = await started(overrides);
  await fake.approve(payment.url);
  expect(await gateway.continue(payment.reference, {})).toMatchObject({ status: "authorised" });
  return payment;
}

describe("PayPal gateway: approval", () => {
  it("creates an AUTHORIZE order and answers with the buyer's approval step", async () => {
    const before = fake.ordersCreated;
    const { reference, url, request: sent } = await started();
    expect(fake.ordersCreated).toBe(before + 1);
    expect(url).toBe(`${fake.url}/checkoutnow?token=${reference}`);
    expect(await gateway.startPayPal(sent)).toEqual({
      status: "actionRequired",
      reference,
      action: { kind: "approval", url, method: "GET", fields: {} },
      brand: null,
      last4: null,
    });
    expect(fake.order(reference)).toMatchObject({
      intent: "AUTHORIZE",
      status: "PAYER_ACTION_REQUIRED",
      purchase_units: [
        {
          amount: { currency_code: "GBP", value: "45.50" },
          custom_id: sent.idempotencyKey,
          invoice_id: sent.orderNumber,
          description: "Hamlet, 2 tickets",
        },
      ],
    });
    const creation = fake.requests().find((call) => call.path === "/v2/checkout/orders");
    expect(creation).toMatchObject({
      method: "POST",
      requestId: sent.idempotencyKey,
      body: {
        payment_source: {
          paypal: {
            experience_context: {
              return_url: `${PUBLIC_URL}/checkout/verify`,
              cancel_url: `${PUBLIC_URL}/checkout/verify?cancelled=1`,
              user_action: "PAY_NOW",
              shipping_preference: "NO_SHIPPING",
            },
          },
        },
      },
    });
  });

  it("leaves invoice_id out when there is no order number", async () => {
    const { reference } = await started({ orderNumber: undefined });
    const unit = (fake.order(reference)!.purchase_units as Record<string, unknown>[])[0]!;
    expect(unit).not.toHaveProperty("invoice_id");
  });

  it("makes one PayPal order of the same idempotency key sent twice", async () => {
    const sent = request();
    const before = fake.ordersCreated;
    const first = await gateway.startPayPal(sent);
    const second = await gateway.startPayPal(sent);
    expect(second).toEqual(first);
    expect(fake.ordersCreated).toBe(before + 1);
  });

  it("approved: the buyer comes back with the order's token, and continue authorises it", async () => {
    const { reference, url } = await started();
    const back = returned(await fake.approve(url));
    expect(back.path).toBe(`${PUBLIC_URL}/checkout/verify`);
    expect(back.query.get("PayerID")).toBe("FAKEPAYER");
    expect(gateway.returnedReference(back.query)).toBe(reference);
    expect(await gateway.continue(reference, Object.fromEntries(back.query))).toEqual({
      status: "authorised",
      reference,
      brand: null,
      last4: null,
      amount: 4550,
      currency: "GBP",
    });
    expect(fake.authorizations().filter((auth) => orderOf(auth) === reference)).toMatchObject([
      { status: "CREATED", amount: { currency_code: "GBP", value: "45.50" } },
    ]);
  });

  it("a reload of the return URL authorises nothing twice", async () => {
    const { reference, url } = await started();
    await fake.approve(url);
    expect(await gateway.continue(reference, {})).toMatchObject({ status: "authorised" });
    expect(await gateway.continue(reference, {})).toMatchObject({ status: "authorised" });
    expect(fake.authorizations().filter((auth) => orderOf(auth) === reference)).toHaveLength(1);
  });

  it("cancelled at PayPal: back at the cancel URL, declined as cancelled", async () => {
    const { reference, url } = await started();
    const back = returned(await fake.cancel(url));
    expect(back.query.get("cancelled")).toBe("1");
    expect(gateway.returnedReference(back.query)).toBe(reference);
    expect(await gateway.continue(reference, {})).toEqual({
      status: "declined",
      reference,
      failure: "cancelled",
      brand: null,
      last4: null,
    });
    expect(fake.authorizations().filter((auth) => orderOf(auth) === reference)).toHaveLength(0);
  });

  it("an edited return query cannot pass a payment: the outcome is PayPal's", async () => {
    const { reference } = await started();
    // Never approved, whatever the query claims.
    expect(await gateway.continue(reference, { token: reference, PayerID: "FAKEPAYER" })).toMatchObject({
      status: "declined",
      failure: "cancelled",
    });
  });

  it("a funding source declined at authorisation is declined", async () => {
    const { reference, url, request: sent } = await started();
    await fake.approveWithDeclinedFunding(url);
    expect(await gateway.continue(reference, {})).toEqual({
      status: "declined",
      reference,
      failure: "declined",
      brand: null,
      last4: null,
    });
    // Asked again (the reconciler), the same answer: PayPal replays the same request id.
    expect(await gateway.status(sent.idempotencyKey, reference)).toMatchObject({
      status: "declined",
      failure: "declined",
    });
  });

  it("finds the reference only in PayPal's token", () => {
    expect(gateway.returnedReference(new URLSearchParams("token=5O190127TN364715T&PayerID=X"))).toBe(
      "5O190127TN364715T",
    );
    expect(gateway.returnedReference(new URLSearchParams("reference=sbx_123"))).toBeNull();
    expect(gateway.returnedReference(new URLSearchParams("token=../../v1/oauth2"))).toBeNull();
  });

  it("refuses, without calling PayPal, what cannot be sent exactly", async () => {
    const before = fake.ordersCreated;
    for (const overrides of [
      { amount: 0 },
      { amount: 10.5 },
      { currency: "XYZ" },
      { returnUrl: "https://evil.example/steal" },
    ]) {
      expect(await gateway.startPayPal(request(overrides))).toEqual({
        status: "declined",
        reference: null,
        failure: "error",
        brand: null,
        last4: null,
      });
    }
    expect(fake.ordersCreated).toBe(before);
  });

  it("takes PayPal only: card and wallet payments are refused", async () => {
    const refused = { status: "declined", reference: null, failure: "error", brand: null, last4: null };
    const card = { number: "4242424242424242", expiryMonth: 4, expiryYear: 2030, cvv: "123", holderName: "A" };
    expect(await gateway.authorise({ ...request(), card })).toEqual(refused);
    expect(await gateway.startHostedCard(request())).toEqual(refused);
    expect(await gateway.authoriseWallet({ ...request(), wallet: "googlePay", token: "t" })).toEqual(refused);
    expect(gateway).toMatchObject({
      name: "paypal",
      cardBrands: [],
      offers: { cardEntry: "onSite", paypal: true, wallets: false },
    });
  });
});

function orderOf(resource: Record<string, unknown>): string | undefined {
  return (resource.supplementary_data as { related_ids?: { order_id?: string } } | undefined)?.related_ids?.order_id;
}

function capturesOf(reference: string) {
  return fake.captures().filter((capture) => orderOf(capture) === reference);
}

describe("PayPal gateway: capture, void, refund", () => {
  it("captures an authorised payment once", async () => {
    const { reference } = await authorisedPayment({ amount: 10250 });
    expect(await gateway.capture(reference, 10250)).toEqual({ ok: true });
    expect(await gateway.capture(reference, 10250)).toEqual({ ok: false });
    expect(capturesOf(reference)).toMatchObject([
      { status: "COMPLETED", amount: { currency_code: "GBP", value: "102.50" }, final_capture: true },
    ]);
  });

  it("captures nothing of a payment never approved", async () => {
    const { reference } = await started();
    expect(await gateway.capture(reference, 4550)).toEqual({ ok: false });
  });

  it("voids an authorisation before capture; it can no longer be captured", async () => {
    const { reference, request: sent } = await authorisedPayment();
    expect(await gateway.void(reference)).toEqual({ ok: true });
    expect(await gateway.void(reference)).toEqual({ ok: true });
    expect(await gateway.capture(reference, 4550)).toEqual({ ok: false });
    expect(await gateway.status(sent.idempotencyKey, reference)).toMatchObject({
      status: "declined",
      failure: "cancelled",
    });
    expect(await gateway.continue(reference, {})).toMatchObject({ status: "declined", failure: "cancelled" });
    expect(fake.authorizations().find((auth) => orderOf(auth) === reference)).toMatchObject({ status: "VOIDED" });
  });

  it("voiding an order never approved is harmless: nothing is held", async () => {
    const { reference } = await started();
    expect(await gateway.void(reference)).toEqual({ ok: true });
  });

  it("cannot void a captured payment", async () => {
    const { reference } = await authorisedPayment();
    expect(await gateway.capture(reference, 4550)).toEqual({ ok: true });
    expect(await gateway.void(reference)).toEqual({ ok: false });
  });

  it("refunds part of a capture, once per idempotency key", async () => {
    const { reference } = await authorisedPayment({ amount: 10250 });
    await gateway.capture(reference, 10250);
    const [capture] = capturesOf(reference);
    const refundsOfCapture = () =>
      fake
        .refunds()
        .filter((refund) =>
          (refund.links as { rel: string; href: string }[]).some(
            (link) => link.rel === "up" && link.href.endsWith(`/${capture!.id}`),
          ),
        );
    expect(await gateway.refund(reference, 2550, `${reference}:refund:1`)).toEqual({ ok: true });
    expect(await gateway.refund(reference, 2550, `${reference}:refund:1`)).toEqual({ ok: true });
    expect(refundsOfCapture()).toMatchObject([{ status: "COMPLETED", amount: { value: "25.50" } }]);
    expect(fake.captures().find((one) => one.id === capture!.id)).toMatchObject({ status: "PARTIALLY_REFUNDED" });
    // The rest, then one penny more than was taken.
    expect(await gateway.refund(reference, 7700, `${reference}:refund:2`)).toEqual({ ok: true });
    expect(await gateway.refund(reference, 1, `${reference}:refund:3`)).toEqual({ ok: false });
    expect(refundsOfCapture()).toHaveLength(2);
  });

  it("refunds nothing of a payment not captured", async () => {
    const { reference } = await authorisedPayment();
    expect(await gateway.refund(reference, 100, `${reference}:refund:1`)).toEqual({ ok: false });
  });
});

describe("PayPal gateway: status", () => {
  it("authorises an order the buyer approved but never came back from", async () => {
    const { reference, url, request: sent } = await started();
    await fake.approve(url);
    expect(await gateway.status(sent.idempotencyKey, reference)).toEqual({
      status: "authorised",
      reference,
      brand: null,
      last4: null,
      amount: 4550,
      currency: "GBP",
    });
    // The buyer's late return reads the same authorisation: one, not two.
    expect(await gateway.continue(reference, {})).toMatchObject({ status: "authorised" });
    expect(fake.authorizations().filter((auth) => orderOf(auth) === reference)).toHaveLength(1);
  });

  it("an order still at the approval page is pending", async () => {
    const { reference, request: sent } = await started();
    expect(await gateway.status(sent.idempotencyKey, reference)).toEqual({ status: "pending", reference });
  });

  it("without a reference PayPal cannot be asked: unknown", async () => {
    const { request: sent } = await started();
    expect(await gateway.status(sent.idempotencyKey)).toEqual({ status: "unknown" });
    expect(await gateway.status(sent.idempotencyKey, null)).toEqual({ status: "unknown" });
  });

  it("an order PayPal does not know, or another payment's, is unknown", async () => {
    const { reference } = await started();
    expect(await gateway.status("someone-else:1", reference)).toEqual({ status: "unknown" });
    expect(await gateway.status("order-x:1", "NOSUCHORDER000001")).toEqual({ status: "unknown" });
  });
});

/** A site that takes PayPal's webhooks: what parseNotification made of each delivery. */
async function webhookReceiver(receiving: () => PayPalGateway) {
  const received: Awaited<ReturnType<PayPalGateway["parseNotification"]>>[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      receiving()
        .parseNotification(Buffer.concat(chunks).toString("utf8"), headers)
        .then((parsed) => {
          received.push(parsed);
          res.writeHead(parsed ? 200 : 400).end();
        })
        .catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/paypal`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("PayPal gateway: webhooks", () => {
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  let receiving: PayPalGateway;
  beforeAll(async () => {
    receiver = await webhookReceiver(() => receiving);
  });
  afterAll(() => receiver.close());
  beforeEach(() => {
    receiving = gateway;
    receiver.received.length = 0;
  });

  it("CHECKOUT.ORDER.APPROVED: verified, and the approved order is authorised", async () => {
    const { reference, url, request: sent } = await started();
    await fake.approve(url);
    const delivery = await fake.sendWebhook(receiver.url, "CHECKOUT.ORDER.APPROVED", fake.order(reference));
    expect(delivery.status).toBe(200);
    expect(receiver.received).toEqual([
      {
        eventId: delivery.eventId,
        idempotencyKey: sent.idempotencyKey,
        result: { status: "authorised", reference, brand: null, last4: null, amount: 4550, currency: "GBP" },
      },
    ]);
    expect(fake.authorizations().filter((auth) => orderOf(auth) === reference)).toHaveLength(1);
  });

  it("PAYMENT.AUTHORIZATION.CREATED and VOIDED name the order and the payment", async () => {
    const { reference, request: sent } = await authorisedPayment();
    const authorization = () => fake.authorizations().find((auth) => orderOf(auth) === reference);
    const created = await fake.sendWebhook(receiver.url, "PAYMENT.AUTHORIZATION.CREATED", authorization());
    await gateway.void(reference);
    const voided = await fake.sendWebhook(receiver.url, "PAYMENT.AUTHORIZATION.VOIDED", authorization());
    expect(receiver.received).toEqual([
      {
        eventId: created.eventId,
        idempotencyKey: sent.idempotencyKey,
        result: { status: "authorised", reference, brand: null, last4: null, amount: 4550, currency: "GBP" },
      },
      {
        eventId: voided.eventId,
        idempotencyKey: sent.idempotencyKey,
        result: { status: "declined", reference, failure: "cancelled", brand: null, last4: null },
      },
    ]);
  });

  it("another event, genuine, is read as nothing to apply", async () => {
    const { reference } = await authorisedPayment();
    await gateway.capture(reference, 4550);
    const delivery = await fake.sendWebhook(receiver.url, "PAYMENT.CAPTURE.COMPLETED", capturesOf(reference)[0]);
    expect(receiver.received).toEqual([
      { eventId: delivery.eventId, idempotencyKey: "", result: { status: "unknown" } },
    ]);
  });

  it("refuses a delivery whose headers or body were altered, or that PayPal never sent", async () => {
    const { reference, url } = await started();
    await fake.approve(url);
    const event = fake.webhook("CHECKOUT.ORDER.APPROVED", fake.order(reference));
    const forged = [
      { ...event.headers, "paypal-transmission-sig": `${event.headers["paypal-transmission-sig"]!.slice(0, -4)}AAA=` },
      { ...event.headers, "paypal-transmission-time": new Date(Date.now() + 1000).toISOString() },
      { ...event.headers, "paypal-transmission-id": crypto.randomUUID() },
      { ...event.headers, "paypal-cert-url": "https://evil.example/cert.pem" },
    ];
    for (const headers of forged) expect(await gateway.parseNotification(event.body, new Headers(headers))).toBeNull();
    const altered = event.body.replace('"id":"WH-', '"id":"WH-X');
    expect(await gateway.parseNotification(altered, new Headers(event.headers))).toBeNull();
    const { "paypal-transmission-sig": _missing, ...withoutSignature } = event.headers;
    expect(await gateway.parseNotification(event.body, new Headers(withoutSignature))).toBeNull();
    // Made up here with the fake's header names and never sent by it.
    const invented = {
      ...event.headers,
      "paypal-transmission-id": crypto.randomUUID(),
      "paypal-transmission-sig": Buffer.from("forged").toString("base64"),
    };
    expect(await gateway.parseNotification(event.body, new Headers(invented))).toBeNull();
    // The genuine one still verifies, and nothing above authorised the order.
    expect(fake.authorizations().filter((auth) => orderOf(auth) === reference)).toHaveLength(0);
    expect(await gateway.parseNotification(event.body, new Headers(event.headers))).toMatchObject({
      eventId: event.eventId,
      result: { status: "authorised", reference },
    });
  });

  it("accepts nothing without a webhook id, or for another webhook id", async () => {
    const { reference, url } = await started();
    await fake.approve(url);
    receiving = paypal({ webhookId: undefined });
    const unconfigured = await fake.sendWebhook(receiver.url, "CHECKOUT.ORDER.APPROVED", fake.order(reference));
    receiving = paypal({ webhookId: "WH-SOMEONE-ELSE" });
    const otherHook = await fake.sendWebhook(receiver.url, "CHECKOUT.ORDER.APPROVED", fake.order(reference));
    expect([unconfigured.status, otherHook.status]).toEqual([400, 400]);
    expect(receiver.received).toEqual([null, null]);
    expect(fake.authorizations().filter((auth) => orderOf(auth) === reference)).toHaveLength(0);
  });
});

describe("PayPal gateway: amounts", () => {
  it("converts minor units to PayPal's decimal strings and back, exactly", () => {
    expect(toPayPalValue(10250, "GBP")).toBe("102.50");
    expect(fromPayPalValue("102.50", "GBP")).toBe(10250);
    expect(toPayPalValue(5, "USD")).toBe("0.05");
    expect(toPayPalValue(100, "USD")).toBe("1.00");
    expect(fromPayPalValue("0.05", "USD")).toBe(5);
    expect(fromPayPalValue("102.5", "GBP")).toBe(10250);
    expect(fromPayPalValue("102", "GBP")).toBe(10200);
    expect(toPayPalValue(1000, "JPY")).toBe("1000");
    expect(fromPayPalValue("102.505", "GBP")).toBeNull();
    expect(fromPayPalValue("1e3", "GBP")).toBeNull();
    expect(toPayPalValue(10.5, "GBP")).toBeNull();
    expect(toPayPalValue(100, "HUF")).toBeNull();
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom("GBP", "USD", "JPY"),
        (minor, currency) => {
          const value = toPayPalValue(minor, currency);
          return value !== null && fromPayPalValue(value, currency) === minor;
        },
      ),
    );
  });

  it("sends the order's amount to PayPal exactly", async () => {
    const { reference } = await started({ amount: 10250 });
    const unit = (fake.order(reference)!.purchase_units as { amount: { value: string } }[])[0]!;
    expect(unit.amount).toEqual({ currency_code: "GBP", value: "102.50" });
    expect(fromPayPalValue(unit.amount.value, "GBP")).toBe(10250);
  });
});

describe("PayPal gateway: access tokens and timeouts", () => {
  it("keeps one token for many calls, and takes a new one when PayPal refuses it", async () => {
    const fresh = paypal();
    const before = fake.tokensIssued;
    const sent = request();
    const { reference } = approvalOf(await fresh.startPayPal(sent));
    await fresh.status(sent.idempotencyKey, reference);
    await fresh.status(sent.idempotencyKey, reference);
    expect(fake.tokensIssued).toBe(before + 1);
    fake.revokeTokens();
    expect(await fresh.status(sent.idempotencyKey, reference)).toMatchObject({ status: "pending" });
    expect(fake.tokensIssued).toBe(before + 2);
  });

  it("renews a token before it expires", async () => {
    const shortLived = await startFakePayPal({ tokenLifetimeSeconds: 1 });
    try {
      const fresh = paypal({
        apiUrl: shortLived.url,
        clientId: shortLived.clientId,
        clientSecret: shortLived.clientSecret,
      });
      const sent = request();
      const { reference } = approvalOf(await fresh.startPayPal(sent));
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await fresh.status(sent.idempotencyKey, reference)).toMatchObject({ status: "pending" });
      expect(shortLived.tokensIssued).toBe(2);
    } finally {
      await shortLived.close();
    }
  });

  it("wrong credentials fail the call rather than answering for PayPal", async () => {
    await expect(paypal({ clientSecret: "wrong" }).startPayPal(request())).rejects.toThrow(/401/);
  });

  it("a PayPal that never answers fails the call after timeoutMs; the fake still closes", async () => {
    const silent = await startFakePayPal();
    const fresh = paypal({
      apiUrl: silent.url,
      clientId: silent.clientId,
      clientSecret: silent.clientSecret,
      timeoutMs: 300,
    });
    const sent = request();
    const { reference } = approvalOf(await fresh.startPayPal(sent));
    silent.hang();
    const startedAt = Date.now();
    await expect(fresh.status(sent.idempotencyKey, reference)).rejects.toThrow();
    expect(Date.now() - startedAt).toBeLessThan(3000);
    await silent.close();
  });
});

describe("fake PayPal: as PayPal's API reference documents it", () => {
  async function token() {
    const answer = await fetch(`${fake.url}/v1/oauth2/token`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString("base64")}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
    });
    return ((await answer.json()) as { access_token: string }).access_token;
  }

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const answer = await fetch(`${fake.url}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${await token()}`, ...headers },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json().catch(() => null)) as Record<string, unknown> | null };
  };

  it("refuses a call without a valid bearer token", async () => {
    const answer = await fetch(`${fake.url}/v2/checkout/orders/ANY`, { headers: { Authorization: "Bearer nope" } });
    expect(answer.status).toBe(401);
  });

  it("says ORDER_NOT_APPROVED when authorising an order the buyer has not approved", async () => {
    const { reference } = await started();
    const answer = await post(`/v2/checkout/orders/${reference}/authorize`, {});
    expect(answer).toMatchObject({
      status: 422,
      body: { name: "UNPROCESSABLE_ENTITY", details: [{ issue: "ORDER_NOT_APPROVED" }] },
    });
  });

  it("replays the first answer to a repeated PayPal-Request-Id, and refuses a second capture", async () => {
    const { reference } = await authorisedPayment();
    const auth = fake.authorizations().find((one) => orderOf(one) === reference)!;
    const capture = (requestId: string) =>
      post(
        `/v2/payments/authorizations/${auth.id as string}/capture`,
        { final_capture: true },
        { "PayPal-Request-Id": requestId },
      );
    const first = await capture("same");
    expect(first.status).toBe(201);
    expect(await capture("same")).toEqual(first);
    expect(await capture("another")).toMatchObject({
      status: 422,
      body: { details: [{ issue: "AUTHORIZATION_ALREADY_CAPTURED" }] },
    });
    expect(capturesOf(reference)).toHaveLength(1);
  });

  it("refuses an amount with more decimals than the currency has", async () => {
    const answer = await post("/v2/checkout/orders", {
      intent: "AUTHORIZE",
      purchase_units: [{ amount: { currency_code: "GBP", value: "1.005" } }],
      payment_source: { paypal: { experience_context: { return_url: PUBLIC_URL, cancel_url: PUBLIC_URL } } },
    });
    expect(answer).toMatchObject({ status: 422, body: { details: [{ issue: "DECIMAL_PRECISION" }] } });
  });
});
