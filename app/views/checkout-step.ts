import type { SummaryView } from "./summary";

// What every checkout step's page receives beside its own data.

/** What every step's loader returns beside its own data (stepFrame in web/checkout-flow.server.ts). */
export interface StepFrame {
  steps: { name: string; done: boolean }[];
  summary: SummaryView;
  priceChanged: boolean;
  holdExpired: boolean;
}
