// The domain's events an operator counts (app/monitoring/metrics.server.ts turns them into
// Prometheus counters). Kept apart from prom-client so the domain names its events without
// depending on how they are exported.

export type OrderEvent = "placed" | "paid" | "failed" | "cancelled" | "refunded";
export type HoldEvent = "made" | "expired";
export type ReconcilerAction = "settled" | "finished" | "cancelledStalled";

/** The counters the domain moves, as the domain names its events. */
export interface Counted {
  order(event: OrderEvent): void;
  holds(event: HoldEvent, count?: number): void;
  /** One answer from the payment provider (or its failure to answer) to a call about a payment. */
  paymentAttempt(provider: string, outcome: string): void;
  reconciled(action: ReconcilerAction): void;
}

/** Nothing counted: for the engine's own tests and scripts that have no /metrics. */
export const UNCOUNTED: Counted = { order() {}, holds() {}, paymentAttempt() {}, reconciled() {} };
