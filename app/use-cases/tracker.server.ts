import type { AppLoadContext } from "@remix-run/node";
import type { Logger } from "pino";
import type { ClientEvent, EventProperties, TrackedEventName } from "~/views/events";

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

/**
 * Records one of the spec's tracked events (structured log, or whatever sink the tracker has) and
 * returns it as the page's data layer will see it. A loader returns the events in its data; an
 * action that redirects hands them on with `flashEvents`.
 */
export function track(context: AppLoadContext, name: TrackedEventName, properties: EventProperties = {}): ClientEvent {
  context.tracker.track({ name, properties }, context.logger);
  return { ...properties, event: name };
}
