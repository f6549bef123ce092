import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { redirect } from "@remix-run/node";
import type { Clock } from "~/clock";
import { safeReturnPath } from "~/routing/return-path";
import type {
  CardBrand,
  CardDetails,
  GatewayAction,
  GatewayResult,
  PaymentFailure,
  PaymentGateway,
  PaymentRequest,
} from "./gateway";

// The built-in sandbox: a PaymentGateway that lives in this process, so the whole checkout (3-D
// Secure, PayPal, wallets, declines, a gateway that never answers) can be exercised end to end
// without an account anywhere. Its "bank" and "PayPal" are three pages of this site
// (routes/sandbox.*.tsx), which drive the buyer's steps through the methods below.
//
// Like a real gateway, the state of a payment is the gateway's: a buyer's answer on a sandbox
// page settles the payment there and then, and `continue` only reads it. So nothing the buyer
// carries back in the return URL can change an outcome (a "fail" cannot be edited into a "pass").

export type SandboxStepKind = GatewayAction["kind"];

export interface SandboxGatewayOptions {
  clock: Clock;
  /** Starts every reference, so references from two gateways (tests, servers) never collide. */
  idPrefix?: string;
  /** Signs notifications (webhooks); without it the sandbox accepts none. */
  notificationSecret?: string;
}

/** What a sandbox page needs to show one of the buyer's steps. */
export interface SandboxStep {
  reference: string;
  kind: SandboxStepKind;
  /** False once answered (or given up by the merchant): the page sends the buyer back instead. */
  outstanding: boolean;
  amount: number;
  currency: string;
  description: string;
  brand: CardBrand | null;
  last4: string | null;
  /** Where the buyer goes when they leave the step, query parameters included. */
  returnUrl: string;
}

/** One payment as the sandbox keeps it: card brand and last four digits only, never more. */
export interface SandboxPaymentRecord {
  reference: string;
  idempotencyKey: string;
  createdAt: string;
  method: "card" | "paypal" | "googlePay" | "applePay";
  amount: number;
  currency: string;
  /** The merchant's words for the payment (show and order number): never the buyer's details. */
  description: string;
  brand: CardBrand | null;
  last4: string | null;
  state: string;
  captured: number;
  refunded: number;
  voided: boolean;
}

export interface SandboxGateway extends PaymentGateway {
  readonly name: "sandbox";
  /** The step `kind` of this payment, or null when there is no such payment or step (a 404). */
  step(reference: string, kind: SandboxStepKind): SandboxStep | null;
  /** The buyer's browser has "sent its device data". Returns where to send them, or null. */
  completeDeviceData(reference: string): string | null;
  /** The buyer pressed Complete (passed) or Fail authentication. Returns where to send them, or null. */
  completeChallenge(reference: string, passed: boolean): string | null;
  /** The buyer approved or cancelled at "PayPal". Returns where to send them, or null. */
  decidePayPal(reference: string, approve: boolean): string | null;
  /** Payments ever created: a repeated idempotency key must leave this unchanged. */
  readonly charges: number;
  /** Everything the sandbox holds, for tests and debugging. */
  snapshot(): SandboxPaymentRecord[];
}

/** Long enough for any buyer to finish a step; short enough that a long benchmark stays small. */
const RETENTION_MS = 2 * 60 * 60 * 1000;
const FALLBACK_RETURN = "/checkout/verify";
const SIGNATURE_HEADER = "x-sandbox-signature";

export const SANDBOX_CARDS = {
  visa: "4242424242424242",
  mastercard: "5555555555554444",
  amex: "378282246310005",
  threeDSecure: "4000000000003220",
  declined: "4000000000000002",
  insufficientFunds: "4000000000009995",
  noAnswer: "4000000000000119",
} as const;

export const SANDBOX_WALLET_TOKENS = { ok: "sandbox-wallet-ok", decline: "sandbox-wallet-decline" } as const;

type State =
  /** The never-answering card: no answer will ever come. */
  | { kind: "hanging" }
  | { kind: "awaiting"; step: SandboxStepKind }
  | { kind: "authorised" }
  | { kind: "declined"; failure: PaymentFailure };

interface Payment {
  reference: string;
  idempotencyKey: string;
  createdAt: number;
  method: SandboxPaymentRecord["method"];
  amount: number;
  currency: string;
  description: string;
  brand: CardBrand | null;
  last4: string | null;
  /** Already made safe, without query parameters. */
  returnUrl: string;
  cancelUrl: string;
  state: State;
  /** Every step the buyer has been asked to take, so a late visit to one can be sent back. */
  asked: SandboxStepKind[];
  /** Set when the buyer leaves a step somewhere other than the return URL (PayPal's cancel). */
  exitUrl: string | null;
  captured: number;
  refunded: number;
  voided: boolean;
}

/** A return URL the sandbox may send the buyer to: a path on this site, or /checkout/verify. */
export const safeSandboxPath = (value: string | null | undefined): string => safeReturnPath(value, FALLBACK_RETURN);

function withQuery(path: string, params: Record<string, string>): string {
  const url = new URL(path, "http://sandbox.invalid");
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

export function signSandboxNotification(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardBrandOf(digits: string): CardBrand | null {
  if (digits.startsWith("4")) return "visa";
  if (/^3[47]/.test(digits)) return "amex";
  const two = Number(digits.slice(0, 2));
  const four = Number(digits.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return "mastercard";
  return null;
}

function expired(card: CardDetails, now: Date): boolean {
  const { expiryMonth: month, expiryYear: year } = card;
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year) || year < 1000 || year > 9999)
    return true;
  // A card is good until the end of its expiry month.
  return year * 12 + (month - 1) < now.getUTCFullYear() * 12 + now.getUTCMonth();
}

/** What a card's number and expiry decide, before anything is stored. */
function decideCard(card: CardDetails, now: Date, accepted: readonly CardBrand[]) {
  const digits = card.number.replace(/[\s-]/g, "");
  const last4 = /^\d{4,}$/.test(digits) ? digits.slice(-4) : null;
  const declined = (
    failure: PaymentFailure,
    brand: CardBrand | null,
  ): { brand: CardBrand | null; last4: string | null; state: State } => ({
    brand,
    last4,
    state: { kind: "declined", failure },
  });
  if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) return declined("declined", null);
  const brand = cardBrandOf(digits);
  if (!brand || !accepted.includes(brand)) return declined("brandNotAccepted", brand);
  if (expired(card, now)) return declined("declined", brand);
  const state: State =
    digits === SANDBOX_CARDS.threeDSecure
      ? { kind: "awaiting", step: "deviceData" }
      : digits === SANDBOX_CARDS.noAnswer
        ? { kind: "hanging" }
        : digits === SANDBOX_CARDS.insufficientFunds
          ? { kind: "declined", failure: "insufficientFunds" }
          : digits === SANDBOX_CARDS.visa || digits === SANDBOX_CARDS.mastercard || digits === SANDBOX_CARDS.amex
            ? { kind: "authorised" }
            : { kind: "declined", failure: "declined" };
  return { brand, last4, state };
}

function validRequest(request: PaymentRequest): boolean {
  return Number.isInteger(request.amount) && request.amount > 0 && /^[A-Z]{3}$/.test(request.currency);
}

const STEP_PATHS: Record<SandboxStepKind, string> = {
  deviceData: "/sandbox/device-data/",
  challenge: "/sandbox/challenge/",
  approval: "/sandbox/paypal/",
};

function actionFor(payment: Payment, step: SandboxStepKind): GatewayAction {
  // The reference is in the URL, so no fields are needed; PayPal's page is reached by a redirect
  // (GET), the bank's by a form POST, as with real providers.
  return {
    kind: step,
    url: `${STEP_PATHS[step]}${encodeURIComponent(payment.reference)}`,
    method: step === "approval" ? "GET" : "POST",
    fields: {},
  };
}

/** Where a payment stands, as `authorise` and `continue` report it (`answer` adds the hang). */
function resultOf(payment: Payment): GatewayResult {
  const { reference, brand, last4, state } = payment;
  switch (state.kind) {
    case "hanging":
      return { status: "pending", reference };
    case "awaiting":
      return { status: "actionRequired", reference, action: actionFor(payment, state.step), brand, last4 };
    case "authorised":
      // A voided authorisation will never be captured: say so rather than "authorised".
      return payment.voided
        ? { status: "declined", reference, failure: "cancelled", brand, last4 }
        : { status: "authorised", reference, brand, last4 };
    case "declined":
      return { status: "declined", reference, failure: state.failure, brand, last4 };
  }
}

const never = () => new Promise<GatewayResult>(() => {});

export function createSandboxGateway(options: SandboxGatewayOptions): SandboxGateway {
  const { clock, notificationSecret } = options;
  const prefix = options.idPrefix ?? "sbx";
  const cardBrands: readonly CardBrand[] = ["visa", "mastercard", "amex"];
  // Map iteration follows insertion, which is creation order: pruning stops at the first young one.
  const byKey = new Map<string, Payment>();
  const byReference = new Map<string, Payment>();
  let charges = 0;

  function prune(now: number) {
    for (const [key, payment] of byKey) {
      if (now - payment.createdAt < RETENTION_MS) break;
      byKey.delete(key);
      byReference.delete(payment.reference);
    }
  }

  function answer(payment: Payment): Promise<GatewayResult> {
    return payment.state.kind === "hanging" ? never() : Promise.resolve(resultOf(payment));
  }

  /**
   * Records a new payment, or finds the one this idempotency key already made. Runs without any
   * await, so two calls with one key in the same instant still make a single payment.
   */
  function create(
    request: PaymentRequest,
    method: Payment["method"],
    decide: () => Pick<Payment, "brand" | "last4" | "state">,
    cancelUrl?: string,
  ): Payment {
    const existing = byKey.get(request.idempotencyKey);
    if (existing) return existing;
    const now = clock.now().getTime();
    prune(now);
    const decided = validRequest(request)
      ? decide()
      : { brand: null, last4: null, state: { kind: "declined", failure: "error" } as State };
    const payment: Payment = {
      reference: `${prefix}_${randomBytes(12).toString("hex")}`,
      idempotencyKey: request.idempotencyKey,
      createdAt: now,
      method,
      amount: request.amount,
      currency: request.currency,
      description: request.description,
      ...decided,
      returnUrl: safeSandboxPath(request.returnUrl),
      cancelUrl: safeSandboxPath(cancelUrl ?? request.returnUrl),
      asked: decided.state.kind === "awaiting" ? [decided.state.step] : [],
      exitUrl: null,
      captured: 0,
      refunded: 0,
      voided: false,
    };
    byKey.set(payment.idempotencyKey, payment);
    byReference.set(payment.reference, payment);
    charges += 1;
    return payment;
  }

  function backUrl(payment: Payment): string {
    return withQuery(payment.exitUrl ?? payment.returnUrl, { reference: payment.reference });
  }

  /**
   * Applies the buyer's answer to a step, once: a second press (a double submit without script)
   * changes nothing and sends them back the same way.
   */
  function answerStep(reference: string, step: SandboxStepKind, apply: (payment: Payment) => void): string | null {
    const payment = byReference.get(reference);
    if (!payment || !payment.asked.includes(step)) return null;
    if (payment.state.kind === "awaiting" && payment.state.step === step) apply(payment);
    return backUrl(payment);
  }

  const gateway: SandboxGateway = {
    name: "sandbox",
    cardBrands,

    async authorise(request) {
      const now = clock.now();
      // Only brand and last four leave decideCard: the card itself is not kept past this call.
      return answer(create(request, "card", () => decideCard(request.card, now, cardBrands)));
    },

    async startPayPal(request) {
      return answer(
        create(
          request,
          "paypal",
          () => ({ brand: null, last4: null, state: { kind: "awaiting", step: "approval" } }),
          request.cancelUrl,
        ),
      );
    },

    async authoriseWallet(request) {
      return answer(
        create(request, request.wallet, () => ({
          brand: null,
          last4: null,
          state:
            request.token === SANDBOX_WALLET_TOKENS.ok
              ? { kind: "authorised" }
              : { kind: "declined", failure: request.token === SANDBOX_WALLET_TOKENS.decline ? "declined" : "error" },
        })),
      );
    },

    async continue(reference, _returned) {
      const payment = byReference.get(reference);
      if (!payment) return { status: "declined", reference, failure: "error", brand: null, last4: null };
      // A step not yet answered is asked again; an answered one has already moved the payment on.
      return answer(payment);
    },

    async capture(reference, amount) {
      const payment = byReference.get(reference);
      const ok =
        payment?.state.kind === "authorised" &&
        !payment.voided &&
        payment.captured === 0 &&
        Number.isInteger(amount) &&
        amount > 0 &&
        amount <= payment.amount;
      if (ok) payment.captured = amount;
      return { ok };
    },

    async void(reference) {
      const payment = byReference.get(reference);
      if (!payment) return { ok: false };
      if (payment.voided) return { ok: true };
      if (payment.state.kind === "authorised" && payment.captured === 0) {
        payment.voided = true;
        return { ok: true };
      }
      if (payment.state.kind === "awaiting") {
        // Given up while the buyer was at the bank or PayPal: it can no longer be authorised.
        payment.state = { kind: "declined", failure: "cancelled" };
        payment.voided = true;
        return { ok: true };
      }
      return { ok: false };
    },

    async refund(reference, amount) {
      const payment = byReference.get(reference);
      const ok =
        !!payment &&
        payment.captured > 0 &&
        Number.isInteger(amount) &&
        amount > 0 &&
        payment.refunded + amount <= payment.captured;
      if (ok) payment.refunded += amount;
      return { ok };
    },

    async status(idempotencyKey) {
      const payment = byKey.get(idempotencyKey);
      if (!payment) return { status: "unknown" };
      if (payment.state.kind === "awaiting") return { status: "pending", reference: payment.reference };
      return resultOf(payment);
    },

    async parseNotification(body, headers) {
      const given = headers.get(SIGNATURE_HEADER);
      if (!notificationSecret || !given) return null;
      const expected = Buffer.from(signSandboxNotification(body, notificationSecret), "hex");
      const received = Buffer.from(given, "hex");
      if (received.length !== expected.length || !timingSafeEqual(received, expected)) return null;
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return null;
      }
      if (typeof parsed !== "object" || parsed === null) return null;
      const { idempotencyKey, reference } = parsed as Record<string, unknown>;
      if (typeof idempotencyKey !== "string" || typeof reference !== "string") return null;
      const payment = byKey.get(idempotencyKey);
      if (!payment || payment.reference !== reference) return null;
      return { idempotencyKey, result: await gateway.status(idempotencyKey) };
    },

    step(reference, kind) {
      const payment = byReference.get(reference);
      if (!payment || !payment.asked.includes(kind)) return null;
      return {
        reference,
        kind,
        outstanding: payment.state.kind === "awaiting" && payment.state.step === kind,
        amount: payment.amount,
        currency: payment.currency,
        description: payment.description,
        brand: payment.brand,
        last4: payment.last4,
        returnUrl: backUrl(payment),
      };
    },

    completeDeviceData(reference) {
      return answerStep(reference, "deviceData", (payment) => {
        payment.state = { kind: "awaiting", step: "challenge" };
        payment.asked.push("challenge");
      });
    },

    completeChallenge(reference, passed) {
      return answerStep(reference, "challenge", (payment) => {
        payment.state = passed ? { kind: "authorised" } : { kind: "declined", failure: "challengeFailed" };
      });
    },

    decidePayPal(reference, approve) {
      return answerStep(reference, "approval", (payment) => {
        payment.state = approve ? { kind: "authorised" } : { kind: "declined", failure: "cancelled" };
        if (!approve) payment.exitUrl = payment.cancelUrl;
      });
    },

    get charges() {
      return charges;
    },

    snapshot() {
      return [...byKey.values()].map((payment) => ({
        reference: payment.reference,
        idempotencyKey: payment.idempotencyKey,
        createdAt: new Date(payment.createdAt).toISOString(),
        method: payment.method,
        amount: payment.amount,
        currency: payment.currency,
        description: payment.description,
        brand: payment.brand,
        last4: payment.last4,
        state:
          payment.state.kind === "awaiting"
            ? `awaiting:${payment.state.step}`
            : payment.state.kind === "declined"
              ? `declined:${payment.state.failure}`
              : payment.state.kind,
        captured: payment.captured,
        refunded: payment.refunded,
        voided: payment.voided,
      }));
    },
  };
  return gateway;
}

// Shared by the three sandbox pages (routes/sandbox.*.tsx).

const notFound = () => new Response(null, { status: 404, statusText: "Not Found" });

/** The gateway, or a 404 when a real provider takes payments and the sandbox pages do not exist. */
export function requireSandbox(gateway: SandboxGateway | null | undefined): SandboxGateway {
  if (!gateway) throw notFound();
  return gateway;
}

/**
 * The step a sandbox page shows. An answered one sends the buyer back (they pressed Back after
 * answering, or reloaded) rather than asking again; an unknown one is a 404.
 */
export function loadSandboxStep(
  gateway: SandboxGateway | null | undefined,
  reference: string | undefined,
  kind: SandboxStepKind,
) {
  const step = requireSandbox(gateway).step(reference ?? "", kind);
  if (!step) throw notFound();
  if (!step.outstanding) throw redirect(step.returnUrl, 303);
  return {
    amount: step.amount,
    currency: step.currency,
    description: step.description,
    brand: step.brand,
    last4: step.last4,
  };
}

/** Sends the buyer back after an answer (303, so a reload does not post it again), or 404. */
export function returnFromSandbox(url: string | null): Response {
  if (!url) throw notFound();
  return redirect(url, 303);
}
