import type { AppLoadContext } from "@remix-run/node";
import { isTrackedEventName, type ClientEvent } from "~/views/events";

// Routes take `track` from here with the flash cookie's helpers: every .server module a route
// imports becomes an empty chunk in the browser's first load (the payment page has 0.1 KB to spare).
export { track } from "~/use-cases/tracker.server";

const MAX_FLASHED = 20;

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
