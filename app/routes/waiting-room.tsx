import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { track } from "~/web/track.server";
import { waitingRoomVisit } from "~/web/queue-gate.server";
import { WAITING_PAGE_QUERY } from "~/urls/waiting-page-query";
import { writeWaitingPage } from "./waiting-room.server";
import { performanceId as performanceIdParam } from "~/urls/params";

// /waiting-room: the buyer's place in the queue for a tickets page. Without script the page reloads
// itself every few seconds (a <meta> refresh, in a <noscript>) and has a link to stop that and a
// link to check now; with script it asks in the background and says what changed politely. When
// the buyer's turn comes, the loader sends them on to the page they asked for.
//
// A resource route: the page is written by ./waiting-room.server.tsx, not by Remix's
// document, because in an on-sale rush it is the page every arriving buyer asks for, again and
// again (decision 0051).

export const handle = { query: WAITING_PAGE_QUERY };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const performanceId = new URL(request.url).searchParams.get("performance") ?? "";
  const requested = track(context, "fetchQueue.request", { performanceId });
  let visit;
  try {
    visit = await waitingRoomVisit(request, context);
  } catch (error) {
    track(context, "fetchQueue.failure", { performanceId });
    throw error;
  }
  if ("redirectTo" in visit) throw redirect(visit.redirectTo, visit.headers ? { headers: visit.headers } : undefined);
  // Only a well-formed id is looked up: the catalogue keeps what it reads, by the id asked for.
  const supportPhone = performanceIdParam.safeParse(performanceId).success
    ? await context.catalogue.venuePhoneOfPerformance(performanceId.toUpperCase())
    : null;
  const { html, cookies } = await writeWaitingPage(request, context, visit.view, {
    supportPhone,
    wordingSet: context.i18n.wordingSetFor(context.config.venueSlug),
    trackedEvents: [requested, track(context, "fetchQueue.success", { performanceId })],
  });
  const headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  // Refused a place for now (issue 41): a 429 that says when to come back, for people and clients alike.
  if (visit.view.kind === "tooManyJoins") {
    headers.set("Retry-After", String(visit.view.retryAfterSeconds));
    return new Response(html, { status: 429, headers });
  }
  return new Response(html, { headers });
}
