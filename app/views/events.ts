// The spec's tracked events (section 4), named once. Server code records them through
// track.server.ts; with script, the same events are pushed to window.dataLayer. Properties are
// ids, counts and outcome keys only: never a name, an email, a code the buyer typed, or a card.

export const PHASES = ["request", "success", "failure"] as const;
export type Phase = (typeof PHASES)[number];

/** Things that are asked for and then succeed or fail. */
export const PHASED_EVENTS = [
  "fetchShow",
  "fetchQueue",
  "fetchSeats",
  "fetchAdmissions",
  "fetchCalendar",
  "fetchPaymentMethods",
  "fetchVouchers",
  "fetchUpsells",
  "reserveSeats",
  "releaseSeats",
  "selectTickets",
  "removeTickets",
  "updateTicketPrice",
  "makePayment",
] as const;

/** Things that simply happen. */
export const SINGLE_EVENTS = [
  "toggleSeat",
  "toggleSponsoredSeat",
  "seatFinderEngaged",
  "seatFinderReset",
  "ticketProtectionSet",
  "promoDeeplinkError",
  "promoManualError",
  "promoSingleUseError",
  "promoSuccess",
  "promoClear",
  "cappingError",
  "priceChangeAcknowledged",
  "performanceNoticeAcknowledged",
  "admissionMessageAcknowledged",
  "holdExtended",
  "holdExpired",
  "paymentDeviceDataRedirect",
  "paymentChallengeRedirect",
  "paymentRequestSent",
  "paymentAborted",
  "paymentRetryAlert",
] as const;

export type PhasedEvent = (typeof PHASED_EVENTS)[number];
export type SingleEvent = (typeof SINGLE_EVENTS)[number];
export type TrackedEventName = `${PhasedEvent}.${Phase}` | SingleEvent;

export type EventProperties = Record<string, string | number | boolean>;

/** An event as it is pushed to window.dataLayer. */
export interface ClientEvent {
  event: TrackedEventName;
  [property: string]: string | number | boolean;
}

const NAMES = new Set<string>([
  ...PHASED_EVENTS.flatMap((name) => PHASES.map((phase) => `${name}.${phase}`)),
  ...SINGLE_EVENTS,
]);

export function isTrackedEventName(value: unknown): value is TrackedEventName {
  return typeof value === "string" && NAMES.has(value);
}

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

/** With script: hands events to the page's data layer (tag managers read it). */
export function pushToDataLayer(events: readonly ClientEvent[] | undefined) {
  if (!events?.length || typeof window === "undefined") return;
  window.dataLayer = window.dataLayer ?? [];
  for (const event of events) window.dataLayer.push({ ...event });
}
