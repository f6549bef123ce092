import { randomUUID } from "node:crypto";
import { redirect, redirectDocument, type AppLoadContext } from "@remix-run/node";
import { calendarPath } from "~/urls/paths";
import { safeReturnPath } from "~/urls/return-path";
import type { Pass } from "~/ticketing/waiting-room.server";
import { basketCookieHeader } from "./buyer.server";

// The waiting room as the site meets it: the tickets page (its loader and its actions) asks
// `admitOrQueue` first; a buyer whose turn has not come is sent to /waiting-room, which keeps their
// place, refreshes itself and sends them back when they are let in. A place belongs to the
// session's visitor id (in the signed, HttpOnly session cookie): a copied link carries nothing of
// it, and a place is never given to a second session. The ways there are whole-page redirects
// (`redirectDocument`): the waiting page is not a Remix page (decision 0051), so a navigation with
// script must load it as a document.

export const WAITING_ROOM_PATH = "/waiting-room";
/** Set on the waiting room's own redirect after it gave the session a visitor id: a cookie was just sent. */
const COOKIE_SENT = { name: "c", value: "1" } as const;
const COOKIE_SENT_PARAM = { [COOKIE_SENT.name]: COOKIE_SENT.value };
/** ?refresh=off: the buyer asked the page to stop reloading itself (WCAG 2.2.1, as on /checkout/verify). */
export const REFRESH_OFF = { name: "refresh", value: "off" } as const;
/** How often the waiting page asks again: sooner near the front, at most every few seconds. */
const REFRESH_SECONDS = { least: 3, most: 30, unknown: 10 };

export function waitingRoomHref(performanceId: string, back: string, extra: Record<string, string> = {}) {
  return `${WAITING_ROOM_PATH}?${new URLSearchParams({ performance: performanceId, to: back, ...extra }).toString()}`;
}

/** Claims a basket for an admitted place that has none yet: the basket it owns after (another client's, if one won). */
export type BasketClaim = (candidate: string) => Promise<string | null>;

/**
 * Returns when this buyer may choose seats for the performance now; otherwise throws the way to
 * the waiting room, where they keep (or take) their place. A buyer who already holds seats there
 * goes straight on: the seats are theirs until the hold ends. `back` is the page to return to.
 *
 * One place, one basket (issue 41, decision 0044): an admitted place holds seats in one basket
 * only, the first one it claims (the basket it brings, or the one made for its first hold: the
 * returned claim, for `ensureBasket`). Another client presenting the same session (copied cookies)
 * is handed that basket (a redirect setting its cookie) before it may choose anything, so it can
 * never start a second hold, and the performance's ticket limit is the place's.
 */
export async function admitOrQueue(
  request: Request,
  context: AppLoadContext,
  performanceId: string,
  { back, holdsSeats, basketId }: { back: string; holdsSeats: boolean; basketId: string | null },
): Promise<BasketClaim | null> {
  const rule = await context.waitingRoom.ruleFor(performanceId);
  if (!rule || holdsSeats) return null;
  const session = await context.sessions.getSession(request);
  const visitorId: string | undefined = session.get("visitorId");
  // A first visit during an on-sale: the visitor id is given here, with the redirect, so a buyer
  // on a slow phone (and the server, in the rush) spends one round trip fewer before their place.
  if (!visitorId) throw await withNewVisitor(context, session, waitingRoomHref(performanceId, back, COOKIE_SENT_PARAM));
  const pass = await context.waitingRoom.pass(rule, visitorId, context.clientAddress);
  if (!pass.admitted) throw redirectDocument(waitingRoomHref(performanceId, back));
  const claim: BasketClaim = (candidate) => context.waitingRoom.claimBasket(rule, visitorId, candidate);
  // No basket on either side yet: the first hold makes one and claims it then.
  if (pass.basketId === null && basketId === null) return claim;
  const owned = pass.basketId ?? (await claim(basketId!));
  if (owned === basketId) return null;
  // A place let go between the pass and the claim (it lapsed, or its buyer paid): back in line.
  if (owned === null) throw redirectDocument(waitingRoomHref(performanceId, back));
  throw redirect(back, { status: 303, headers: { "Set-Cookie": await basketCookieHeader(context, owned) } });
}

type Session = Awaited<ReturnType<AppLoadContext["sessions"]["getSession"]>>;

/** The session given a visitor id (its place in any queue is theirs by it), and on to `to`. */
async function withNewVisitor(context: AppLoadContext, session: Session, to: string) {
  session.set("visitorId", randomUUID());
  return redirectDocument(to, { headers: { "Set-Cookie": await context.sessions.commitSession(session) } });
}

export type WaitingView =
  | { kind: "noCookies"; retryHref: string }
  /** Too many new places from this address or session lately: answered 429 with Retry-After. */
  | { kind: "tooManyJoins"; retryAfterSeconds: number; retryHref: string }
  | {
      kind: "waiting";
      place: number;
      waiting: number;
      estimatedWaitSeconds: number | null;
      /** Every place is sold or held now; some may come back. */
      soldOut: boolean;
      otherDatesHref: string;
      refreshSeconds: number;
      autoRefresh: boolean;
      checkHref: string;
      toggleRefreshHref: string;
    }
  | {
      kind: "preQueue";
      waiting: number;
      opensAt: string;
      /** The venue's, to say the opening time as its buyers read it. */
      timeZone: string;
      refreshSeconds: number;
      autoRefresh: boolean;
      checkHref: string;
      toggleRefreshHref: string;
    };

function refreshFor(pass: Exclude<Pass, { admitted: true } | { refused: string }>, now: Date): number {
  const seconds = pass.preQueue
    ? (new Date(pass.opensAt).getTime() - now.getTime()) / 1000
    : pass.estimatedWaitSeconds === null
      ? REFRESH_SECONDS.unknown
      : pass.estimatedWaitSeconds / 10;
  return Math.round(Math.min(REFRESH_SECONDS.most, Math.max(REFRESH_SECONDS.least, seconds)));
}

/**
 * The waiting room's answer for this request: on to the page the buyer came from when their turn
 * has come (or there is no queue), or the page to wait on. A session without a visitor id gets one
 * first (one redirect); one that still has none after that refuses cookies, and is told so.
 */
export async function waitingRoomVisit(
  request: Request,
  context: AppLoadContext,
): Promise<{ redirectTo: string; headers?: Headers } | { view: WaitingView }> {
  const url = new URL(request.url);
  const performanceId = url.searchParams.get("performance") ?? "";
  const id = performanceId.toUpperCase();
  const back = safeReturnPath(url.searchParams.get("to"));
  const rule = await context.waitingRoom.ruleFor(performanceId);
  const place = rule ? await context.catalogue.placeOfPerformance(id) : undefined;
  // No queue, or no such performance: the page asked for says what there is to say.
  if (!rule || !place) return { redirectTo: back };
  const session = await context.sessions.getSession(request);
  const visitorId = session.get("visitorId");
  if (!visitorId) {
    if (url.searchParams.get(COOKIE_SENT.name) === COOKIE_SENT.value)
      return { view: { kind: "noCookies", retryHref: waitingRoomHref(performanceId, back) } };
    const sent = await withNewVisitor(context, session, waitingRoomHref(performanceId, back, COOKIE_SENT_PARAM));
    return {
      redirectTo: sent.headers.get("Location")!,
      headers: new Headers({ "Set-Cookie": sent.headers.get("Set-Cookie")! }),
    };
  }
  const pass = await context.waitingRoom.pass(rule, visitorId, context.clientAddress);
  if (pass.admitted) return { redirectTo: back };
  if ("refused" in pass)
    return {
      view: {
        kind: "tooManyJoins",
        retryAfterSeconds: pass.retryAfterSeconds,
        retryHref: waitingRoomHref(performanceId, back),
      },
    };
  const autoRefresh = url.searchParams.get(REFRESH_OFF.name) !== REFRESH_OFF.value;
  const links = {
    checkHref: waitingRoomHref(performanceId, back, autoRefresh ? {} : { [REFRESH_OFF.name]: REFRESH_OFF.value }),
    toggleRefreshHref: waitingRoomHref(
      performanceId,
      back,
      autoRefresh ? { [REFRESH_OFF.name]: REFRESH_OFF.value } : {},
    ),
  };
  const refreshSeconds = refreshFor(pass, context.clock.now());
  if (pass.preQueue)
    return {
      view: {
        kind: "preQueue",
        waiting: pass.waiting,
        opensAt: pass.opensAt,
        timeZone: place.time_zone,
        refreshSeconds,
        autoRefresh,
        ...links,
      },
    };
  // Every place taken (sold, or held by those let in): the buyer may keep waiting, since places
  // come back when others do not finish, or look at other dates.
  const soldOut = (await context.availability.summary([id])).get(id)?.level === "soldOut";
  return {
    view: {
      kind: "waiting",
      place: pass.place,
      waiting: pass.waiting,
      estimatedWaitSeconds: pass.estimatedWaitSeconds,
      soldOut,
      otherDatesHref: calendarPath(context.config.routingType, place.title_slug, place.venue_slug),
      refreshSeconds,
      autoRefresh,
      ...links,
    },
  };
}
