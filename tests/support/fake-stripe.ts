import { createHmac, randomBytes } from "node:crypto";
import luhn10 from "card-validator/dist/luhn-10";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import qs from "qs";

// A local stand-in for Stripe's HTTP API, so the Stripe adapter (app/payments/stripe.server.ts)
// is proven through the real `stripe` SDK without reaching stripe.com. It answers only the
// endpoints the adapter uses, in the shapes Stripe's API reference documents: form-encoded
// requests in bracket notation, JSON answers, errors as `{ error: { type, code, decline_code,
// message, payment_intent, … } }`, Bearer sk_test_ keys, `Idempotency-Key` replay and conflict,
// `expand[]`. Its test cards are Stripe's own (docs.stripe.com/testing); its 3-D Secure page and
// hosted Checkout page are plain HTML forms, so tests drive them over HTTP without a browser.
//
// What it does not model: Stripe's rate limits, search-index delay (Stripe's search can lag
// writes by up to a minute; here it is immediate), and the Checkout page's own script.

export const FAKE_STRIPE_CARDS = {
  visa: "4242424242424242",
  mastercard: "5555555555554444",
  amex: "378282246310005",
  discover: "6011111111111117",
  threeDSecure: "4000000000003220",
  declined: "4000000000000002",
  insufficientFunds: "4000000000009995",
  expired: "4000000000000069",
  incorrectCvc: "4000000000000127",
  processingError: "4000000000000119",
} as const;

export interface FakeStripeOptions {
  /** Only this key is accepted (any sk_test_ key when absent). */
  secretKey?: string;
  /** The endpoint secret webhooks are signed with (a random whsec_ when absent). */
  webhookSecret?: string;
}

export interface FakePaymentIntentSnapshot {
  id: string;
  status: string;
  amount: number;
  currency: string;
  capture_method: string;
  amount_capturable: number;
  amount_received: number;
  /** Refunded so far (on Stripe, the latest charge's `amount_refunded`). */
  amount_refunded: number;
  description: string | null;
  metadata: Record<string, string>;
  brand: string | null;
  last4: string | null;
}

export interface FakeSessionSnapshot {
  id: string;
  status: "open" | "complete" | "expired";
  payment_status: string;
  payment_intent: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string | null;
  url: string | null;
  amount_total: number;
  currency: string;
}

export interface FakeRequestRecord {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** Answered from the idempotency store, not executed. */
  replayed: boolean;
}

export interface FakeEvent {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
  data: { object: Record<string, unknown> };
}

export interface FakeStripe {
  /** http://127.0.0.1:PORT: the adapter's `apiUrl`, and the origin of the 3-D Secure and hosted pages. */
  readonly url: string;
  readonly webhookSecret: string;
  close(): Promise<void>;
  /** Every PaymentIntent, oldest first. */
  paymentIntents(): FakePaymentIntentSnapshot[];
  sessions(): FakeSessionSnapshot[];
  refunds(): { id: string; payment_intent: string; amount: number; status: string }[];
  /** How many objects were made (a replayed request makes none). */
  readonly counts: { paymentIntents: number; refunds: number; sessions: number; captures: number; cancels: number };
  /** Every API request (/v1/…), in order. */
  readonly requests: readonly FakeRequestRecord[];
  /** Events Stripe would send for what has happened, oldest first; filtered by type when given. */
  events(type?: string): FakeEvent[];
  /** A fresh event of `type` about `object` (a PaymentIntent or session as the API shows it). */
  event(type: string, object: Record<string, unknown>): FakeEvent;
  /** The JSON of a PaymentIntent or Checkout Session as the API shows it (unexpanded). */
  object(id: string): Record<string, unknown>;
  /** A `Stripe-Signature` header for `payload` (Stripe's v1 scheme; another secret or time when given). */
  webhookHeader(payload: string, options?: { secret?: string; timestamp?: number }): string;
  /** POSTs `event` to `targetUrl`, signed, as Stripe delivers a webhook. */
  sendWebhook(targetUrl: string, event: FakeEvent): Promise<Response>;
  /**
   * Fake-only: the next `times` PaymentIntent creations with this card number are never answered
   * (the connection is held open, nothing is made), like a Stripe that has gone quiet.
   */
  hang(cardNumber: string, times?: number): void;
  /** Fake-only: the next `times` API requests answer `status` (an api_error) without doing anything. */
  failNext(status?: number, times?: number): void;
  /**
   * Fake-only: the next API request matching `method` and `path` is carried out (objects made,
   * events recorded) but its answer is held back until `release`, like an answer slow on its way
   * back: a test can deliver a webhook before, during or after it. `reached` resolves once the
   * request has been carried out and its answer is waiting.
   */
  holdAnswer(method: string, path: RegExp): AnswerGate;
  /**
   * Fake-only: how Stripe treats a test card number, beside its documented outcome: the brand its
   * card reports (Stripe's own card tables may name another brand than the number's prefix
   * suggests, or "unknown"), and whether confirming it asks for 3-D Secure.
   */
  treatCard(cardNumber: string, treatment: { brand?: string; threeDSecure?: boolean }): void;
}

export interface AnswerGate {
  readonly reached: Promise<void>;
  release(): void;
}

/** Thrown by payOnHostedPage when the page shows an error instead of sending the buyer on. */
export class HostedPageError extends Error {}

const API_VERSION = "2026-10-28.endive";

type Json = Record<string, unknown>;

interface PaymentMethod {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  name: string | null;
  created: number;
}

interface Charge {
  id: string;
  payment_intent: string;
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  captured: boolean;
  paid: boolean;
}

interface LastPaymentError {
  type: string;
  code: string;
  decline_code?: string;
  message: string;
  payment_method: string | null;
  charge?: string;
}

interface Intent {
  id: string;
  client_secret: string;
  created: number;
  amount: number;
  currency: string;
  capture_method: "manual" | "automatic" | "automatic_async";
  description: string | null;
  metadata: Record<string, string>;
  status: string;
  amount_capturable: number;
  amount_received: number;
  payment_method: string | null;
  latest_charge: string | null;
  last_payment_error: LastPaymentError | null;
  next_action: Json | null;
  return_url: string | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  /** The Checkout Session that made it, if any. */
  session: string | null;
}

interface Session {
  id: string;
  created: number;
  expires_at: number;
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid";
  amount_total: number;
  currency: string;
  description: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string | null;
  payment_intent: string | null;
  intent_data: {
    capture_method: Intent["capture_method"];
    description: string | null;
    metadata: Record<string, string>;
  };
  /** `payment_method_options.card.restrictions.brands_blocked`, in Stripe's brand names. */
  brands_blocked: string[];
}

interface Refund {
  id: string;
  amount: number;
  charge: string;
  payment_intent: string;
  currency: string;
  status: "succeeded";
  created: number;
  metadata: Record<string, string>;
}

/** An answer that is an error object; `save: false` when Stripe would not keep it for the idempotency key. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
    readonly save = true,
  ) {
    super(String(body.message));
  }
}

const invalid = (message: string, extra: Json = {}, save = true) =>
  new ApiError(400, { type: "invalid_request_error", message, ...extra }, save);
const missingParam = (param: string) =>
  invalid(`Missing required param: ${param}.`, { code: "parameter_missing", param }, false);
const noSuch = (kind: string, id: string, param = "id") =>
  new ApiError(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    message: `No such ${kind}: '${id}'`,
    param,
  });

const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

/** Stripe checks a number's Luhn digit before anything else (card-validator's check, the same one). */
const luhn = (digits: string): boolean => luhn10(digits);

function brandOf(digits: string): string {
  if (digits.startsWith("4")) return "visa";
  if (/^3[47]/.test(digits)) return "amex";
  if (/^(5[1-5]|2[2-7])/.test(digits)) return "mastercard";
  if (/^(6011|65)/.test(digits)) return "discover";
  return "unknown";
}

/** What Stripe's test cards do when confirmed: their documented outcome, or a card error. */
type Outcome =
  | { kind: "ok" }
  | { kind: "threeDSecure" }
  | { kind: "decline"; code: string; decline_code?: string; message: string };

const DECLINES: Record<string, Extract<Outcome, { kind: "decline" }>> = {
  [FAKE_STRIPE_CARDS.declined]: {
    kind: "decline",
    code: "card_declined",
    decline_code: "generic_decline",
    message: "Your card was declined.",
  },
  [FAKE_STRIPE_CARDS.insufficientFunds]: {
    kind: "decline",
    code: "card_declined",
    decline_code: "insufficient_funds",
    message: "Your card has insufficient funds.",
  },
  [FAKE_STRIPE_CARDS.expired]: { kind: "decline", code: "expired_card", message: "Your card has expired." },
  [FAKE_STRIPE_CARDS.incorrectCvc]: {
    kind: "decline",
    code: "incorrect_cvc",
    message: "Your card's security code is incorrect.",
  },
  [FAKE_STRIPE_CARDS.processingError]: {
    kind: "decline",
    code: "processing_error",
    message: "An error occurred while processing your card. Try again in a little bit.",
  },
};

const OK_CARDS: readonly string[] = [
  FAKE_STRIPE_CARDS.visa,
  FAKE_STRIPE_CARDS.mastercard,
  FAKE_STRIPE_CARDS.amex,
  FAKE_STRIPE_CARDS.discover,
];

function outcomeOf(digits: string, threeDSecure = false): Outcome {
  if (digits === FAKE_STRIPE_CARDS.threeDSecure || threeDSecure) return { kind: "threeDSecure" };
  const decline = DECLINES[digits];
  if (decline) return decline;
  if (OK_CARDS.includes(digits)) return { kind: "ok" };
  // Stripe's test mode refuses real card numbers.
  return {
    kind: "decline",
    code: "card_declined",
    decline_code: "test_mode_live_card",
    message: "Your card was declined. Your request was in test mode, but used a non test card.",
  };
}

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main>${body}</main></body></html>`;
}

const money = (amount: number, currency: string) => `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function obj(value: unknown): Json {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

/** A PaymentMethod's `card.brand` as Checkout's `brands_blocked` names it, where they differ. */
const CHECKOUT_BRAND_NAMES: Record<string, string> = { amex: "american_express", discover: "discover_global_network" };

/** A form-encoded list (`a[0]=x&a[1]=y`, or `a[]=x`), as strings. */
function listOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : Object.values(obj(value));
  return items.filter((item): item is string => typeof item === "string");
}

function metadataOf(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(obj(value))) if (typeof item === "string") out[key] = item;
  return out;
}

function integer(params: Json, name: string, { required = false } = {}): number | undefined {
  const raw = params[name];
  if (raw === undefined || raw === "") {
    if (required) throw missingParam(name);
    return undefined;
  }
  if (typeof raw !== "string" || !/^\d+$/.test(raw))
    throw invalid(`Invalid integer: ${String(raw)}`, { param: name }, false);
  return Number(raw);
}

/**
 * `{CHECKOUT_SESSION_ID}` in the success URL becomes the session's id, as Checkout does; Stripe
 * documents the substitution for `success_url` only, so a cancel URL is followed as it was given.
 */
const withSessionId = (url: string, id: string) => url.split("{CHECKOUT_SESSION_ID}").join(id);

/** Canonical JSON (keys sorted), so the same params in another order are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Json)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

export function signWebhookPayload(payload: string, secret: string, timestamp = now()): string {
  // docs.stripe.com/webhooks#verify-manually: v1 = HMAC-SHA256(secret, "<t>.<payload>"), hex.
  const signature = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
  return `t=${timestamp},v1=${signature}`;
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(16).toString("hex")}`;
  const methods = new Map<string, PaymentMethod>();
  const charges = new Map<string, Charge>();
  const intents = new Map<string, Intent>();
  const sessions = new Map<string, Session>();
  const refunds = new Map<string, Refund>();
  const events: FakeEvent[] = [];
  const requests: FakeRequestRecord[] = [];
  const counts = { paymentIntents: 0, refunds: 0, sessions: 0, captures: 0, cancels: 0 };
  const idempotency = new Map<string, { fingerprint: string; status: number; body: string }>();
  const hanging = new Map<string, number>();
  const treated = new Map<string, { brand?: string; threeDSecure?: boolean }>();
  const gates: { method: string; path: RegExp; reach: () => void; released: Promise<void> }[] = [];
  let failures = { status: 500, times: 0 };
  let base = "";

  // ---- Objects as the API shows them -------------------------------------------------------

  function methodJson(pm: PaymentMethod): Json {
    return {
      id: pm.id,
      object: "payment_method",
      type: "card",
      created: pm.created,
      customer: null,
      livemode: false,
      metadata: {},
      billing_details: { address: null, email: null, name: pm.name, phone: null },
      card: {
        brand: pm.brand,
        display_brand: pm.brand,
        last4: pm.last4,
        exp_month: pm.exp_month,
        exp_year: pm.exp_year,
        funding: "credit",
        country: "US",
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
      },
    };
  }

  function chargeJson(charge: Charge): Json {
    const intent = intents.get(charge.payment_intent);
    return {
      id: charge.id,
      object: "charge",
      amount: charge.amount,
      amount_captured: charge.amount_captured,
      amount_refunded: charge.amount_refunded,
      captured: charge.captured,
      paid: charge.paid,
      refunded: charge.amount_refunded > 0 && charge.amount_refunded === charge.amount_captured,
      currency: intent?.currency ?? "usd",
      payment_intent: charge.payment_intent,
      status: charge.paid ? "succeeded" : "failed",
    };
  }

  function intentJson(pi: Intent): Json {
    return {
      id: pi.id,
      object: "payment_intent",
      amount: pi.amount,
      amount_capturable: pi.amount_capturable,
      amount_received: pi.amount_received,
      application: null,
      canceled_at: pi.canceled_at,
      cancellation_reason: pi.cancellation_reason,
      capture_method: pi.capture_method,
      client_secret: pi.client_secret,
      confirmation_method: "automatic",
      created: pi.created,
      currency: pi.currency,
      customer: null,
      description: pi.description,
      last_payment_error: pi.last_payment_error
        ? {
            ...pi.last_payment_error,
            payment_method: pi.last_payment_error.payment_method
              ? methodJson(methods.get(pi.last_payment_error.payment_method)!)
              : null,
          }
        : null,
      latest_charge: pi.latest_charge,
      livemode: false,
      metadata: pi.metadata,
      next_action: pi.next_action,
      payment_method: pi.payment_method,
      payment_method_types: ["card"],
      status: pi.status,
    };
  }

  function sessionJson(cs: Session): Json {
    return {
      id: cs.id,
      object: "checkout.session",
      amount_subtotal: cs.amount_total,
      amount_total: cs.amount_total,
      cancel_url: cs.cancel_url,
      client_reference_id: cs.client_reference_id,
      created: cs.created,
      currency: cs.currency,
      expires_at: cs.expires_at,
      livemode: false,
      metadata: cs.metadata,
      mode: "payment",
      payment_intent: cs.payment_intent,
      payment_status: cs.payment_status,
      status: cs.status,
      success_url: cs.success_url,
      url: cs.status === "open" ? `${base}/pay/${cs.id}` : null,
    };
  }

  function refundJson(refund: Refund): Json {
    return { ...refund, object: "refund", reason: null };
  }

  /** Any object by its id, as the API shows it; used by expand. */
  function lookup(id: string): Json | undefined {
    if (id.startsWith("pi_")) return intents.has(id) ? intentJson(intents.get(id)!) : undefined;
    if (id.startsWith("pm_")) return methods.has(id) ? methodJson(methods.get(id)!) : undefined;
    if (id.startsWith("ch_")) return charges.has(id) ? chargeJson(charges.get(id)!) : undefined;
    if (id.startsWith("cs_")) return sessions.has(id) ? sessionJson(sessions.get(id)!) : undefined;
    if (id.startsWith("re_")) return refunds.has(id) ? refundJson(refunds.get(id)!) : undefined;
    return undefined;
  }

  function expandPath(value: Json, path: string[]): Json {
    const [field, ...rest] = path;
    if (!field) return value;
    const current = value[field];
    if (field === "data" && Array.isArray(current))
      return { ...value, data: current.map((item: Json) => expandPath(item, rest)) };
    if (typeof current === "string") {
      const found = lookup(current);
      return found ? { ...value, [field]: expandPath(found, rest) } : value;
    }
    if (typeof current === "object" && current !== null)
      return { ...value, [field]: expandPath(current as Json, rest) };
    return value;
  }

  function expand(value: Json, params: Json): Json {
    const raw = params.expand;
    const paths = Array.isArray(raw) ? raw : typeof raw === "object" && raw ? Object.values(raw) : [];
    return paths
      .filter((path): path is string => typeof path === "string")
      .reduce((current, path) => expandPath(current, path.split(".")), value);
  }

  function recordEvent(type: string, object: Json, idempotencyKey: string | null = null): void {
    events.push(makeEvent(type, object, idempotencyKey));
  }

  function makeEvent(type: string, object: Json, idempotencyKey: string | null = null): FakeEvent {
    return {
      id: newId("evt"),
      object: "event",
      api_version: API_VERSION,
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: idempotencyKey ? newId("req") : null, idempotency_key: idempotencyKey },
      type,
      data: { object },
    };
  }

  // ---- What happens to a PaymentIntent ----------------------------------------------------

  function findIntent(id: string | undefined): Intent {
    const pi = id ? intents.get(id) : undefined;
    if (!pi) throw noSuch("payment_intent", id ?? "", "intent");
    return pi;
  }

  function authorise(pi: Intent) {
    const charge: Charge = {
      id: newId("ch"),
      payment_intent: pi.id,
      amount: pi.amount,
      amount_captured: pi.capture_method === "manual" ? 0 : pi.amount,
      amount_refunded: 0,
      captured: pi.capture_method !== "manual",
      paid: true,
    };
    charges.set(charge.id, charge);
    pi.latest_charge = charge.id;
    pi.next_action = null;
    pi.last_payment_error = null;
    if (pi.capture_method === "manual") {
      pi.status = "requires_capture";
      pi.amount_capturable = pi.amount;
      recordEvent("payment_intent.amount_capturable_updated", intentJson(pi));
    } else {
      pi.status = "succeeded";
      pi.amount_received = pi.amount;
      recordEvent("payment_intent.succeeded", intentJson(pi));
    }
  }

  function fail(pi: Intent, error: LastPaymentError) {
    pi.status = "requires_payment_method";
    pi.next_action = null;
    pi.last_payment_error = error;
    recordEvent("payment_intent.payment_failed", intentJson(pi));
  }

  /** Confirms `pi` with the card: its test-card outcome. Returns the card error, if any, for a 402. */
  function confirm(pi: Intent, pm: PaymentMethod, digits: string, returnUrl: string | null): ApiError | null {
    pi.payment_method = pm.id;
    const outcome = outcomeOf(digits, treated.get(digits)?.threeDSecure);
    if (outcome.kind === "ok") {
      authorise(pi);
      return null;
    }
    if (outcome.kind === "threeDSecure") {
      pi.status = "requires_action";
      pi.return_url = returnUrl;
      // With a return_url Stripe hands over a page to redirect to; without one, a step for Stripe.js.
      pi.next_action = returnUrl
        ? { type: "redirect_to_url", redirect_to_url: { url: `${base}/3ds/${pi.id}`, return_url: returnUrl } }
        : { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect" } };
      recordEvent("payment_intent.requires_action", intentJson(pi));
      return null;
    }
    const charge: Charge = {
      id: newId("ch"),
      payment_intent: pi.id,
      amount: pi.amount,
      amount_captured: 0,
      amount_refunded: 0,
      captured: false,
      paid: false,
    };
    charges.set(charge.id, charge);
    pi.latest_charge = charge.id;
    const error: LastPaymentError = {
      type: "card_error",
      code: outcome.code,
      ...(outcome.decline_code ? { decline_code: outcome.decline_code } : {}),
      message: outcome.message,
      payment_method: pm.id,
      charge: charge.id,
    };
    fail(pi, error);
    return new ApiError(402, {
      ...error,
      doc_url: `https://docs.stripe.com/error-codes/${outcome.code.replace(/_/g, "-")}`,
      payment_intent: intentJson(pi),
      payment_method: methodJson(pm),
    });
  }

  /** The card as typed (API params or the hosted form): a PaymentMethod, or the error Stripe gives. */
  function makeMethod(card: { number: string; exp_month: number; exp_year: number; cvc: string }, name: string | null) {
    const digits = card.number.replace(/[\s-]/g, "");
    if (!/^\d{12,19}$/.test(digits) || !luhn(digits))
      return new ApiError(402, {
        type: "card_error",
        code: "incorrect_number",
        message: "Your card number is incorrect.",
        param: "number",
      });
    const today = new Date();
    if (
      !(card.exp_month >= 1 && card.exp_month <= 12) ||
      card.exp_year * 12 + card.exp_month - 1 < today.getUTCFullYear() * 12 + today.getUTCMonth()
    )
      return new ApiError(402, {
        type: "card_error",
        code: "invalid_expiry_year",
        message: "Your card's expiration year is invalid.",
        param: "exp_year",
      });
    if (!/^\d{3,4}$/.test(card.cvc))
      return new ApiError(402, {
        type: "card_error",
        code: "invalid_cvc",
        message: "Your card's security code is invalid.",
        param: "cvc",
      });
    const pm: PaymentMethod = {
      id: newId("pm"),
      brand: treated.get(digits)?.brand ?? brandOf(digits),
      last4: digits.slice(-4),
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      name,
      created: now(),
    };
    methods.set(pm.id, pm);
    return { pm, digits };
  }

  function newIntent(fields: Pick<Intent, "amount" | "currency" | "capture_method" | "description" | "metadata">) {
    const id = newId("pi");
    const pi: Intent = {
      ...fields,
      id,
      client_secret: `${id}_secret_${randomBytes(12).toString("hex")}`,
      created: now(),
      status: "requires_payment_method",
      amount_capturable: 0,
      amount_received: 0,
      payment_method: null,
      latest_charge: null,
      last_payment_error: null,
      next_action: null,
      return_url: null,
      canceled_at: null,
      cancellation_reason: null,
      session: null,
    };
    intents.set(id, pi);
    counts.paymentIntents += 1;
    recordEvent("payment_intent.created", intentJson(pi));
    return pi;
  }

  function cancelIntent(pi: Intent, reason: string | null) {
    pi.status = "canceled";
    pi.canceled_at = now();
    pi.cancellation_reason = reason;
    pi.amount_capturable = 0;
    pi.next_action = null;
    counts.cancels += 1;
    recordEvent("payment_intent.canceled", intentJson(pi));
  }

  // ---- Endpoints ---------------------------------------------------------------------------

  function createIntent(params: Json): { status: number; body: Json } {
    const amount = integer(params, "amount", { required: true })!;
    if (amount < 1) throw invalid("This value must be greater than or equal to 1.", { param: "amount" }, false);
    const currency = str(params.currency);
    if (!currency) throw missingParam("currency");
    if (!/^[a-z]{3}$/.test(currency)) throw invalid(`Invalid currency: ${currency}.`, { param: "currency" }, false);
    const captureMethod = (str(params.capture_method) ?? "automatic") as Intent["capture_method"];
    if (!["manual", "automatic", "automatic_async"].includes(captureMethod))
      throw invalid("Invalid capture_method.", { param: "capture_method" }, false);
    const data = obj(params.payment_method_data);
    const card = obj(data.card);
    const confirmNow = params.confirm === "true";
    const returnUrl = str(params.return_url) ?? null;
    if (returnUrl && !confirmNow)
      throw invalid("You can only pass return_url when confirm=true.", { param: "return_url" }, false);
    let method: { pm: PaymentMethod; digits: string } | undefined;
    if (Object.keys(data).length > 0) {
      if (data.type !== "card")
        throw invalid("This fake takes card payment methods only.", { param: "payment_method_data[type]" }, false);
      const made = makeMethod(
        {
          number: str(card.number) ?? "",
          exp_month: Number(card.exp_month),
          exp_year: Number(card.exp_year),
          cvc: str(card.cvc) ?? "",
        },
        str(obj(data.billing_details).name) ?? null,
      );
      // Stripe makes the PaymentMethod first: a card it cannot read makes no PaymentIntent.
      if (made instanceof ApiError) throw made;
      method = made;
    }
    const pi = newIntent({
      amount,
      currency,
      capture_method: captureMethod,
      description: str(params.description) ?? null,
      metadata: metadataOf(params.metadata),
    });
    if (method) {
      pi.payment_method = method.pm.id;
      if (confirmNow) {
        const cardError = confirm(pi, method.pm, method.digits, returnUrl);
        if (cardError) throw cardError;
      } else pi.status = "requires_confirmation";
    }
    return { status: 200, body: expand(intentJson(pi), params) };
  }

  function capture(id: string, params: Json) {
    const pi = findIntent(id);
    if (pi.status !== "requires_capture")
      throw invalid(
        `This PaymentIntent could not be captured because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
        { code: "payment_intent_unexpected_state", payment_intent: intentJson(pi) },
      );
    const amount = integer(params, "amount_to_capture") ?? pi.amount_capturable;
    if (amount < 1 || amount > pi.amount_capturable)
      throw invalid("The amount to capture must be positive and no more than the amount capturable.", {
        code: "amount_too_large",
        param: "amount_to_capture",
      });
    const charge = charges.get(pi.latest_charge!)!;
    charge.captured = true;
    charge.amount_captured = amount;
    pi.status = "succeeded";
    pi.amount_received = amount;
    pi.amount_capturable = 0;
    counts.captures += 1;
    recordEvent("payment_intent.succeeded", intentJson(pi));
    return { status: 200, body: expand(intentJson(pi), params) };
  }

  const CANCELABLE = [
    "requires_payment_method",
    "requires_capture",
    "requires_confirmation",
    "requires_action",
    "processing",
  ];

  function cancel(id: string, params: Json) {
    const pi = findIntent(id);
    if (!CANCELABLE.includes(pi.status))
      throw invalid(
        `You cannot cancel this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(", ")}.`,
        { code: "payment_intent_unexpected_state", payment_intent: intentJson(pi) },
      );
    cancelIntent(pi, str(params.cancellation_reason) ?? null);
    return { status: 200, body: expand(intentJson(pi), params) };
  }

  /** Stripe's search query language, as far as the adapter uses it: `field:'value'` clauses joined by AND. */
  function search(params: Json) {
    const query = str(params.query);
    if (!query) throw missingParam("query");
    const clauses: ((pi: Intent) => boolean)[] = [];
    const clause = /\s*(metadata\['((?:[^'\\]|\\.)*)'\]|status|currency):'((?:[^'\\]|\\.)*)'\s*(?:AND|$)/gy;
    let match: RegExpExecArray | null;
    let consumed = 0;
    while (consumed < query.length && (match = clause.exec(query))) {
      consumed = clause.lastIndex;
      const unescape = (value: string) => value.replace(/\\(.)/g, "$1");
      const value = unescape(match[3]!);
      const key = match[2] === undefined ? undefined : unescape(match[2]);
      const field = match[1]!;
      clauses.push((pi) =>
        key !== undefined
          ? pi.metadata[key] === value
          : field === "status"
            ? pi.status === value
            : pi.currency === value,
      );
    }
    if (consumed !== query.length || clauses.length === 0)
      throw invalid(`Invalid search query: ${query}`, { param: "query" }, false);
    const limit = integer(params, "limit") ?? 10;
    const found = [...intents.values()]
      .filter((pi) => clauses.every((test) => test(pi)))
      .sort((a, b) => b.created - a.created)
      .map(intentJson);
    return {
      status: 200,
      body: expand(
        {
          object: "search_result",
          data: found.slice(0, limit),
          has_more: found.length > limit,
          next_page: null,
          url: "/v1/payment_intents/search",
        },
        params,
      ),
    };
  }

  function createRefund(params: Json) {
    const pi = findIntent(str(params.payment_intent));
    const charge = pi.latest_charge ? charges.get(pi.latest_charge) : undefined;
    if (!charge || !charge.captured)
      throw invalid(`This PaymentIntent (${pi.id}) does not have a successful charge to refund.`, {
        code: "charge_not_refundable",
      });
    const left = charge.amount_captured - charge.amount_refunded;
    const amount = integer(params, "amount") ?? left;
    if (amount < 1 || amount > left)
      throw invalid(
        `Refund amount (${money(amount, pi.currency)}) is greater than unrefunded amount on charge (${money(left, pi.currency)})`,
        { code: "amount_too_large", param: "amount" },
      );
    charge.amount_refunded += amount;
    const refund: Refund = {
      id: newId("re"),
      amount,
      charge: charge.id,
      payment_intent: pi.id,
      currency: pi.currency,
      status: "succeeded",
      created: now(),
      metadata: metadataOf(params.metadata),
    };
    refunds.set(refund.id, refund);
    counts.refunds += 1;
    recordEvent("charge.refunded", chargeJson(charge));
    return { status: 200, body: expand(refundJson(refund), params) };
  }

  function findSession(id: string): Session {
    const cs = sessions.get(id);
    if (!cs) throw noSuch("checkout.session", id, "session");
    return cs;
  }

  function createSession(params: Json) {
    if (str(params.mode) !== "payment")
      throw invalid("This fake makes mode=payment sessions only.", { param: "mode" }, false);
    const successUrl = str(params.success_url);
    if (!successUrl) throw missingParam("success_url");
    const rawItems = params.line_items;
    const items = (Array.isArray(rawItems) ? rawItems : Object.values(obj(rawItems))).map(obj);
    if (items.length === 0) throw missingParam("line_items");
    let amount = 0;
    let currency = "";
    let description = "";
    for (const item of items) {
      const price = obj(item.price_data);
      const unit = integer(price, "unit_amount", { required: true })!;
      const quantity = integer(item, "quantity", { required: true })!;
      const itemCurrency = str(price.currency);
      if (!itemCurrency) throw missingParam("line_items[0][price_data][currency]");
      if (currency && itemCurrency !== currency) throw invalid("Line items must share a currency.", {}, false);
      currency = itemCurrency;
      amount += unit * quantity;
      description ||= str(obj(price.product_data).name) ?? "";
    }
    const intentData = obj(params.payment_intent_data);
    const cs: Session = {
      id: `cs_test_${randomBytes(24).toString("hex")}`,
      created: now(),
      expires_at: integer(params, "expires_at") ?? now() + 24 * 60 * 60,
      status: "open",
      payment_status: "unpaid",
      amount_total: amount,
      currency,
      description,
      client_reference_id: str(params.client_reference_id) ?? null,
      metadata: metadataOf(params.metadata),
      success_url: successUrl,
      cancel_url: str(params.cancel_url) ?? null,
      payment_intent: null,
      intent_data: {
        capture_method: (str(intentData.capture_method) ?? "automatic") as Intent["capture_method"],
        description: str(intentData.description) ?? null,
        metadata: metadataOf(intentData.metadata),
      },
      brands_blocked: listOf(obj(obj(obj(params.payment_method_options).card).restrictions).brands_blocked),
    };
    sessions.set(cs.id, cs);
    counts.sessions += 1;
    return { status: 200, body: expand(sessionJson(cs), params) };
  }

  function expireSession(cs: Session) {
    cs.status = "expired";
    // An expired session's PaymentIntent can never be paid: Stripe cancels it.
    const pi = cs.payment_intent ? intents.get(cs.payment_intent) : undefined;
    if (pi && CANCELABLE.includes(pi.status)) cancelIntent(pi, "abandoned");
    recordEvent("checkout.session.expired", sessionJson(cs));
  }

  function completeSession(cs: Session, pi: Intent) {
    cs.status = "complete";
    // "paid" once the funds are taken; a manual-capture authorisation is not that yet.
    cs.payment_status = pi.status === "succeeded" ? "paid" : "unpaid";
    recordEvent("checkout.session.completed", sessionJson(cs));
  }

  function api(method: string, path: string, params: Json): { status: number; body: Json } {
    let match: RegExpMatchArray | null;
    if (method === "POST" && path === "/v1/payment_intents") return createIntent(params);
    if (method === "GET" && path === "/v1/payment_intents/search") return search(params);
    if ((match = path.match(/^\/v1\/payment_intents\/([^/]+)$/)) && method === "GET")
      return { status: 200, body: expand(intentJson(findIntent(match[1])), params) };
    if ((match = path.match(/^\/v1\/payment_intents\/([^/]+)\/capture$/)) && method === "POST")
      return capture(match[1]!, params);
    if ((match = path.match(/^\/v1\/payment_intents\/([^/]+)\/cancel$/)) && method === "POST")
      return cancel(match[1]!, params);
    if ((match = path.match(/^\/v1\/payment_methods\/([^/]+)$/)) && method === "GET") {
      const pm = methods.get(match[1]!);
      if (!pm) throw noSuch("PaymentMethod", match[1]!, "payment_method");
      return { status: 200, body: expand(methodJson(pm), params) };
    }
    if (method === "POST" && path === "/v1/refunds") return createRefund(params);
    if (method === "POST" && path === "/v1/checkout/sessions") return createSession(params);
    if ((match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/)) && method === "GET")
      return { status: 200, body: expand(sessionJson(findSession(match[1]!)), params) };
    if ((match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/)) && method === "POST") {
      const cs = findSession(match[1]!);
      if (cs.status !== "open")
        throw invalid(
          `Only Checkout Sessions with a status in ["open"] can be expired. This session has status "${cs.status}".`,
          {
            code: "checkout_session_unexpected_state",
          },
        );
      expireSession(cs);
      return { status: 200, body: expand(sessionJson(cs), params) };
    }
    throw new ApiError(
      404,
      { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path}).` },
      false,
    );
  }

  function send(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
    response.writeHead(status, {
      "Content-Type": "application/json",
      "Request-Id": newId("req"),
      ...headers,
    });
    response.end(body);
  }

  async function handleApi(request: IncomingMessage, response: ServerResponse, url: URL) {
    const method = request.method ?? "GET";
    const raw = await readBody(request);
    const params = (method === "GET" ? qs.parse(url.search.slice(1)) : qs.parse(raw, { depth: 10 })) as Json;
    const key = method === "POST" ? ((request.headers["idempotency-key"] as string | undefined) ?? null) : null;
    const record: FakeRequestRecord = { method, path: url.pathname, idempotencyKey: key, replayed: false };
    requests.push(record);

    const auth = request.headers.authorization ?? "";
    const secret = auth.startsWith("Bearer ") ? auth.slice("Bearer ".length) : "";
    if (!secret.startsWith("sk_test_") || (options.secretKey && secret !== options.secretKey)) {
      send(
        response,
        401,
        JSON.stringify({
          error: {
            type: "invalid_request_error",
            message: secret
              ? `Invalid API Key provided: ${secret.slice(0, 8)}${"*".repeat(Math.max(0, secret.length - 12))}${secret.slice(-4)}`
              : "You did not provide an API key.",
          },
        }),
      );
      return;
    }
    if (failures.times > 0) {
      failures.times -= 1;
      send(
        response,
        failures.status,
        JSON.stringify({ error: { type: "api_error", message: "Sorry, something went wrong (fake outage)." } }),
      );
      return;
    }
    // Held before anything is made: like a request lost on its way, it never reached the API.
    const number = str(obj(obj(params.payment_method_data).card).number)?.replace(/[\s-]/g, "");
    const holds = number ? hanging.get(number) : undefined;
    if (method === "POST" && url.pathname === "/v1/payment_intents" && number && holds) {
      hanging.set(number, holds - 1);
      return;
    }

    const scope = `${secret}\u0000${key}`;
    const fingerprint = `${method} ${url.pathname} ${canonical(params)}`;
    if (key) {
      const seen = idempotency.get(scope);
      if (seen && seen.fingerprint !== fingerprint) {
        send(
          response,
          400,
          JSON.stringify({
            error: {
              type: "idempotency_error",
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          }),
        );
        return;
      }
      if (seen) {
        record.replayed = true;
        send(response, seen.status, seen.body, { "Idempotent-Replayed": "true", "Original-Request": newId("req") });
        return;
      }
    }
    let status: number;
    let body: string;
    let save = true;
    try {
      const answer = api(method, url.pathname, params);
      status = answer.status;
      body = JSON.stringify(answer.body);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      status = error.status;
      body = JSON.stringify({ error: error.body });
      save = error.save;
    }
    // Stripe keeps an answer for the key once the endpoint started work (docs.stripe.com/api/idempotent_requests).
    if (key && save) idempotency.set(scope, { fingerprint, status, body });
    const gate = gates.findIndex((candidate) => candidate.method === method && candidate.path.test(url.pathname));
    if (gate >= 0) {
      const [held] = gates.splice(gate, 1);
      held!.reach();
      await held!.released;
    }
    send(response, status, body, key ? { "Idempotency-Key": key } : {});
  }

  // ---- The buyer's pages -------------------------------------------------------------------

  function html(response: ServerResponse, status: number, body: string) {
    response.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
    response.end(body);
  }

  function redirect(response: ServerResponse, location: string) {
    response.writeHead(302, { Location: location });
    response.end();
  }

  function returnTo(pi: Intent): string {
    const url = new URL(pi.return_url!);
    url.searchParams.set("payment_intent", pi.id);
    url.searchParams.set("payment_intent_client_secret", pi.client_secret);
    url.searchParams.set(
      "redirect_status",
      pi.status === "requires_capture" || pi.status === "succeeded" ? "succeeded" : "failed",
    );
    return url.toString();
  }

  async function threeDSecure(request: IncomingMessage, response: ServerResponse, id: string) {
    const pi = intents.get(id);
    if (!pi || !pi.return_url) return html(response, 404, page("Not found", "<h1>Not found</h1>"));
    if (request.method === "POST") {
      const form = qs.parse(await readBody(request));
      if (pi.status === "requires_action") {
        if (form.outcome === "complete") authorise(pi);
        else
          fail(pi, {
            type: "invalid_request_error",
            code: "payment_intent_authentication_failure",
            message:
              "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
            payment_method: pi.payment_method,
          });
      }
      // A second press (or a late one) changes nothing and sends the buyer back the same way.
      return redirect(response, returnTo(pi));
    }
    const action = `/3ds/${escapeHtml(pi.id)}`;
    html(
      response,
      200,
      page(
        "3D Secure 2 Test Page",
        `<h1>3D Secure 2 Test Page</h1><p>Authenticate a payment of ${escapeHtml(money(pi.amount, pi.currency))}.</p>` +
          `<form method="post" action="${action}"><input type="hidden" name="outcome" value="complete"><button type="submit">Complete authentication</button></form>` +
          `<form method="post" action="${action}"><input type="hidden" name="outcome" value="fail"><button type="submit">Fail authentication</button></form>`,
      ),
    );
  }

  function hostedForm(cs: Session, error: string | null): string {
    const back = cs.cancel_url ? `<p><a href="${escapeHtml(cs.cancel_url)}">Back</a></p>` : "";
    const field = (id: string, label: string, autocomplete: string) =>
      `<p><label for="${id}">${label}</label> <input id="${id}" name="${id}" autocomplete="${autocomplete}" required></p>`;
    return page(
      "Checkout",
      `<h1>Pay ${escapeHtml(money(cs.amount_total, cs.currency))}</h1><p>${escapeHtml(cs.description)}</p>` +
        (error ? `<p role="alert">${escapeHtml(error)}</p>` : "") +
        `<form method="post" action="/pay/${escapeHtml(cs.id)}">` +
        field("cardNumber", "Card number", "cc-number") +
        field("cardExpiry", "Expiry (MM/YY)", "cc-exp") +
        field("cardCvc", "CVC", "cc-csc") +
        field("billingName", "Name on card", "cc-name") +
        `<button type="submit">Pay</button></form>` +
        back,
    );
  }

  async function hostedPage(request: IncomingMessage, response: ServerResponse, id: string, step: string | undefined) {
    const cs = sessions.get(id);
    if (!cs) return html(response, 404, page("Not found", "<h1>Not found</h1>"));
    if (cs.status === "complete") return redirect(response, withSessionId(cs.success_url, cs.id));
    if (cs.status === "expired")
      return html(response, 410, page("Expired", "<h1>This checkout session has expired</h1>"));
    let pi = cs.payment_intent ? intents.get(cs.payment_intent) : undefined;
    if (step === "return") {
      // Back from 3-D Secure on the hosted page.
      if (pi && pi.status === "requires_capture") {
        completeSession(cs, pi);
        return redirect(response, withSessionId(cs.success_url, cs.id));
      }
      return html(response, 200, hostedForm(cs, pi?.last_payment_error?.message ?? null));
    }
    if (request.method !== "POST") return html(response, 200, hostedForm(cs, null));
    const form = qs.parse(await readBody(request)) as Record<string, unknown>;
    const [month, year] = (str(form.cardExpiry) ?? "").split("/").map((part) => Number(part.trim()));
    const made = makeMethod(
      {
        number: str(form.cardNumber) ?? "",
        exp_month: month ?? NaN,
        exp_year: year === undefined ? NaN : year < 100 ? 2000 + year : year,
        cvc: str(form.cardCvc) ?? "",
      },
      str(form.billingName) ?? null,
    );
    if (made instanceof ApiError) return html(response, 200, hostedForm(cs, made.message));
    if (cs.brands_blocked.includes(CHECKOUT_BRAND_NAMES[made.pm.brand ?? ""] ?? made.pm.brand ?? ""))
      return html(response, 200, hostedForm(cs, "Your card is not supported. Please use a different card."));
    // Checkout keeps one PaymentIntent for the session, made at the first attempt to pay.
    if (!pi) {
      pi = newIntent({
        amount: cs.amount_total,
        currency: cs.currency,
        capture_method: cs.intent_data.capture_method,
        description: cs.intent_data.description,
        metadata: cs.intent_data.metadata,
      });
      pi.session = cs.id;
      cs.payment_intent = pi.id;
    }
    const cardError = confirm(pi, made.pm, made.digits, `${base}/pay/${cs.id}/return`);
    if (cardError) return html(response, 200, hostedForm(cs, cardError.message));
    if (pi.status === "requires_action") return redirect(response, `${base}/3ds/${pi.id}`);
    completeSession(cs, pi);
    return redirect(response, withSessionId(cs.success_url, cs.id));
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", base);
    const challenge = url.pathname.match(/^\/3ds\/([^/]+)$/);
    const hosted = url.pathname.match(/^\/pay\/([^/]+)(?:\/(return))?$/);
    const handled = url.pathname.startsWith("/v1/")
      ? handleApi(request, response, url)
      : challenge
        ? threeDSecure(request, response, challenge[1]!)
        : hosted
          ? hostedPage(request, response, hosted[1]!, hosted[2])
          : Promise.resolve(html(response, 404, page("Not found", "<h1>Not found</h1>")));
    handled.catch((error: unknown) => {
      if (!response.headersSent)
        send(response, 500, JSON.stringify({ error: { type: "api_error", message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function webhookHeader(
    payload: string,
    { secret = webhookSecret, timestamp }: { secret?: string; timestamp?: number } = {},
  ) {
    return signWebhookPayload(payload, secret, timestamp);
  }

  return {
    url: base,
    webhookSecret,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Held (hanging) requests and keep-alive sockets would keep close() waiting forever.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
    paymentIntents: () =>
      [...intents.values()].map((pi) => {
        const pm = pi.payment_method ? methods.get(pi.payment_method) : undefined;
        return {
          id: pi.id,
          status: pi.status,
          amount: pi.amount,
          currency: pi.currency,
          capture_method: pi.capture_method,
          amount_capturable: pi.amount_capturable,
          amount_received: pi.amount_received,
          amount_refunded: pi.latest_charge ? (charges.get(pi.latest_charge)?.amount_refunded ?? 0) : 0,
          description: pi.description,
          metadata: { ...pi.metadata },
          brand: pm?.brand ?? null,
          last4: pm?.last4 ?? null,
        };
      }),
    sessions: () =>
      [...sessions.values()].map((cs) => {
        const json = sessionJson(cs);
        return {
          id: cs.id,
          status: cs.status,
          payment_status: cs.payment_status,
          payment_intent: cs.payment_intent,
          client_reference_id: cs.client_reference_id,
          metadata: { ...cs.metadata },
          success_url: cs.success_url,
          cancel_url: cs.cancel_url,
          url: json.url as string | null,
          amount_total: cs.amount_total,
          currency: cs.currency,
        };
      }),
    refunds: () =>
      [...refunds.values()].map(({ id, payment_intent, amount, status }) => ({ id, payment_intent, amount, status })),
    counts,
    requests,
    events: (type) => events.filter((event) => !type || event.type === type),
    event: (type, object) => makeEvent(type, object),
    object(id) {
      const found = lookup(id);
      if (!found) throw new Error(`fake Stripe has no ${id}`);
      return found;
    },
    webhookHeader,
    async sendWebhook(targetUrl, event) {
      const payload = JSON.stringify(event, null, 2);
      return fetch(targetUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json; charset=utf-8", "Stripe-Signature": webhookHeader(payload) },
        body: payload,
      });
    },
    hang(cardNumber, times = Number.POSITIVE_INFINITY) {
      hanging.set(cardNumber.replace(/[\s-]/g, ""), times);
    },
    failNext(status = 500, times = 1) {
      failures = { status, times };
    },
    holdAnswer(method, path) {
      let reach!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => (reach = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      gates.push({ method, path, reach, released });
      return { reached, release };
    },
    treatCard(cardNumber, treatment) {
      treated.set(cardNumber.replace(/[\s-]/g, ""), treatment);
    },
  };
}

// ---- Drivers for tests without a browser ---------------------------------------------------

/** The forms of a page: action, method, hidden fields and the submit button's text. */
function formsOf(htmlText: string) {
  return [...htmlText.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map(([, attributes, inner]) => ({
    action: /action="([^"]*)"/.exec(attributes!)?.[1]?.replace(/&amp;/g, "&") ?? "",
    method: (/method="([^"]*)"/.exec(attributes!)?.[1] ?? "get").toUpperCase(),
    hidden: Object.fromEntries(
      [...inner!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map(([, name, value]) => [
        name!,
        value!,
      ]),
    ),
    button: /<button[^>]*>([\s\S]*?)<\/button>/.exec(inner!)?.[1]?.trim() ?? "",
  }));
}

async function submit(pageUrl: string, button: string, fields: Record<string, string> = {}): Promise<Response> {
  const opened = await fetch(pageUrl, { redirect: "manual" });
  if (opened.status !== 200) throw new Error(`${pageUrl} answered ${opened.status}`);
  const form = formsOf(await opened.text()).find((candidate) => candidate.button === button);
  if (!form) throw new Error(`no "${button}" form on ${pageUrl}`);
  return fetch(new URL(form.action, pageUrl), {
    method: form.method,
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...form.hidden, ...fields }).toString(),
  });
}

function locationOf(response: Response, pageUrl: string): string {
  const location = response.headers.get("location");
  if (response.status !== 302 || !location) throw new Error(`${pageUrl} did not redirect (${response.status})`);
  return location;
}

/** Presses "Complete authentication" (passed) or "Fail authentication" on the 3-D Secure page; the Location it sends the buyer to. */
export async function completeThreeDSecure(url: string, passed: boolean): Promise<string> {
  const response = await submit(url, passed ? "Complete authentication" : "Fail authentication");
  return locationOf(response, url);
}

/** Fills in and submits the hosted payment page; the Location it sends the buyer to, or a HostedPageError with the page's message. */
export async function payOnHostedPage(
  url: string,
  card: { number: string; expiry: string; cvc: string; name: string },
): Promise<string> {
  const response = await submit(url, "Pay", {
    cardNumber: card.number,
    cardExpiry: card.expiry,
    cardCvc: card.cvc,
    billingName: card.name,
  });
  if (response.status === 302) return locationOf(response, url);
  const alert = /<p role="alert">([\s\S]*?)<\/p>/.exec(await response.text())?.[1];
  throw new HostedPageError(alert ?? `the hosted page answered ${response.status}`);
}

/** The "Back" link of the hosted payment page (to the cancel URL). */
export async function hostedPageBackLink(url: string): Promise<string> {
  const opened = await fetch(url, { redirect: "manual" });
  const href = /<a href="([^"]*)">Back<\/a>/.exec(await opened.text())?.[1];
  if (!href) throw new Error(`no Back link on ${url}`);
  return href.replace(/&amp;/g, "&");
}
