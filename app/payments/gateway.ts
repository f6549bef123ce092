import type { CardBrand, CardDetails } from "~/forms/checkout/card-types";

// The seam between the checkout and whoever takes the money. The checkout only ever talks to a
// PaymentGateway; the built-in sandbox (sandbox.server.ts) is one, and a real provider's adapter is
// another (README, "Taking real payments"). Card data passes through `authorise` once and is never
// stored or logged on our side: only the brand and the last four digits come back.

/**
 * A step the buyer must take at the gateway before it can answer: a page reached by a form POST
 * (device data collection, the 3-D Secure challenge) or a redirect (PayPal approval). The gateway
 * sends the buyer back to the return URL it was given, with the fields `continue` must see.
 */
export interface GatewayAction {
  kind: "deviceData" | "challenge" | "approval";
  url: string;
  method: "GET" | "POST";
  fields: Record<string, string>;
}

export type PaymentFailure =
  | "declined"
  | "insufficientFunds"
  | "challengeFailed"
  | "cancelled"
  | "brandNotAccepted"
  | "error";

export type GatewayResult =
  | { status: "authorised"; reference: string; brand: string | null; last4: string | null }
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

export interface PaymentRequest {
  /** The same key always means the same payment: a repeat returns the first answer, never a second charge. */
  idempotencyKey: string;
  /** Minor units. */
  amount: number;
  currency: string;
  description: string;
  /** Where the gateway sends the buyer back after a step of theirs (our /checkout/verify). */
  returnUrl: string;
}

export interface PaymentGateway {
  readonly name: string;
  /** Card brands this gateway can take. */
  readonly cardBrands: readonly CardBrand[];
  /** Authorises a card payment (not yet captured). May ask for device data or a challenge first. */
  authorise(request: PaymentRequest & { card: CardDetails }): Promise<GatewayResult>;
  /** Starts a PayPal payment: the answer is an approval step for the buyer. */
  startPayPal(request: PaymentRequest & { cancelUrl: string }): Promise<GatewayResult>;
  /** A wallet payment (Google Pay, Apple Pay) from the token the browser's wallet gave. */
  authoriseWallet(
    request: PaymentRequest & { wallet: "googlePay" | "applePay"; token: string },
  ): Promise<GatewayResult>;
  /** The buyer came back from a step: the fields the gateway sent back with them. */
  continue(reference: string, returned: Record<string, string>): Promise<GatewayResult>;
  capture(reference: string, amount: number): Promise<{ ok: boolean }>;
  /** Gives back an authorisation that will not be captured. Harmless on one already voided. */
  void(reference: string): Promise<{ ok: boolean }>;
  refund(reference: string, amount: number): Promise<{ ok: boolean }>;
  /** What the gateway knows of a payment, by the idempotency key it was sent with. */
  status(idempotencyKey: string): Promise<GatewayResult>;
  /**
   * Reads an asynchronous notification (webhook) from the gateway; null when it is not one of
   * ours or its signature does not check out.
   */
  parseNotification(body: string, headers: Headers): Promise<{ idempotencyKey: string; result: GatewayResult } | null>;
}
