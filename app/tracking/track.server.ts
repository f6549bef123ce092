import type { AppLoadContext } from "@remix-run/node";
import { isTrackedEventName, type ClientEvent, type EventProperties, type TrackedEventName } from "./events";

const MAX_FLASHED = 20;

/**
 * Records one of the spec's tracked events (structured log, or whatever sink the tracker has) and
 * returns it as the page's data layer will see it. A loader returns the events in its data; an
 * action that redirects hands them on with `flashEvents`.
 */
export function track(context: AppLoadContext, name: TrackedEventName, properties: EventProperties = {}): ClientEvent {
  context.tracker.track({ name, properties }, context.logger);
  return { ...properties, event: name };
}

/** Keeps events for the page the buyer lands on after a redirect (appends a Set-Cookie header). */
export async function flashEvents(context: AppLoadContext, headers: Headers, events: ClientEvent[]) {
  if (events.length === 0) return;
  headers.append("Set-Cookie", await context.sessions.eventsCookie.serialize(events.slice(-MAX_FLASHED)));
}

/** The events flashed by the last action, and the header that clears them (root loader only). */
export async function takeFlashedEvents(
  request: Request,
  context: AppLoadContext,
): Promise<{ events: ClientEvent[]; clear?: string }> {
  const value: unknown = await context.sessions.eventsCookie.parse(request.headers.get("Cookie"));
  if (!Array.isArray(value)) return { events: [] };
  const events = value.filter(
    (candidate): candidate is ClientEvent =>
      typeof candidate === "object" && candidate !== null && isTrackedEventName((candidate as ClientEvent).event),
  );
  return { events, clear: await context.sessions.eventsCookie.serialize("", { maxAge: 0 }) };
}
