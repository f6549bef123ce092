import { randomUUID } from "node:crypto";
import { redirect, redirectDocument, type AppLoadContext } from "@remix-run/node";
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
  if (!pass.admitted)
    throw await toWaitingRoom(context, rule.id, visitorId, pass, waitingRoomHref(performanceId, back));
  const claim: BasketClaim = (candidate) => context.waitingRoom.claimBasket(rule, visitorId, candidate);
  // No basket on either side yet: the first hold makes one and claims it then.
  if (pass.basketId === null && basketId === null) return claim;
  const owned = pass.basketId ?? (await claim(basketId!));
  if (owned === basketId) return null;
  // A place let go between the pass and the claim (it lapsed, or its buyer paid): back in line.
  if (owned === null) throw redirectDocument(waitingRoomHref(performanceId, back));
  throw redirect(back, { status: 303, headers: { "Set-Cookie": await basketCookieHeader(context, owned) } });
}

/**
 * The way to the waiting room for a visitor the gate has just placed in line (a place let go, or
 * none yet): with the cookie that tells the door where they stand, so the door need not ask.
 */
async function toWaitingRoom(
  context: AppLoadContext,
  room: string,
  visitor: string,
  pass: Exclude<Pass, { admitted: true }>,
  to: string,
) {
  if ("refused" in pass) return redirectDocument(to);
  const position = pass.preQueue ? null : pass.position;
  const cookie = await placeCookieHeader(context.sessions, {
    room,
    visitor,
    position,
    issuedAt: context.clock.now().getTime(),
  });
  return redirectDocument(to, { headers: { "Set-Cookie": cookie } });
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
  | ({
      kind: "waiting";
      place: number;
      waiting: number;
      estimatedWaitSeconds: number | null;
      /** Every place is sold or held now; some may come back. */
      soldOut: boolean;
      otherDatesHref: string;
    } & RefreshLinks)
  | ({
      kind: "preQueue";
      waiting: number;
      opensAt: string;
      /** The venue's, to say the opening time as its buyers read it. */
      timeZone: string;
    } & RefreshLinks);

/** How a waiting page asks again: by itself every few seconds, or when the buyer says. */
export interface RefreshLinks {
  refreshSeconds: number;
  autoRefresh: boolean;
  /** Where the page asks again: its <meta> refresh, its script and "Check my place". */
  checkHref: string;
  toggleRefreshHref: string;
}

/** Seconds until a waiting page asks again: sooner near the front, at most every few seconds. */
export function refreshSecondsFor(estimatedWaitSeconds: number | null): number {
  return refreshBetween(estimatedWaitSeconds === null ? REFRESH_SECONDS.unknown : estimatedWaitSeconds / 10);
}

const refreshBetween = (seconds: number) =>
  Math.round(Math.min(REFRESH_SECONDS.most, Math.max(REFRESH_SECONDS.least, seconds)));

/** Before an on-sale: ask again when it opens, or every half minute until then. */
export function preQueueRefreshSeconds(opensAt: string, now: Date): number {
  return refreshBetween((new Date(opensAt).getTime() - now.getTime()) / 1000);
}

/**
 * The links of a waiting page for a performance's room: its refresh, the buyer's "check my
 * place", and the switch that stops (or restarts) the page checking by itself. `cookieSent`: this
 * answer has just given the browser its cookies, so the next ask says so, and one that comes back
 * without them is told cookies are needed.
 */
export function refreshLinks(
  performanceId: string,
  back: string,
  { seconds, autoRefresh, cookieSent }: { seconds: number; autoRefresh: boolean; cookieSent: boolean },
): RefreshLinks {
  const off: Record<string, string> = autoRefresh ? {} : { [REFRESH_OFF.name]: REFRESH_OFF.value };
  const sent: Record<string, string> = cookieSent ? COOKIE_SENT_PARAM : {};
  return {
    refreshSeconds: seconds,
    autoRefresh,
    checkHref: waitingRoomHref(performanceId, back, { ...off, ...sent }),
    toggleRefreshHref: waitingRoomHref(
      performanceId,
      back,
      autoRefresh ? { [REFRESH_OFF.name]: REFRESH_OFF.value, ...sent } : sent,
    ),
  };
}

/** Whether this request comes back from an answer that sent the browser its cookies. */
export const cookieWasSent = (query: URLSearchParams | Record<string, unknown>) =>
  (query instanceof URLSearchParams ? query.get(COOKIE_SENT.name) : query[COOKIE_SENT.name]) === COOKIE_SENT.value;

// ---- The place cookie (issue 54) ----

/**
 * What a place cookie holds, signed with that cookie's own key: the room, the visitor the place
 * is theirs by, its number in the line (null while a pre-queue waits for its draw; 0 when let in
 * at once), and when it was given. It only says when to ask Remix's pages: whoever reaches them is
 * let in or not by the store, by their session's visitor id, so a copied cookie gets nobody ahead.
 */
export interface PlaceToken {
  room: string;
  visitor: string;
  position: number | null;
  issuedAt: number;
}

/** A place cookie older than this is not read: the buyer takes (or finds) their place again. */
const PLACE_MAX_AGE_MS = 12 * 60 * 60 * 1000;

export function placeCookieHeader(
  sessions: Pick<AppLoadContext["sessions"], "placeCookie">,
  place: PlaceToken,
): Promise<string> {
  return sessions.placeCookie.serialize([place.room, place.visitor, place.position, place.issuedAt]);
}

/** The visitor's place in this room from their cookie, or null: none, not this room's, too old, or not ours. */
export async function readPlaceCookie(
  sessions: Pick<AppLoadContext["sessions"], "placeCookie">,
  cookieHeader: string | null,
  roomId: string,
  now: number,
): Promise<PlaceToken | null> {
  if (!cookieHeader) return null;
  const value: unknown = await sessions.placeCookie.parse(cookieHeader);
  if (!Array.isArray(value) || value.length !== 4) return null;
  const [room, visitor, position, issuedAt] = value as unknown[];
  if (room !== roomId || typeof visitor !== "string" || typeof issuedAt !== "number") return null;
  if (position !== null && !(Number.isInteger(position) && (position as number) >= 0)) return null;
  if (issuedAt > now || now - issuedAt > PLACE_MAX_AGE_MS) return null;
  return { room, visitor, position: position as number | null, issuedAt };
}
