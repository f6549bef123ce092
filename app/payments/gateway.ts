import type { CardBrand, CardDetails } from "~/forms/checkout/card-types";

// The seam between the checkout and whoever takes the money. The checkout only ever talks to a
// PaymentGateway: the built-in sandbox (sandbox.server.ts), Stripe (stripe.server.ts), PayPal
// (paypal.server.ts), or cards from one and PayPal from another (combined.server.ts); docs/buying.md,
// "Taking real payments". Card data passes through `authorise` once and is never stored or logged
// on our side: only the brand and the last four digits come back.

/**
 * A step the buyer must take at the gateway before it can answer: a page reached by a form POST
 * (device data collection, the 3-D Secure challenge) or a redirect (PayPal approval, a provider's
 * hosted card page). The gateway sends the buyer back to the return URL it was given, with the
 * fields `continue` must see and the reference `returnedReference` finds among them.
 */
export interface GatewayAction {
  kind: "deviceData" | "challenge" | "approval" | "hostedPage";
  url: string;
  method: "GET" | "POST";
  fields: Record<string, string>;
}

export type PaymentFailure = "declined" | "insufficientFunds" | "challengeFailed" | "cancelled" | "error";

export type GatewayResult =
  | {
      status: "authorised";
      reference: string;
      /**
       * The card's brand as the provider names it ("visa", "discover"…), null when it did not say;
       * the payment service checks it against the brands the payment may use.
       */
      brand: string | null;
      last4: string | null;
      /** What was authorised, in minor units and ISO currency, where the provider says: checked against what was asked. */
      amount: number | null;
      currency: string | null;
    }
  | { status: "actionRequired"; reference: string; action: GatewayAction; brand: string | null; last4: string | null }
  | {
      status: "declined";
      reference: string | null;
      failure: PaymentFailure;
      brand: string | null;
      last4: string | null;
    }
  /** The gateway has the request but no answer yet (status only). */
  | { status: "pending"; reference: string | null }
  /** The gateway has never seen this idempotency key (status only). */
  | { status: "unknown" };

/** What the payment page may offer with this gateway. */
export interface GatewayOffers {
  /**
   * Where the buyer types their card: on our payment page (`onSite`, works without script; the
   * deployment is in PCI DSS SAQ D scope) or on the provider's own page (`hosted`, SAQ A; the
   * provider's page may need script).
   */
  cardEntry: "onSite" | "hosted";
  paypal: boolean;
  /** Google Pay and Apple Pay tokens this gateway can take (with script, where the deployment registered). */
  wallets: boolean;
}

export interface PaymentRequest {
  /** The same key always means the same payment: a repeat returns the first answer, never a second charge. */
  idempotencyKey: string;
  /** Minor units. */
  amount: number;
  currency: string;
  description: string;
  /**
   * Where the gateway sends the buyer back after a step of theirs: our /checkout/verify, as a path.
   * A provider on another site makes it absolute with the deployment's PUBLIC_URL.
   */
  returnUrl: string;
  /** The order's number, for the provider's records (Stripe's metadata, PayPal's invoice id). */
  orderNumber?: string;
  /**
   * The card brands this payment may be made with (sponsored-partner seats take American Express
   * only); unset, any of the gateway's `cardBrands`. A provider's own card page is told, so it can
   * refuse the others before authorising; what it authorised anyway the payment service refuses.
   */
  acceptedBrands?: readonly CardBrand[];
}

export interface PaymentGateway {
  readonly name: string;
  /** Card brands this gateway can take. */
  readonly cardBrands: readonly CardBrand[];
  readonly offers: GatewayOffers;
  /** Authorises a card payment (not yet captured). May ask for device data or a challenge first. */
  authorise(request: PaymentRequest & { card: CardDetails }): Promise<GatewayResult>;
  /**
   * Starts a card payment on the provider's own page (`offers.cardEntry === "hosted"`): the answer
   * is a `hostedPage` step for the buyer, who comes back to the return URL (or the cancel URL).
   */
  startHostedCard(request: PaymentRequest & { cancelUrl: string }): Promise<GatewayResult>;
  /** Starts a PayPal payment: the answer is an approval step for the buyer. */
  startPayPal(request: PaymentRequest & { cancelUrl: string }): Promise<GatewayResult>;
  /** A wallet payment (Google Pay, Apple Pay) from the token the browser's wallet gave. */
  authoriseWallet(
    request: PaymentRequest & { wallet: "googlePay" | "applePay"; token: string },
  ): Promise<GatewayResult>;
  /**
   * The payment a buyer coming back to the return URL is coming back from, from the query the
   * gateway added (the sandbox's `reference`, Stripe's `payment_intent` or `session_id`, PayPal's
   * `token`); null when the query is not this gateway's. Only names the payment: its outcome is
   * always asked of the gateway (`continue`), never read from the query.
   */
  returnedReference(query: URLSearchParams): string | null;
  /** The buyer came back from a step: the fields the gateway sent back with them. */
  continue(reference: string, returned: Record<string, string>): Promise<GatewayResult>;
  capture(reference: string, amount: number): Promise<{ ok: boolean }>;
  /** Gives back an authorisation that will not be captured. Harmless on one already voided. */
  void(reference: string): Promise<{ ok: boolean }>;
  /**
   * Gives back `amount` of a captured payment. The same idempotency key is the same refund: a
   * repeat (a retried command) answers ok without refunding twice.
   */
  refund(reference: string, amount: number, idempotencyKey: string): Promise<{ ok: boolean }>;
  /**
   * What the gateway knows of a payment: by its reference when the first answer gave one, else by
   * the idempotency key it was sent with (the call's answer never came).
   */
  status(idempotencyKey: string, reference?: string | null): Promise<GatewayResult>;
  /**
   * Reads an asynchronous notification (webhook) from the gateway; null when it is not one of
   * ours or its signature does not check out. `eventId` is the gateway's id for the notification,
   * so one delivered twice is applied once.
   */
  parseNotification(
    body: string,
    headers: Headers,
  ): Promise<{ eventId: string | null; idempotencyKey: string; result: GatewayResult } | null>;
}
