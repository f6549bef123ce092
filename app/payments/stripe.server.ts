import Stripe from "stripe";
import type { CardBrand } from "~/forms/checkout/card-types";
import type { GatewayResult, PaymentFailure, PaymentGateway, PaymentRequest } from "./gateway";

// Stripe behind the gateway seam, through the official SDK. A payment is a PaymentIntent with
// manual capture: authorised when Stripe answers, captured only once the seats are sold
// (use-cases/pay.server.ts). Cards are taken one of two ways, chosen per deployment:
//
// - `direct`: the card typed on our own page is sent once to Stripe (`payment_method_data`). This
//   needs Stripe to have enabled raw card data for the account and keeps the deployment in PCI DSS
//   SAQ D scope; the SDK's typings leave those card fields out for that reason.
// - `hosted`: the buyer types it on Stripe Checkout, which we create per payment; we never see it.
//
// Outcomes are always read from Stripe's own objects (a retrieve), never from what the buyer's
// browser carries back, and every call that makes something carries an idempotency key, so a
// retried call is the same payment. Errors that are Stripe refusing a card become declines; any
// other failure (network, timeout, 5xx, a bad key) is thrown, and the payment service records it.

export interface StripeGatewayOptions {
  secretKey: string;
  /** The endpoint secret (whsec_…) webhooks are signed with; without it no notification is accepted. */
  webhookSecret?: string;
  mode: "direct" | "hosted";
  /** The deployment's public origin (PUBLIC_URL): Stripe sends the buyer back to absolute URLs. */
  publicUrl: string;
  /** Another Stripe-compatible API (a local fake in tests), e.g. http://127.0.0.1:12111. */
  apiUrl?: string;
  /** Per request, before the SDK gives up on an answer (the SDK's default is 80 s). */
  timeoutMs?: number;
  /** Retries of a request that failed on the network or with a 409/5xx; each reuses its idempotency key. */
  maxNetworkRetries?: number;
}

export interface StripeGateway extends PaymentGateway {
  readonly name: "stripe";
}

const CARD_BRANDS: readonly CardBrand[] = ["visa", "mastercard", "amex"];

/** The brands Checkout's `brands_blocked` names, with ours where we take them. */
const CHECKOUT_BRANDS = [
  ["visa", "visa"],
  ["mastercard", "mastercard"],
  ["amex", "american_express"],
  [null, "discover_global_network"],
] as const satisfies readonly (readonly [CardBrand | null, string])[];

/** PaymentIntent states in which the money is held but not taken: cancelling gives it back. */
const CANCELABLE = ["requires_capture", "requires_action", "requires_payment_method", "requires_confirmation"];

/** Stripe object ids we answer for; anything else in a query is not ours (or not an id at all). */
const INTENT_ID = /^pi_[A-Za-z0-9_]+$/;
const SESSION_ID = /^cs_[A-Za-z0-9_]+$/;

/** Metadata key marking a PaymentIntent made by Checkout: its failed attempts are not final (the buyer may try another card there). */
const HOSTED_MARK = "card_entry";

type Intent = Stripe.PaymentIntent;
type Card = { brand: string | null; last4: string | null };

const NO_CARD: Card = { brand: null, last4: null };

/**
 * The card's brand as Stripe names it, ours or not ("discover", "jcb"…): the payment service
 * refuses a brand the payment may not use. Stripe's "unknown" is no brand at all.
 */
function cardOf(method: string | Stripe.PaymentMethod | null | undefined): Card {
  if (!method || typeof method === "string" || !method.card) return NO_CARD;
  const brand = method.card.brand && method.card.brand !== "unknown" ? method.card.brand : null;
  return { brand, last4: method.card.last4 ?? null };
}

/** A decline code or error code, as Stripe reports them, in the checkout's words. */
export function failureOf(code: string | null | undefined, declineCode: string | null | undefined): PaymentFailure {
  if (declineCode === "insufficient_funds" || code === "insufficient_funds") return "insufficientFunds";
  if (code === "payment_intent_authentication_failure") return "challengeFailed";
  // card_declined, expired_card, incorrect_cvc, incorrect_number, processing_error and the rest:
  // the buyer can only try another card.
  return "declined";
}

/** Stripe said no to the request itself (a 4xx): not a network failure, nothing worth retrying. */
const isRefusal = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError ||
  error instanceof Stripe.errors.StripeCardError ||
  error instanceof Stripe.errors.StripeIdempotencyError;

const isMissing = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404;

function declined(reference: string | null, failure: PaymentFailure, card: Card = NO_CARD): GatewayResult {
  return { status: "declined", reference, failure, ...card };
}

/** Whatever the buyer is doing on Stripe's pages, outcomes of a hosted payment wait for the session. */
const hostedIntent = (intent: Intent) => intent.metadata?.[HOSTED_MARK] === "hosted";

/**
 * Where a PaymentIntent stands, as `authorise` and `continue` report it. `succeeded` (captured
 * already) is still "authorised" to the checkout: the seats were paid for either way.
 */
export function resultOfIntent(intent: Intent, card: Card = cardOf(intent.payment_method)): GatewayResult {
  const reference = intent.id;
  switch (intent.status) {
    case "requires_capture":
    case "succeeded":
      return {
        status: "authorised",
        reference,
        ...card,
        amount: intent.amount,
        currency: intent.currency.toUpperCase(),
      };
    case "requires_action": {
      const next = intent.next_action;
      if (next?.type === "redirect_to_url" && next.redirect_to_url?.url)
        return {
          status: "actionRequired",
          reference,
          action: { kind: "challenge", url: next.redirect_to_url.url, method: "GET", fields: {} },
          ...card,
        };
      // Every step but a redirect needs Stripe.js on our page, which the checkout does not load:
      // the buyer cannot finish it.
      return declined(reference, "error", card);
    }
    case "processing":
    case "requires_confirmation":
      return { status: "pending", reference };
    case "requires_payment_method": {
      const error = intent.last_payment_error;
      // Not tried yet, or a failed try on Checkout's page, where the buyer may still pay.
      if (!error || hostedIntent(intent)) return { status: "pending", reference };
      return declined(
        reference,
        failureOf(error.code, error.decline_code),
        card.last4 ? card : cardOf(error.payment_method),
      );
    }
    case "canceled":
      return declined(reference, "cancelled", card);
    default:
      // A state newer than this adapter: asked again later rather than guessed at.
      return { status: "pending", reference };
  }
}

export function createStripeGateway(options: StripeGatewayOptions): StripeGateway {
  const { mode, webhookSecret } = options;
  const api = options.apiUrl ? new URL(options.apiUrl) : null;
  const stripe = new Stripe(options.secretKey, {
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === "http:" ? 80 : 443),
          protocol: api.protocol === "http:" ? "http" : "https",
        }
      : {}),
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    // Latency reports to Stripe about the previous request: nothing the checkout needs to send.
    telemetry: false,
    appInfo: { name: "box-office-checkout" },
  });
  const origin = new URL(options.publicUrl).origin;

  /**
   * Our own path made absolute on the deployment's public origin: Stripe sends buyers there, so
   * a return URL naming another site is brought back to ours.
   */
  function absolute(path: string): string {
    const url = new URL(path, origin);
    return `${origin}${url.pathname}${url.search}`;
  }

  /** `{CHECKOUT_SESSION_ID}` must reach Stripe as written (not percent-encoded): Checkout substitutes it. */
  function withSessionId(path: string): string {
    const url = absolute(path);
    return `${url}${url.includes("?") ? "&" : "?"}session_id={CHECKOUT_SESSION_ID}`;
  }

  /** Stripe's names of every card brand Checkout knows, less the ones this payment may use. */
  function blockedBrands(request: PaymentRequest) {
    const accepted = request.acceptedBrands ?? CARD_BRANDS;
    return CHECKOUT_BRANDS.filter(([ours]) => ours === null || !accepted.includes(ours)).map(([, theirs]) => theirs);
  }

  function metadataOf(request: PaymentRequest): Record<string, string> {
    return {
      idempotency_key: request.idempotencyKey,
      ...(request.orderNumber ? { order_number: request.orderNumber } : {}),
    };
  }

  const retrieveIntent = (id: string) => stripe.paymentIntents.retrieve(id, { expand: ["payment_method"] });
  const retrieveSession = (id: string) =>
    stripe.checkout.sessions.retrieve(id, { expand: ["payment_intent.payment_method"] });

  /** The session's PaymentIntent, retrieved with its card when the session answer did not carry it. */
  async function intentOfSession(session: Stripe.Checkout.Session): Promise<Intent | null> {
    const intent = session.payment_intent;
    if (!intent) return null;
    if (typeof intent === "string") return retrieveIntent(intent);
    return intent;
  }

  /** The PaymentIntent a reference names (directly, or through its Checkout Session); null when none. */
  async function intentIdOf(reference: string): Promise<string | null> {
    if (INTENT_ID.test(reference)) return reference;
    if (!SESSION_ID.test(reference)) return null;
    const session = await stripe.checkout.sessions.retrieve(reference);
    const intent = session.payment_intent;
    return typeof intent === "string" ? intent : (intent?.id ?? null);
  }

  /** Gives up an open Checkout Session; one completed meanwhile (another tab) is read instead. */
  async function expireSession(id: string): Promise<Stripe.Checkout.Session> {
    try {
      return await stripe.checkout.sessions.expire(id, {}, { idempotencyKey: `${id}:expire` });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      return retrieveSession(id);
    }
  }

  /** Where a Checkout Session stands; `waiting` answers for one still open. */
  async function resultOfSession(session: Stripe.Checkout.Session, waiting: () => Promise<GatewayResult>) {
    if (session.status === "complete") {
      const intent = await intentOfSession(session);
      return intent ? resultOfIntent(intent) : declined(session.id, "error");
    }
    if (session.status === "expired") return declined(session.id, "cancelled");
    return waiting();
  }

  /** A payment as Stripe holds it now; `onOpenSession` answers for a Checkout Session the buyer has not finished. */
  async function settle(reference: string, onOpenSession: (id: string) => Promise<GatewayResult>) {
    if (INTENT_ID.test(reference)) return resultOfIntent(await retrieveIntent(reference));
    if (SESSION_ID.test(reference))
      return resultOfSession(await retrieveSession(reference), () => onOpenSession(reference));
    return declined(reference, "error");
  }

  /** A card error thrown by the SDK (HTTP 402) as a decline; anything else is not ours to answer. */
  function fromCardError(error: unknown, typedLast4: string): GatewayResult {
    if (!(error instanceof Stripe.errors.StripeCardError)) throw error;
    const intent = error.payment_intent;
    const card = cardOf(error.payment_method ?? intent?.payment_method);
    return declined(intent?.id ?? null, failureOf(error.code, error.decline_code), {
      brand: card.brand,
      last4: card.last4 ?? (/^\d{4,}$/.test(typedLast4) ? typedLast4.slice(-4) : null),
    });
  }

  const notOffered = async (): Promise<GatewayResult> => declined(null, "error");

  const gateway: StripeGateway = {
    name: "stripe",
    cardBrands: CARD_BRANDS,
    offers: { cardEntry: mode === "direct" ? "onSite" : "hosted", paypal: false, wallets: false },

    async authorise(request) {
      // A hosted deployment has kept itself out of SAQ D scope by never handling card numbers:
      // it must not start sending them because a form asked.
      if (mode !== "direct") return declined(null, "error");
      const { card } = request;
      const digits = card.number.replace(/[\s-]/g, "");
      const params = {
        amount: request.amount,
        currency: request.currency.toLowerCase(),
        capture_method: "manual",
        confirm: true,
        payment_method_data: {
          type: "card",
          card: { number: digits, exp_month: card.expiryMonth, exp_year: card.expiryYear, cvc: card.cvv },
          billing_details: { name: card.holderName },
        },
        return_url: absolute(request.returnUrl),
        description: request.description,
        metadata: metadataOf(request),
        expand: ["payment_method"],
      } as unknown as Stripe.PaymentIntentCreateParams;
      // Stripe takes brands the checkout does not (Discover, JCB…), and seats may take fewer
      // (sponsored-partner seats): the answer says which brand it was, and the payment service
      // refuses and voids one the payment may not use, the same way on every path (the webhook
      // may bring this authorisation before this answer does).
      try {
        return resultOfIntent(await stripe.paymentIntents.create(params, { idempotencyKey: request.idempotencyKey }));
      } catch (error) {
        return fromCardError(error, digits);
      }
    },

    async startHostedCard(request) {
      const metadata = metadataOf(request);
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency.toLowerCase(),
                unit_amount: request.amount,
                product_data: { name: request.description },
              },
            },
          ],
          payment_intent_data: {
            capture_method: "manual",
            description: request.description,
            metadata: { ...metadata, [HOSTED_MARK]: "hosted" },
          },
          metadata,
          // Stripe's page refuses the brands this payment may not use (sponsored-partner seats).
          payment_method_options: { card: { restrictions: { brands_blocked: blockedBrands(request) } } },
          ...(request.orderNumber ? { client_reference_id: request.orderNumber } : {}),
          success_url: withSessionId(request.returnUrl),
          // Checkout fills in {CHECKOUT_SESSION_ID} on the success address only: the cancel
          // address names the payment in the caller's own words.
          cancel_url: absolute(request.cancelUrl),
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (!session.url) return declined(session.id, "error");
      return {
        status: "actionRequired",
        reference: session.id,
        action: { kind: "hostedPage", url: session.url, method: "GET", fields: {} },
        brand: null,
        last4: null,
      };
    },

    // Stripe can take PayPal and wallets too, but through Stripe.js on our page and a separate
    // approval per deployment; this gateway offers neither (offers.paypal/wallets are false), so
    // the checkout never asks, and a request that does is refused without reaching Stripe.
    startPayPal: notOffered,
    authoriseWallet: notOffered,

    returnedReference(query) {
      const intent = query.get("payment_intent");
      if (intent && INTENT_ID.test(intent)) return intent;
      const session = query.get("session_id");
      if (session && SESSION_ID.test(session)) return session;
      return null;
    },

    async continue(reference) {
      // Back through cancel_url with the session still open: the buyer gave up on Stripe's page.
      // Expiring it makes sure it cannot be paid later, behind an order already failed.
      return settle(reference, async (id) => {
        const session = await expireSession(id);
        return session.status === "expired"
          ? declined(id, "cancelled")
          : resultOfSession(session, async () => declined(id, "error"));
      });
    },

    async capture(reference, amount) {
      if (!Number.isInteger(amount) || amount <= 0) return { ok: false };
      try {
        const id = await intentIdOf(reference);
        if (!id) return { ok: false };
        // One key per PaymentIntent: a second capture, by this server or another, is answered
        // from the first (never captured twice). The replay is reported as not ok, like a second
        // capture anywhere else; the SDK's own retries are off here so a replay can only be a
        // second call, never this call's own lost answer.
        const intent = await stripe.paymentIntents.capture(
          id,
          { amount_to_capture: amount },
          { idempotencyKey: `${id}:capture`, maxNetworkRetries: 0 },
        );
        const replayed = intent.lastResponse?.headers?.["idempotent-replayed"] === "true";
        return { ok: intent.status === "succeeded" && !replayed };
      } catch (error) {
        if (isRefusal(error)) return { ok: false };
        throw error;
      }
    },

    async void(reference) {
      try {
        if (SESSION_ID.test(reference)) {
          const session = await stripe.checkout.sessions.retrieve(reference);
          if (session.status === "open") {
            const after = await expireSession(reference);
            if (after.status === "expired") return { ok: true };
          } else if (session.status === "expired") return { ok: true };
        }
        const id = await intentIdOf(reference);
        if (!id) return { ok: false };
        const intent = await stripe.paymentIntents.retrieve(id);
        if (intent.status === "canceled") return { ok: true };
        if (!CANCELABLE.includes(intent.status)) return { ok: false };
        const cancelled = await stripe.paymentIntents.cancel(id, {}, { idempotencyKey: `${id}:cancel` });
        return { ok: cancelled.status === "canceled" };
      } catch (error) {
        if (!isRefusal(error)) throw error;
        // Refused because it moved on meanwhile: cancelled by someone else is still a void.
        const id = await intentIdOf(reference).catch(() => null);
        const now = id ? await stripe.paymentIntents.retrieve(id).catch(() => null) : null;
        return { ok: now?.status === "canceled" };
      }
    },

    async refund(reference, amount, idempotencyKey) {
      if (!Number.isInteger(amount) || amount <= 0) return { ok: false };
      try {
        const id = await intentIdOf(reference);
        if (!id) return { ok: false };
        // The caller's key is the refund's: a repeat is answered with the first refund, not a second.
        const refund = await stripe.refunds.create({ payment_intent: id, amount }, { idempotencyKey });
        return { ok: refund.status === "succeeded" || refund.status === "pending" };
      } catch (error) {
        if (isRefusal(error)) return { ok: false };
        throw error;
      }
    },

    async status(idempotencyKey, reference) {
      if (reference) {
        try {
          const result = await settle(reference, async (id) => ({ status: "pending", reference: id }));
          // A step still waiting on the buyer is, to the reconciler, a payment without an answer.
          return result.status === "actionRequired" ? { status: "pending", reference: result.reference } : result;
        } catch (error) {
          if (isMissing(error)) return { status: "unknown" };
          throw error;
        }
      }
      // Only the key: the call's answer never came. Stripe's search can lag writes by up to a
      // minute; the reconciler asks minutes after Pay, by which time it has caught up.
      const escaped = idempotencyKey.replace(/\\/g, "\\\\").replace(/'/g, "\\'");
      const found = await stripe.paymentIntents.search({
        query: `metadata['idempotency_key']:'${escaped}'`,
        expand: ["data.payment_method"],
        limit: 10,
      });
      const intent = found.data[0];
      if (!intent) return { status: "unknown" };
      const result = resultOfIntent(intent);
      return result.status === "actionRequired" ? { status: "pending", reference: result.reference } : result;
    },

    async parseNotification(body, headers) {
      const signature = headers.get("stripe-signature");
      if (!webhookSecret || !signature) return null;
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(body, signature, webhookSecret);
      } catch {
        return null;
      }
      const ignored = { eventId: event.id, idempotencyKey: "", result: { status: "unknown" } as GatewayResult };
      switch (event.type) {
        case "payment_intent.amount_capturable_updated":
        case "payment_intent.succeeded":
        case "payment_intent.payment_failed":
        case "payment_intent.canceled": {
          const intent = event.data.object;
          const idempotencyKey = intent.metadata?.idempotency_key;
          if (!idempotencyKey) return ignored;
          // The event's object carries the PaymentMethod's id only; its card is read for the
          // brand the payment service checks. If Stripe cannot be asked just now this throws, so
          // the notification is answered 5xx and comes again, rather than being judged without it.
          const method = intent.payment_method;
          const card =
            typeof method === "string" ? cardOf(await stripe.paymentMethods.retrieve(method)) : cardOf(method);
          const result = resultOfIntent(intent, card);
          // Pending covers a failed try on Checkout's page: the session's own events decide.
          if (result.status === "pending") return ignored;
          return { eventId: event.id, idempotencyKey, result };
        }
        case "checkout.session.completed":
        case "checkout.session.expired": {
          const session = event.data.object;
          const idempotencyKey = session.metadata?.idempotency_key;
          if (!idempotencyKey) return ignored;
          const result =
            event.type === "checkout.session.expired"
              ? declined(session.id, "cancelled")
              : await resultOfSession(session, async () => ({ status: "unknown" }));
          return { eventId: event.id, idempotencyKey, result };
        }
        default:
          return ignored;
      }
    },
  };
  return gateway;
}
