import type { Logger } from "pino";

// The spec's tracked events (request / success / failure of fetches, reservations, payments,
// promo outcomes, experiment exposures). Recorded as structured log lines for now; a store-backed
// tracker can replace this behind the same interface.
export interface TrackedEvent {
  name: string;
  visitorId?: string;
  properties?: Record<string, string | number | boolean>;
}

export interface Tracker {
  track(event: TrackedEvent, logger?: Logger): void;
}

export function createLogTracker(base: Logger): Tracker {
  return {
    track(event, logger = base) {
      logger.info({ event: event.name, visitorId: event.visitorId, ...event.properties }, "tracked event");
    },
  };
}
