import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { openSqlite, type Store } from "~/db/connection.server";
import { migrateToLatest } from "~/db/migrate.server";
import type { CardDetails } from "~/forms/checkout/card-types";
import type { GatewayResult, PaymentRequest } from "~/payments/gateway";
import {
  SANDBOX_CARDS,
  cardBrandOf,
  createSandboxGateway,
  safeSandboxPath,
  signSandboxNotification,
  type SandboxGateway,
} from "~/payments/sandbox.server";
import { loadSandboxStep, returnFromSandbox } from "~/routes/sandbox.server";

const NOW = "2026-06-15T12:00:00Z";
let clock: ReturnType<typeof fixedClock>;
let gateway: SandboxGateway;
let keys = 0;

let store: Store;

// The sandbox keeps its payments in the store, as a provider keeps them on its side: an in-memory
// SQLite database here, emptied before each test.
beforeAll(async () => {
  store = openSqlite(":memory:");
  await migrateToLatest(store.db);
});
afterAll(() => store.close());

beforeEach(async () => {
  await store.db.deleteFrom("sandbox_payments").execute();
  clock = fixedClock(NOW);
  gateway = createSandboxGateway({ store, clock, idPrefix: "test", notificationSecret: "s3cret" });
});

function request(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  keys += 1;
  return {
    idempotencyKey: `order-${keys}:1`,
    amount: 4550,
    currency: "GBP",
    description: "Hamlet, 2 tickets",
    returnUrl: "/checkout/verify",
    ...overrides,
  };
}

function card(number: string, overrides: Partial<CardDetails> = {}): CardDetails {
  return { number, expiryMonth: 4, expiryYear: 2029, cvv: "123", holderName: "Ada Lovelace", ...overrides };
}

const pay = (
  number: string,
  cardOverrides: Partial<CardDetails> = {},
  requestOverrides: Partial<PaymentRequest> = {},
) => gateway.authorise({ ...request(requestOverrides), card: card(number, cardOverrides) });

/** Resolves with the promise's outcome, or "still pending" if it has not settled after `ms`. */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | "still pending"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"still pending">((resolve) => (timer = setTimeout(() => resolve("still pending"), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function referenceOf(result: GatewayResult): string {
  if (!("reference" in result) || !result.reference) throw new Error(`no reference in ${JSON.stringify(result)}`);
  return result.reference;
}

/** The path and query of a URL the sandbox sends the buyer to. */
function parts(url: string | null) {
  if (!url) throw new Error("no URL");
  const parsed = new URL(url, "http://site.test");
  return { path: parsed.pathname, query: Object.fromEntries(parsed.searchParams) };
}

describe("sandbox gateway: test cards", () => {
  it.each([
    [SANDBOX_CARDS.visa, "visa", "4242"],
    [SANDBOX_CARDS.mastercard, "mastercard", "4444"],
    [SANDBOX_CARDS.amex, "amex", "0005"],
  ])("%s is authorised without a challenge (%s)", async (number, brand, last4) => {
    const result = await pay(number);
    expect(result).toEqual({
      status: "authorised",
      reference: expect.stringMatching(/^test_/),
      brand,
      last4,
      amount: 4550,
      currency: "GBP",
    });
  });

  it("reads a number with spaces the same as digits only", async () => {
    expect(await pay("4242 4242 4242 4242")).toMatchObject({ status: "authorised", brand: "visa", last4: "4242" });
  });

  it.each([
    [SANDBOX_CARDS.declined, "declined"],
    [SANDBOX_CARDS.insufficientFunds, "insufficientFunds"],
    ["4111111111111111", "declined"],
    ["5105105105105100", "declined"],
  ])("%s is declined: %s", async (number, failure) => {
    const result = await pay(number);
    expect(result).toMatchObject({ status: "declined", failure, last4: number.slice(-4) });
    expect(referenceOf(result)).toMatch(/^test_/);
  });

  it("declines a number that fails the Luhn check", async () => {
    expect(await pay("4242424242424241")).toMatchObject({ status: "declined", failure: "declined", brand: null });
  });

  it("leaves the brands a payment may use to the payment service: it says which brand the card is", async () => {
    // Sponsored seats take Amex only: the sandbox still authorises a Visa, and names it, so the
    // payment service refuses and voids it the same way whichever path brings the answer.
    expect(await pay(SANDBOX_CARDS.visa, {}, { acceptedBrands: ["amex"] })).toMatchObject({
      status: "authorised",
      brand: "visa",
    });
    // 6011… is Discover: passes Luhn, a brand the sandbox cannot name, and no test card of its own.
    expect(await pay("6011111111111117")).toMatchObject({ status: "declined", failure: "declined", brand: null });
  });

  it("tells the brand from the number", () => {
    expect(cardBrandOf("4000000000000002")).toBe("visa");
    expect(cardBrandOf("5100000000000000")).toBe("mastercard");
    expect(cardBrandOf("5500000000000000")).toBe("mastercard");
    expect(cardBrandOf("2221000000000000")).toBe("mastercard");
    expect(cardBrandOf("2720990000000000")).toBe("mastercard");
    expect(cardBrandOf("2721000000000000")).toBeNull();
    expect(cardBrandOf("5600000000000000")).toBeNull();
    expect(cardBrandOf("340000000000000")).toBe("amex");
    expect(cardBrandOf("370000000000000")).toBe("amex");
    expect(cardBrandOf("360000000000000")).toBeNull();
  });

  it("declines an expired card, and takes one expiring this month", async () => {
    expect(await pay(SANDBOX_CARDS.visa, { expiryMonth: 5, expiryYear: 2026 })).toMatchObject({
      status: "declined",
      failure: "declined",
      brand: "visa",
    });
    expect(await pay(SANDBOX_CARDS.visa, { expiryMonth: 12, expiryYear: 2025 })).toMatchObject({ status: "declined" });
    expect(await pay(SANDBOX_CARDS.visa, { expiryMonth: 6, expiryYear: 2026 })).toMatchObject({ status: "authorised" });
    expect(await pay(SANDBOX_CARDS.visa, { expiryMonth: 13, expiryYear: 2030 })).toMatchObject({ status: "declined" });
  });

  it("uses the clock for expiry", async () => {
    clock.set("2026-07-01T00:00:00Z");
    expect(await pay(SANDBOX_CARDS.visa, { expiryMonth: 6, expiryYear: 2026 })).toMatchObject({ status: "declined" });
  });

  it("declines a request with no sensible amount or currency as an error", async () => {
    expect(await pay(SANDBOX_CARDS.visa, {}, { amount: 0 })).toMatchObject({ status: "declined", failure: "error" });
    expect(await pay(SANDBOX_CARDS.visa, {}, { amount: 12.5 })).toMatchObject({ status: "declined", failure: "error" });
    expect(await pay(SANDBOX_CARDS.visa, {}, { currency: "pounds" })).toMatchObject({
      status: "declined",
      failure: "error",
    });
  });

  it("never answers for the no-answer card: status says pending", async () => {
    const req = { ...request(), card: card(SANDBOX_CARDS.noAnswer) };
    expect(await settledWithin(gateway.authorise(req), 50)).toBe("still pending");
    expect(await gateway.status(req.idempotencyKey)).toEqual({
      status: "pending",
      reference: expect.stringMatching(/^test_/),
    });
    // Asking again with the same key hangs too, and starts nothing new.
    expect(await settledWithin(gateway.authorise(req), 20)).toBe("still pending");
    expect(gateway.charges).toBe(1);
  });
});

describe("sandbox gateway: idempotency", () => {
  it("gives the same answer for the same key and charges once", async () => {
    const req = { ...request(), card: card(SANDBOX_CARDS.visa) };
    const first = await gateway.authorise(req);
    const second = await gateway.authorise(req);
    expect(second).toEqual(first);
    expect(gateway.charges).toBe(1);
    expect(await gateway.snapshot()).toHaveLength(1);
  });

  it("charges once for two calls in the same instant", async () => {
    const req = { ...request(), card: card(SANDBOX_CARDS.visa) };
    const [a, b] = await Promise.all([gateway.authorise(req), gateway.authorise(req)]);
    expect(referenceOf(a)).toBe(referenceOf(b));
    expect(gateway.charges).toBe(1);
  });

  it("keeps the first payment even when a repeat carries another card", async () => {
    const req = request();
    const first = await gateway.authorise({ ...req, card: card(SANDBOX_CARDS.declined) });
    const again = await gateway.authorise({ ...req, card: card(SANDBOX_CARDS.visa) });
    expect(again).toEqual(first);
    expect(again.status).toBe("declined");
  });

  it("gives different keys different payments", async () => {
    const a = await pay(SANDBOX_CARDS.visa);
    const b = await pay(SANDBOX_CARDS.visa);
    expect(referenceOf(a)).not.toBe(referenceOf(b));
    expect(gateway.charges).toBe(2);
  });

  it("is idempotent for PayPal and wallets too", async () => {
    const paypal = { ...request(), cancelUrl: "/checkout/payment" };
    expect(referenceOf(await gateway.startPayPal(paypal))).toBe(referenceOf(await gateway.startPayPal(paypal)));
    const wallet = { ...request(), wallet: "googlePay" as const, token: "sandbox-wallet-ok" };
    expect(referenceOf(await gateway.authoriseWallet(wallet))).toBe(referenceOf(await gateway.authoriseWallet(wallet)));
    expect(gateway.charges).toBe(2);
  });

  it("answers status by key: unknown, then the payment's result", async () => {
    const req = { ...request(), card: card(SANDBOX_CARDS.visa) };
    expect(await gateway.status(req.idempotencyKey)).toEqual({ status: "unknown" });
    const result = await gateway.authorise(req);
    expect(await gateway.status(req.idempotencyKey)).toEqual(result);
  });
});

describe("sandbox gateway: 3-D Secure", () => {
  async function start(overrides: Partial<PaymentRequest> = {}) {
    const req = {
      ...request({ returnUrl: "/checkout/verify?from=bank", ...overrides }),
      card: card(SANDBOX_CARDS.threeDSecure),
    };
    const result = await gateway.authorise(req);
    return { req, result, reference: referenceOf(result) };
  }

  it("asks for device data, then a challenge, then authorises", async () => {
    const { req, result, reference } = await start();
    expect(result).toEqual({
      status: "actionRequired",
      reference,
      brand: "visa",
      last4: "3220",
      action: { kind: "deviceData", url: `/sandbox/device-data/${reference}`, method: "POST", fields: {} },
    });
    expect(await gateway.status(req.idempotencyKey)).toEqual({ status: "pending", reference });

    // Coming back without having done the step asks for it again.
    expect(await gateway.continue(reference, {})).toEqual(result);

    const back = parts(await gateway.completeDeviceData(reference));
    expect(back).toEqual({ path: "/checkout/verify", query: { from: "bank", reference } });
    const challenge = await gateway.continue(reference, back.query);
    expect(challenge).toMatchObject({
      status: "actionRequired",
      reference,
      action: { kind: "challenge", url: `/sandbox/challenge/${reference}`, method: "POST" },
    });
    expect(await gateway.status(req.idempotencyKey)).toEqual({ status: "pending", reference });

    expect(parts(await gateway.completeChallenge(reference, true)).query).toEqual({ from: "bank", reference });
    const final = await gateway.continue(reference, { reference });
    expect(final).toEqual({
      status: "authorised",
      reference,
      brand: "visa",
      last4: "3220",
      amount: 4550,
      currency: "GBP",
    });
    expect(await gateway.status(req.idempotencyKey)).toEqual(final);
    // A reload of the return URL gives the same answer.
    expect(await gateway.continue(reference, { reference })).toEqual(final);
    expect(gateway.charges).toBe(1);
  });

  it("declines with challengeFailed when the buyer fails authentication", async () => {
    const { reference } = await start();
    await gateway.completeDeviceData(reference);
    await gateway.completeChallenge(reference, false);
    expect(await gateway.continue(reference, {})).toEqual({
      status: "declined",
      reference,
      failure: "challengeFailed",
      brand: "visa",
      last4: "3220",
    });
  });

  it("keeps the first answer to a step: a second press changes nothing", async () => {
    const { reference } = await start();
    await gateway.completeDeviceData(reference);
    const first = await gateway.completeChallenge(reference, false);
    expect(await gateway.completeChallenge(reference, true)).toBe(first);
    expect(await gateway.continue(reference, {})).toMatchObject({ status: "declined", failure: "challengeFailed" });
  });

  it("does not let a step be answered out of turn", async () => {
    const { reference } = await start();
    expect(await gateway.completeChallenge(reference, true)).toBeNull();
    expect(await gateway.decidePayPal(reference, true)).toBeNull();
    expect(await gateway.completeDeviceData("test_nope")).toBeNull();
    expect(await gateway.continue(reference, {})).toMatchObject({
      status: "actionRequired",
      action: { kind: "deviceData" },
    });
  });

  it("describes each step for its page, and sends a late visitor back", async () => {
    const { reference } = await start();
    expect(await gateway.step(reference, "deviceData")).toMatchObject({
      outstanding: true,
      amount: 4550,
      currency: "GBP",
      last4: "3220",
    });
    expect(await gateway.step(reference, "challenge")).toBeNull();
    await gateway.completeDeviceData(reference);
    expect(await gateway.step(reference, "deviceData")).toMatchObject({ outstanding: false });
    expect(await gateway.step(reference, "challenge")).toMatchObject({ outstanding: true, brand: "visa" });
    expect(await gateway.step(reference, "approval")).toBeNull();
    expect(await gateway.step("test_unknown", "challenge")).toBeNull();
  });

  it("the pages' loader helper: 404 when unknown or no sandbox, a redirect back once answered", async () => {
    const { reference } = await start();
    const thrown = async (run: () => unknown) => {
      try {
        await run();
      } catch (error) {
        return error as Response;
      }
      throw new Error("did not throw");
    };
    expect((await thrown(() => loadSandboxStep(null, reference, "deviceData"))).status).toBe(404);
    expect((await thrown(() => loadSandboxStep(gateway, "test_unknown", "deviceData"))).status).toBe(404);
    expect((await thrown(() => loadSandboxStep(gateway, reference, "challenge"))).status).toBe(404);
    expect(await loadSandboxStep(gateway, reference, "deviceData")).toMatchObject({ amount: 4550, last4: "3220" });
    await gateway.completeDeviceData(reference);
    const back = await thrown(() => loadSandboxStep(gateway, reference, "deviceData"));
    expect(back.status).toBe(303);
    expect(back.headers.get("Location")).toBe(`/checkout/verify?from=bank&reference=${reference}`);
    expect(returnFromSandbox("/checkout/verify?reference=x").status).toBe(303);
    expect((await thrown(() => returnFromSandbox(null))).status).toBe(404);
  });

  it("once voided while the buyer is at the bank, can never be authorised", async () => {
    const { req, reference } = await start();
    await gateway.completeDeviceData(reference);
    expect(await gateway.void(reference)).toEqual({ ok: true });
    await gateway.completeChallenge(reference, true);
    expect(await gateway.continue(reference, {})).toMatchObject({ status: "declined", failure: "cancelled" });
    expect(await gateway.status(req.idempotencyKey)).toMatchObject({ status: "declined", failure: "cancelled" });
    expect(await gateway.capture(reference, 4550)).toEqual({ ok: false });
  });

  it("answers continue for a reference it never gave with an error", async () => {
    expect(await gateway.continue("test_unknown", {})).toMatchObject({ status: "declined", failure: "error" });
  });
});

describe("sandbox gateway: capture, void, refund", () => {
  async function authorised() {
    return referenceOf(await pay(SANDBOX_CARDS.visa));
  }

  it("captures an authorised payment once, up to the authorised amount", async () => {
    const reference = await authorised();
    expect(await gateway.capture(reference, 4551)).toEqual({ ok: false });
    expect(await gateway.capture(reference, 0)).toEqual({ ok: false });
    expect(await gateway.capture(reference, 4550)).toEqual({ ok: true });
    expect(await gateway.capture(reference, 4550)).toEqual({ ok: false });
  });

  it("captures less than authorised", async () => {
    expect(await gateway.capture(await authorised(), 1000)).toEqual({ ok: true });
  });

  it("captures nothing declined, pending or unknown", async () => {
    expect(await gateway.capture(referenceOf(await pay(SANDBOX_CARDS.declined)), 100)).toEqual({ ok: false });
    const threeDS = referenceOf(await pay(SANDBOX_CARDS.threeDSecure));
    expect(await gateway.capture(threeDS, 100)).toEqual({ ok: false });
    expect(await gateway.capture("test_unknown", 100)).toEqual({ ok: false });
  });

  it("voids an authorised payment, twice harmlessly, and then it cannot be captured", async () => {
    const reference = await authorised();
    expect(await gateway.void(reference)).toEqual({ ok: true });
    expect(await gateway.void(reference)).toEqual({ ok: true });
    expect(await gateway.capture(reference, 4550)).toEqual({ ok: false });
  });

  it("does not void a captured, declined or unknown payment", async () => {
    const reference = await authorised();
    await gateway.capture(reference, 4550);
    expect(await gateway.void(reference)).toEqual({ ok: false });
    expect(await gateway.void(referenceOf(await pay(SANDBOX_CARDS.declined)))).toEqual({ ok: false });
    expect(await gateway.void("test_unknown")).toEqual({ ok: false });
  });

  it("refunds a captured payment up to what was captured, in parts", async () => {
    const reference = await authorised();
    expect(await gateway.refund(reference, 100, "refund-0")).toEqual({ ok: false });
    await gateway.capture(reference, 4000);
    expect(await gateway.refund(reference, 4001, "refund-1")).toEqual({ ok: false });
    expect(await gateway.refund(reference, 3000, "refund-2")).toEqual({ ok: true });
    expect(await gateway.refund(reference, 1001, "refund-3")).toEqual({ ok: false });
    expect(await gateway.refund(reference, 1000, "refund-4")).toEqual({ ok: true });
    expect(await gateway.refund(reference, 1, "refund-5")).toEqual({ ok: false });
  });

  it("refunds once per idempotency key: a repeat answers ok and gives back nothing more", async () => {
    const reference = await authorised();
    await gateway.capture(reference, 4000);
    expect(await gateway.refund(reference, 1500, "refund-once")).toEqual({ ok: true });
    expect(await gateway.refund(reference, 1500, "refund-once")).toEqual({ ok: true });
    const [payment] = (await gateway.snapshot()).filter((record) => record.reference === reference);
    expect(payment!.refunded).toBe(1500);
    // The same key for another amount is not the same refund: refused rather than guessed.
    expect(await gateway.refund(reference, 500, "refund-once")).toEqual({ ok: false });
  });
});

describe("sandbox gateway: PayPal", () => {
  async function start() {
    const req = { ...request({ returnUrl: "/checkout/verify" }), cancelUrl: "/checkout/payment?method=paypal" };
    const result = await gateway.startPayPal(req);
    return { req, result, reference: referenceOf(result) };
  }

  it("asks for approval at the sandbox PayPal page", async () => {
    const { result, reference } = await start();
    expect(result).toEqual({
      status: "actionRequired",
      reference,
      brand: null,
      last4: null,
      action: { kind: "approval", url: `/sandbox/paypal/${reference}`, method: "GET", fields: {} },
    });
  });

  it("authorises once approved, without card details", async () => {
    const { req, reference } = await start();
    expect(parts(await gateway.decidePayPal(reference, true))).toEqual({
      path: "/checkout/verify",
      query: { reference },
    });
    const result = await gateway.continue(reference, { reference });
    expect(result).toEqual({
      status: "authorised",
      reference,
      brand: null,
      last4: null,
      amount: 4550,
      currency: "GBP",
    });
    expect(await gateway.status(req.idempotencyKey)).toEqual(result);
  });

  it("declines as cancelled, sending the buyer to the cancel URL", async () => {
    const { reference } = await start();
    expect(parts(await gateway.decidePayPal(reference, false))).toEqual({
      path: "/checkout/payment",
      query: { method: "paypal", reference },
    });
    expect(await gateway.continue(reference, {})).toMatchObject({
      status: "declined",
      failure: "cancelled",
      brand: null,
    });
    // A late visit to the PayPal page goes back the same way.
    expect(await gateway.step(reference, "approval")).toMatchObject({
      outstanding: false,
      returnUrl: `/checkout/payment?method=paypal&reference=${reference}`,
    });
  });
});

describe("sandbox gateway: wallets", () => {
  it.each([
    ["sandbox-wallet-ok", { status: "authorised", brand: null, last4: null }],
    ["sandbox-wallet-decline", { status: "declined", failure: "declined" }],
    ["anything-else", { status: "declined", failure: "error" }],
  ])("token %s", async (token, expected) => {
    for (const wallet of ["googlePay", "applePay"] as const) {
      expect(await gateway.authoriseWallet({ ...request(), wallet, token })).toMatchObject(expected);
    }
  });
});

describe("sandbox gateway: what it keeps", () => {
  it("never holds or returns the card number or security code", async () => {
    const numbers = Object.values(SANDBOX_CARDS);
    const cvv = "987";
    const results: unknown[] = [];
    for (const number of numbers) {
      const call = pay(number, { cvv });
      results.push(number === SANDBOX_CARDS.noAnswer ? await settledWithin(call, 10) : await call);
    }
    const threeDS = referenceOf(await pay(SANDBOX_CARDS.threeDSecure, { cvv }));
    results.push(await gateway.step(threeDS, "deviceData"));
    // Payment references are random hex: one may hold "987" by chance, so they are masked first.
    const everything = JSON.stringify({ results, snapshot: await gateway.snapshot() }).replace(
      /test_[0-9a-f]+/g,
      "test_REFERENCE",
    );
    expect(await gateway.snapshot()).toHaveLength(numbers.length + 1);
    for (const number of numbers) {
      expect(everything).not.toContain(number);
      expect(everything).not.toContain(number.slice(0, 6));
      expect(everything).toContain(`"last4":"${number.slice(-4)}"`);
    }
    expect(everything).not.toContain(cvv);
    expect(everything).not.toContain("Ada Lovelace");
  });

  it("keeps its payments in the store: another server, or this one restarted, sees them and their answers", async () => {
    const req = { ...request(), card: card(SANDBOX_CARDS.threeDSecure) };
    const reference = referenceOf(await gateway.authorise(req));
    const other = createSandboxGateway({ store, clock, idPrefix: "other" });
    expect(await other.step(reference, "deviceData")).toMatchObject({ outstanding: true, last4: "3220" });
    await other.completeDeviceData(reference);
    await gateway.completeChallenge(reference, true);
    expect(await other.status(req.idempotencyKey)).toMatchObject({ status: "authorised", reference });
    // The same idempotency key through the other server is the same payment, not a second one.
    expect(referenceOf(await other.authorise(req))).toBe(reference);
    expect(other.charges).toBe(0);
    // Captured once, whichever server asks first.
    const [a, b] = await Promise.all([gateway.capture(reference, 4550), other.capture(reference, 4550)]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect(await other.snapshot()).toMatchObject([{ reference, captured: 4550, state: "authorised" }]);
  });

  it("forgets payments older than two hours", async () => {
    const old = { ...request(), card: card(SANDBOX_CARDS.visa) };
    const oldReference = referenceOf(await gateway.authorise(old));
    clock.advance(60 * 60 * 1000);
    const recent = { ...request(), card: card(SANDBOX_CARDS.visa) };
    await gateway.authorise(recent);
    clock.advance(60 * 60 * 1000);
    // The next new payment is what prunes.
    await pay(SANDBOX_CARDS.visa);
    expect(await gateway.status(old.idempotencyKey)).toEqual({ status: "unknown" });
    expect(await gateway.capture(oldReference, 4550)).toEqual({ ok: false });
    expect(await gateway.status(recent.idempotencyKey)).toMatchObject({ status: "authorised" });
    expect(await gateway.snapshot()).toHaveLength(2);
  });
});

describe("sandbox gateway: return URLs", () => {
  it.each([
    ["/checkout/verify", "/checkout/verify"],
    ["/checkout/verify?a=1#top", "/checkout/verify?a=1#top"],
    ["https://evil.example/steal", "/checkout/verify"],
    ["//evil.example/steal", "/checkout/verify"],
    ["/\\evil.example", "/checkout/verify"],
    ["/\t/evil.example", "/checkout/verify"],
    ["javascript:alert(1)", "/checkout/verify"],
    ["checkout/verify", "/checkout/verify"],
    ["", "/checkout/verify"],
  ])("%j → %s", (given, expected) => {
    expect(safeSandboxPath(given)).toBe(expected);
  });

  it("never sends the buyer off the site, whatever return URL the payment came with", async () => {
    const reference = referenceOf(
      await gateway.startPayPal({
        ...request({ returnUrl: "https://evil.example/ok" }),
        cancelUrl: "//evil.example/cancel",
      }),
    );
    expect((await gateway.step(reference, "approval"))?.returnUrl).toBe(`/checkout/verify?reference=${reference}`);
    expect(await gateway.decidePayPal(reference, false)).toBe(`/checkout/verify?reference=${reference}`);
  });
});

describe("sandbox gateway: notifications", () => {
  async function signed(body: string, secret = "s3cret") {
    return gateway.parseNotification(
      body,
      new Headers({ "x-sandbox-signature": signSandboxNotification(body, secret) }),
    );
  }

  it("reads a signed notification as the payment's current status", async () => {
    const req = { ...request(), card: card(SANDBOX_CARDS.visa) };
    const result = await gateway.authorise(req);
    const body = JSON.stringify({ idempotencyKey: req.idempotencyKey, reference: referenceOf(result) });
    expect(await signed(body)).toEqual({ eventId: null, idempotencyKey: req.idempotencyKey, result });
  });

  it("refuses a bad signature, a missing one, a payment it does not know, or any at all without a secret", async () => {
    const req = { ...request(), card: card(SANDBOX_CARDS.visa) };
    const reference = referenceOf(await gateway.authorise(req));
    const body = JSON.stringify({ idempotencyKey: req.idempotencyKey, reference });
    expect(await signed(body, "wrong")).toBeNull();
    expect(await gateway.parseNotification(body, new Headers())).toBeNull();
    expect(await gateway.parseNotification(body, new Headers({ "x-sandbox-signature": "zz" }))).toBeNull();
    expect(await signed(JSON.stringify({ idempotencyKey: req.idempotencyKey, reference: "test_other" }))).toBeNull();
    expect(await signed(JSON.stringify({ idempotencyKey: "never-seen", reference }))).toBeNull();
    expect(await signed("not json")).toBeNull();
    const unsigned = createSandboxGateway({ store, clock });
    const headers = new Headers({ "x-sandbox-signature": signSandboxNotification(body, "") });
    expect(await unsigned.parseNotification(body, headers)).toBeNull();
  });
});

describe("sandbox gateway: identity", () => {
  it("is the sandbox, taking visa, mastercard and amex", () => {
    expect(gateway.name).toBe("sandbox");
    expect([...gateway.cardBrands]).toEqual(["visa", "mastercard", "amex"]);
  });
});
