import type { OrderPayment } from "~/ticketing/orders.server";
import type { GatewayAction } from "./gateway";

// Where an order's payment stands, in the domain's own words: the payment service works it out
// from the attempts it wrote down, and the checkout's table (ticketing/checkout-steps.ts) gives
// each state its page. Here rather than in the service so the domain reads it without reaching up.

export type PaymentFailureReason =
  | "declined"
  | "insufficientFunds"
  | "challengeFailed"
  | "cancelled"
  | "brandNotAccepted"
  /** A card brand rule applies and the provider did not say which brand the card is. */
  | "brandUnknown"
  /** The provider authorised another amount or currency than the attempt asked for. */
  | "amountMismatch"
  | "holdExpired"
  | "timeout"
  | "error";

/** Where an order's payment stands, as the verify page shows it. */
export type PaymentState =
  | { kind: "none" }
  | { kind: "processing"; startedAt: string; method: OrderPayment["method"] }
  | { kind: "action"; action: GatewayAction; method: OrderPayment["method"] }
  | { kind: "paid" }
  | {
      kind: "failed";
      failure: PaymentFailureReason;
      method: OrderPayment["method"];
      /** With `brandNotAccepted`: the card brands the payment could have been made with, for its message. */
      acceptedBrands?: readonly string[];
    }
  | { kind: "timedOut"; method: OrderPayment["method"] };
