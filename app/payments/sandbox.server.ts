import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { SandboxPaymentTable } from "~/db/schema";
import { checkoutPath } from "~/urls/paths";
import { safeReturnPath } from "~/urls/return-path";
import { WAITING_PAGE } from "~/ticketing/checkout-steps";
import type { CardBrand, CardDetails } from "~/forms/checkout/card-types";
import type { GatewayAction, GatewayResult, PaymentFailure, PaymentGateway, PaymentRequest } from "./gateway";

// The built-in sandbox: a PaymentGateway that lives in this process, so the whole checkout (3-D
// Secure, PayPal, wallets, declines, a gateway that never answers) can be exercised end to end
// without an account anywhere. Its "bank" and "PayPal" are three pages of this site
// (routes/sandbox.*.tsx), which drive the buyer's steps through the methods below.
//
// Like a real gateway, the state of a payment is the gateway's: a buyer's answer on a sandbox
// page settles the payment there and then, and `continue` only reads it. So nothing the buyer
// carries back in the return URL can change an outcome (a "fail" cannot be edited into a "pass").
// And like a real gateway's, its payments outlive the server that made them: they are kept in the
// store (sandbox_payments), so a restarted server, or another one sharing the database, sees a
// payment the buyer authorised at the sandbox's bank and can settle it (the reconciler does).
// Every change to a payment is a conditional update, so two servers cannot both capture it.

/** The sandbox's own steps: it has no hosted card page (it takes cards on our page). */
export type SandboxStepKind = Exclude<GatewayAction["kind"], "hostedPage">;

export interface SandboxGatewayOptions {
  /** Where its payments are kept: shared by every server on the same database, like a provider's. */
  store: Store;
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
  step(reference: string, kind: SandboxStepKind): Promise<SandboxStep | null>;
  /** The buyer's browser has "sent its device data". Returns where to send them, or null. */
  completeDeviceData(reference: string): Promise<string | null>;
  /** The buyer pressed Complete (passed) or Fail authentication. Returns where to send them, or null. */
  completeChallenge(reference: string, passed: boolean): Promise<string | null>;
  /** The buyer approved or cancelled at "PayPal". Returns where to send them, or null. */
  decidePayPal(reference: string, approve: boolean): Promise<string | null>;
  /** Payments created through this instance: a repeated idempotency key must leave this unchanged. */
  readonly charges: number;
  /** Everything the sandbox holds (every server's, oldest first), for tests and the dashboard. */
  snapshot(): Promise<SandboxPaymentRecord[]>;
}

/** Long enough for any buyer to finish a step; short enough that a long benchmark stays small. */
const RETENTION_MS = 2 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;
const FALLBACK_RETURN = checkoutPath(WAITING_PAGE);
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
  createdAt: string;
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

/** The state as one column, so a change can be made conditional on it (`where state = …`). */
function stateColumn(state: State): string {
  switch (state.kind) {
    case "awaiting":
      return `awaiting:${state.step}`;
    case "declined":
      return `declined:${state.failure}`;
    default:
      return state.kind;
  }
}

function parseState(value: string): State {
  const [kind, detail] = value.split(":") as [string, string | undefined];
  if (kind === "awaiting") return { kind, step: detail as SandboxStepKind };
  if (kind === "declined") return { kind, failure: detail as PaymentFailure };
  return { kind: kind as "hanging" | "authorised" };
}

function fromRow(row: SandboxPaymentTable): Payment {
  return {
    reference: row.reference,
    idempotencyKey: row.idempotency_key,
    createdAt: row.created_at,
    method: row.method,
    amount: row.amount,
    currency: row.currency,
    description: row.description,
    brand: row.brand,
    last4: row.last4,
    returnUrl: row.return_url,
    cancelUrl: row.cancel_url,
    state: parseState(row.state),
    asked: row.asked ? (row.asked.split(",") as SandboxStepKind[]) : [],
    exitUrl: row.exit_url,
    captured: row.captured,
    refunded: row.refunded,
    voided: row.voided === 1,
  };
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

/**
 * What a card's number and expiry decide, before anything is stored. Not the brands the payment
 * may use: like a provider's API, the sandbox authorises the card and says which brand it is, and
 * the payment service refuses (and voids) one the order may not take.
 */
function decideCard(card: CardDetails, now: Date) {
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
  const { reference, brand, last4, state, amount, currency } = payment;
  switch (state.kind) {
    case "hanging":
      return { status: "pending", reference };
    case "awaiting":
      return { status: "actionRequired", reference, action: actionFor(payment, state.step), brand, last4 };
    case "authorised":
      // A voided authorisation will never be captured: say so rather than "authorised".
      return payment.voided
        ? { status: "declined", reference, failure: "cancelled", brand, last4 }
        : { status: "authorised", reference, brand, last4, amount, currency };
    case "declined":
      return { status: "declined", reference, failure: state.failure, brand, last4 };
  }
}

const never = () => new Promise<GatewayResult>(() => {});

export function createSandboxGateway(options: SandboxGatewayOptions): SandboxGateway {
  const { store, clock, notificationSecret } = options;
  const { db } = store;
  const prefix = options.idPrefix ?? "sbx";
  const cardBrands: readonly CardBrand[] = ["visa", "mastercard", "amex"];
  let charges = 0;
  let prunedAt = Number.NEGATIVE_INFINITY;

  async function findBy(column: "reference" | "idempotency_key", value: string): Promise<Payment | undefined> {
    const row = await db.selectFrom("sandbox_payments").selectAll().where(column, "=", value).executeTakeFirst();
    return row && fromRow(row);
  }
  const byReference = (reference: string) => findBy("reference", reference);
  const byKey = (idempotencyKey: string) => findBy("idempotency_key", idempotencyKey);

  function answer(payment: Payment): Promise<GatewayResult> {
    return payment.state.kind === "hanging" ? never() : Promise.resolve(resultOf(payment));
  }

  /**
   * Records a new payment, or finds the one this idempotency key already made. The key is unique
   * in the store, so two calls with one key at the same instant, in one process or two, still make
   * a single payment: the second insert does nothing and reads the first.
   */
  async function create(
    request: PaymentRequest,
    method: Payment["method"],
    decide: () => Pick<Payment, "brand" | "last4" | "state">,
    cancelUrl?: string,
  ): Promise<Payment> {
    const now = clock.now();
    // Old payments go now and then, not on every new one: a statement per payment for nothing.
    if (now.getTime() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = now.getTime();
      await db
        .deleteFrom("sandbox_payments")
        .where("created_at", "<=", new Date(now.getTime() - RETENTION_MS).toISOString())
        .execute();
    }
    const decided = validRequest(request)
      ? decide()
      : { brand: null, last4: null, state: { kind: "declined", failure: "error" } as State };
    const inserted = await db
      .insertInto("sandbox_payments")
      .values({
        reference: `${prefix}_${randomBytes(12).toString("hex")}`,
        idempotency_key: request.idempotencyKey,
        created_at: now.toISOString(),
        method,
        amount: request.amount,
        currency: request.currency,
        description: request.description,
        brand: decided.brand,
        last4: decided.last4,
        return_url: safeSandboxPath(request.returnUrl),
        cancel_url: safeSandboxPath(cancelUrl ?? request.returnUrl),
        state: stateColumn(decided.state),
        asked: decided.state.kind === "awaiting" ? decided.state.step : "",
        exit_url: null,
        captured: 0,
        refunded: 0,
        voided: 0,
      })
      .onConflict((oc) => oc.column("idempotency_key").doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) {
      charges += 1;
      return fromRow(inserted);
    }
    const payment = await byKey(request.idempotencyKey);
    if (!payment) throw new Error("sandbox payment vanished as it was made");
    return payment;
  }

  function backUrl(payment: Payment): string {
    return withQuery(payment.exitUrl ?? payment.returnUrl, { reference: payment.reference });
  }

  /**
   * Applies the buyer's answer to a step, once: the change is conditional on the step still
   * waiting, so a second press (a double submit without script), in this process or another,
   * changes nothing and sends them back the same way.
   */
  async function answerStep(
    reference: string,
    step: SandboxStepKind,
    change: (payment: Payment) => { state: State; asked?: SandboxStepKind[]; exitUrl?: string },
  ): Promise<string | null> {
    const payment = await byReference(reference);
    if (!payment || !payment.asked.includes(step)) return null;
    if (payment.state.kind === "awaiting" && payment.state.step === step) {
      const next = change(payment);
      await db
        .updateTable("sandbox_payments")
        .set({
          state: stateColumn(next.state),
          ...(next.asked ? { asked: next.asked.join(",") } : {}),
          ...(next.exitUrl ? { exit_url: next.exitUrl } : {}),
        })
        .where("reference", "=", reference)
        .where("state", "=", stateColumn(payment.state))
        .execute();
    }
    const now = await byReference(reference);
    return now ? backUrl(now) : null;
  }

  async function changed(query: Promise<{ numUpdatedRows: bigint }>): Promise<boolean> {
    return Number((await query).numUpdatedRows) === 1;
  }

  const gateway: SandboxGateway = {
    name: "sandbox",
    cardBrands,
    // Cards on our own page, and its own PayPal and wallets: the whole checkout, no account needed.
    offers: { cardEntry: "onSite", paypal: true, wallets: true },

    async authorise(request) {
      const now = clock.now();
      // Only brand and last four leave decideCard: the card itself is not kept past this call.
      return answer(await create(request, "card", () => decideCard(request.card, now)));
    },

    async startHostedCard(request) {
      // The sandbox takes cards on our own page (offers.cardEntry), so the checkout never asks
      // this; a request that does anyway is refused like any malformed one, and nothing is kept.
      void request;
      return { status: "declined", reference: null, failure: "error", brand: null, last4: null };
    },

    async startPayPal(request) {
      return answer(
        await create(
          request,
          "paypal",
          () => ({ brand: null, last4: null, state: { kind: "awaiting", step: "approval" } }),
          request.cancelUrl,
        ),
      );
    },

    async authoriseWallet(request) {
      return answer(
        await create(request, request.wallet, () => ({
          brand: null,
          last4: null,
          state:
            request.token === SANDBOX_WALLET_TOKENS.ok
              ? { kind: "authorised" }
              : { kind: "declined", failure: request.token === SANDBOX_WALLET_TOKENS.decline ? "declined" : "error" },
        })),
      );
    },

    returnedReference(query) {
      const reference = query.get("reference");
      return reference && reference.startsWith(`${prefix}_`) ? reference : null;
    },

    async continue(reference, _returned) {
      const payment = await byReference(reference);
      if (!payment) return { status: "declined", reference, failure: "error", brand: null, last4: null };
      // A step not yet answered is asked again; an answered one has already moved the payment on.
      return answer(payment);
    },

    async capture(reference, amount) {
      if (!Number.isInteger(amount) || amount <= 0) return { ok: false };
      // One conditional update: two servers capturing the same payment at once take it once.
      const ok = await changed(
        db
          .updateTable("sandbox_payments")
          .set({ captured: amount })
          .where("reference", "=", reference)
          .where("state", "=", "authorised")
          .where("voided", "=", 0)
          .where("captured", "=", 0)
          .where("amount", ">=", amount)
          .executeTakeFirst(),
      );
      return { ok };
    },

    async void(reference) {
      const payment = await byReference(reference);
      if (!payment) return { ok: false };
      if (payment.voided) return { ok: true };
      const authorised = await changed(
        db
          .updateTable("sandbox_payments")
          .set({ voided: 1 })
          .where("reference", "=", reference)
          .where("state", "=", "authorised")
          .where("captured", "=", 0)
          .executeTakeFirst(),
      );
      if (authorised) return { ok: true };
      // Given up while the buyer was at the bank or PayPal, or while the bank had not answered: it
      // can no longer be authorised.
      const waiting = await changed(
        db
          .updateTable("sandbox_payments")
          .set({ state: stateColumn({ kind: "declined", failure: "cancelled" }), voided: 1 })
          .where("reference", "=", reference)
          .where((eb) => eb.or([eb("state", "like", "awaiting:%"), eb("state", "=", "hanging")]))
          .executeTakeFirst(),
      );
      if (waiting) return { ok: true };
      // Another process voided it a moment ago.
      return { ok: (await byReference(reference))?.voided ?? false };
    },

    async refund(reference, amount, idempotencyKey) {
      if (!Number.isInteger(amount) || amount <= 0) return { ok: false };
      // One refund per key, as a provider keeps it: the key's row and the payment's refunded sum
      // change together or not at all, so a retry after a lost answer refunds nothing twice.
      return db.transaction().execute(async (trx) => {
        const seen = await trx
          .selectFrom("sandbox_refunds")
          .select(["reference", "amount"])
          .where("idempotency_key", "=", idempotencyKey)
          .executeTakeFirst();
        if (seen) return { ok: seen.reference === reference && seen.amount === amount };
        const refunded = await changed(
          trx
            .updateTable("sandbox_payments")
            .set((eb) => ({ refunded: eb("refunded", "+", amount) }))
            .where("reference", "=", reference)
            .where("captured", ">", 0)
            .where((eb) => eb(eb("refunded", "+", amount), "<=", eb.ref("captured")))
            .executeTakeFirst(),
        );
        if (!refunded) return { ok: false };
        await trx
          .insertInto("sandbox_refunds")
          .values({ idempotency_key: idempotencyKey, reference, amount, created_at: clock.now().toISOString() })
          .execute();
        return { ok: true };
      });
    },

    async status(idempotencyKey, reference) {
      const payment = reference ? await byReference(reference) : await byKey(idempotencyKey);
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
      const payment = await byKey(idempotencyKey);
      if (!payment || payment.reference !== reference) return null;
      // The sandbox's notifications are about a payment's state, not events: the same state twice
      // is applied twice harmlessly, so there is no event id to remember.
      return { eventId: null, idempotencyKey, result: await gateway.status(idempotencyKey) };
    },

    async step(reference, kind) {
      const payment = await byReference(reference);
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
      return answerStep(reference, "deviceData", (payment) => ({
        state: { kind: "awaiting", step: "challenge" },
        asked: [...payment.asked, "challenge"],
      }));
    },

    completeChallenge(reference, passed) {
      return answerStep(reference, "challenge", () => ({
        state: passed ? { kind: "authorised" } : { kind: "declined", failure: "challengeFailed" },
      }));
    },

    decidePayPal(reference, approve) {
      return answerStep(reference, "approval", (payment) =>
        approve
          ? { state: { kind: "authorised" } }
          : { state: { kind: "declined", failure: "cancelled" }, exitUrl: payment.cancelUrl },
      );
    },

    get charges() {
      return charges;
    },

    async snapshot() {
      const rows = await db.selectFrom("sandbox_payments").selectAll().orderBy("created_at").execute();
      return rows.map((row) => {
        // What the dashboard shows: not where the buyer is sent, and the state as stored.
        const {
          returnUrl: _return,
          cancelUrl: _cancel,
          asked: _asked,
          exitUrl: _exit,
          state: _state,
          ...record
        } = fromRow(row);
        return { ...record, state: row.state };
      });
    },
  };
  return gateway;
}
