import { randomUUID } from "node:crypto";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { Logger } from "pino";
import type { CacheStats } from "~/caches.server";
import type { Language } from "~/i18n/languages";
import type { ThemeName } from "~/themes/themes";
import type { Pass, RoomRule } from "~/ticketing/waiting-room.server";
import { MODE_ROUTES } from "~/urls/route-table";
import { calendarPath } from "~/urls/paths";
import { safeReturnPath } from "~/urls/return-path";
import type { ClientEvent } from "~/views/events";
import type { AppServices } from "./context";
import {
  cookieWasSent,
  placeCookieHeader,
  preQueueRefreshSeconds,
  readPlaceCookie,
  REFRESH_OFF,
  refreshLinks,
  refreshSecondsFor,
  WAITING_ROOM_PATH,
  waitingRoomHref,
  type WaitingView,
} from "./queue-gate.server";
import { resolveTheme } from "./visitor.server";
import { clientAddress } from "./client-address.server";
import { WAITING_PAGE_QUERY } from "~/urls/waiting-page-query";

// The door (issue 54, decision 0056): while a performance has a waiting room, a visitor who asks
// for its tickets page, or for the room's own address, is answered here, before Remix is asked
// anything. One response, no redirect chain: an arrival gets the waiting page with its place (and
// the cookies that keep it); a refresh is checked against the signed place cookie and the room's
// line, which this process reads from the store at most once a second. Only joining and being let
// in touch the store. Whoever's place has come, and whoever holds seats, goes on to the Remix
// pages, whose gate (queue-gate.server.ts) lets them in or not by the store, as before.

/** What the door writes a waiting page from: the view, and the frame's choices for this visitor. */
export interface DoorPage {
  view: WaitingView;
  locale: Language;
  theme: ThemeName;
  wordingSet: string;
  /** The venue's phone for the header; null for the site's. */
  phone: string | null;
  nonce: string;
  /** This page's address in another language. */
  languageHref: (language: Language) => string;
  trackedEvents: ClientEvent[];
}

/** Writes the door's pages (app/routes/waiting-room.server.tsx): the route layer's, handed in. */
export interface DoorPages {
  write(page: DoorPage): Promise<string>;
  /** The caches the writer keeps, for /metrics. */
  caches: (() => CacheStats)[];
}

type DoorServices = Pick<
  AppServices,
  "config" | "i18n" | "sessions" | "clock" | "waitingRoom" | "catalogue" | "availability" | "tracker"
>;

/** A request the door may answer: a performance's tickets page, or the room's own address. */
interface Target {
  performanceId: string;
  /** Where the buyer goes once let in. */
  back: string;
  /** The room's own address (/waiting-room), rather than the tickets page. */
  atRoom: boolean;
  /** The buyer asked the page to stop checking by itself (?refresh=off). */
  autoRefresh: boolean;
}

const PERFORMANCE_ID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

/** The tickets page's address in a routing mode, as a pattern whose one group is the performance. */
function ticketsPattern(mode: keyof typeof MODE_ROUTES): RegExp {
  const tickets = MODE_ROUTES[mode].find((route) => route.name === "tickets")!;
  const source = `/${tickets.path!}`
    .split("/")
    .map((part) => (part === ":performanceId" ? "([^/]+)" : part.startsWith(":") ? "[^/]+" : part))
    .join("/");
  return new RegExp(`^${source}/?$`);
}

export function createDoor(services: DoorServices, pages: DoorPages) {
  const { config, sessions, clock, waitingRoom, catalogue } = services;
  const tickets = ticketsPattern(config.routingType);

  function targetOf(req: ExpressRequest): Target | null {
    if (req.path === WAITING_ROOM_PATH) {
      const query = new URL(req.originalUrl, "http://door").searchParams;
      return {
        performanceId: query.get("performance") ?? "",
        back: safeReturnPath(query.get("to")),
        atRoom: true,
        autoRefresh: query.get(REFRESH_OFF.name) !== REFRESH_OFF.value,
      };
    }
    const match = tickets.exec(req.path);
    if (!match) return null;
    return { performanceId: match[1]!, back: safeReturnPath(req.originalUrl), atRoom: false, autoRefresh: true };
  }

  return async function door(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const target = targetOf(req);
    if (!target || !PERFORMANCE_ID.test(target.performanceId)) return next();
    try {
      const rule = await waitingRoom.ruleFor(target.performanceId);
      const performanceId = target.performanceId.toUpperCase();
      const place = rule ? await catalogue.placeOfPerformance(performanceId) : undefined;
      // No queue, or no such performance: the page asked for says what there is to say.
      if (!rule || !place) return next();
      const cookieHeader = req.headers.cookie ?? null;
      // Seats already held: the tickets page's gate lets their holder straight on (the store says).
      if (!target.atRoom && cookieHeader?.includes(`${sessions.basketCookie.name}=`)) return next();
      const now = clock.now();
      const held = await readPlaceCookie(sessions, cookieHeader, rule.id, now.getTime());
      const answer = held
        ? await refresh(rule, held.visitor, held.position, now)
        : await arrive(rule, cookieHeader, req, clientAddress(req));
      if (answer.kind === "on") {
        for (const cookie of answer.cookies) res.append("Set-Cookie", cookie);
        // Let in: the tickets page (the gate there checks the store), from the room's address by a redirect.
        if (target.atRoom || answer.redirect) return void res.redirect(303, target.back);
        return next();
      }
      const { view, cookies, status } = answer.page(target, place.title_slug, place.venue_slug, place.time_zone);
      const soldOut =
        view.kind === "waiting" &&
        (await services.availability.summary([performanceId])).get(performanceId)?.level === "soldOut";
      await writePage(req, res, view.kind === "waiting" ? { ...view, soldOut } : view, {
        status,
        cookies,
        performanceId,
        phone: place.support_phone,
      });
    } catch (error) {
      next(error);
    }
  };

  type Answer =
    | { kind: "on"; cookies: string[]; redirect?: boolean }
    | {
        kind: "page";
        page: (
          target: Target,
          titleSlug: string,
          venueSlug: string,
          timeZone: string,
        ) => { view: WaitingView; cookies: string[]; status: number };
      };

  /** A visitor with a place: compared with the line, which this process reads at most once a second. */
  async function refresh(rule: RoomRule, visitor: string, position: number | null, now: Date): Promise<Answer> {
    const line = await waitingRoom.line(rule);
    if (line.preQueue)
      return waitingPage({ admitted: false, preQueue: true, waiting: line.waiting, opensAt: rule.onSale!.at }, []);
    // Drawn when the sale opened: the place the draw gave, asked of the store once, then in the cookie.
    const drawn = position ?? (await waitingRoom.positionOf(rule, visitor));
    if (drawn === null) return { kind: "on", cookies: [] };
    const pass = waitingRoom.placeOnLine(rule, line, drawn);
    if (pass.admitted) return { kind: "on", cookies: [] };
    const cookies =
      position === null
        ? [await placeCookieHeader(sessions, { room: rule.id, visitor, position: drawn, issuedAt: now.getTime() })]
        : [];
    return waitingPage(pass, cookies);
  }

  /**
   * A visitor without a place in this room: their session's visitor id (a new one when none, with
   * the cookie), and their place, the one they hold or a new one, written with the moment's other
   * arrivals. One that comes back without the cookies just sent is told cookies are needed.
   */
  async function arrive(
    rule: RoomRule,
    cookieHeader: string | null,
    req: ExpressRequest,
    address: string,
  ): Promise<Answer> {
    const session = await sessions.storage.getSession(cookieHeader);
    let visitor: string | undefined = session.get("visitorId");
    const cookies: string[] = [];
    if (!visitor) {
      if (cookieWasSent(req.query)) return noCookies();
      visitor = randomUUID();
      session.set("visitorId", visitor);
      cookies.push(await sessions.commitSession(session));
    }
    const pass = await waitingRoom.arrive(rule, visitor, address);
    const issuedAt = clock.now().getTime();
    if (pass.admitted) {
      // Let in at once: a place the line has passed. A new session goes round by the tickets
      // page's address, so that its gate reads the session it was just given.
      cookies.push(await placeCookieHeader(sessions, { room: rule.id, visitor, position: 0, issuedAt }));
      return { kind: "on", cookies, redirect: cookies.length > 1 };
    }
    if (!("refused" in pass))
      cookies.push(
        await placeCookieHeader(sessions, {
          room: rule.id,
          visitor,
          position: pass.preQueue ? null : pass.position,
          issuedAt,
        }),
      );
    return waitingPage(pass, cookies, cookies.length > 1);
  }

  function noCookies(): Answer {
    return {
      kind: "page",
      page: (target) => ({
        view: { kind: "noCookies", retryHref: waitingRoomHref(target.performanceId, target.back) },
        cookies: [],
        status: 200,
      }),
    };
  }

  function waitingPage(pass: Exclude<Pass, { admitted: true }>, cookies: string[], cookieSent = false): Answer {
    return {
      kind: "page",
      page: (target, titleSlug, venueSlug, timeZone) => {
        const retryHref = waitingRoomHref(target.performanceId, target.back);
        if ("refused" in pass)
          return {
            view: { kind: "tooManyJoins", retryAfterSeconds: pass.retryAfterSeconds, retryHref },
            cookies,
            status: 429,
          };
        const links = (seconds: number) =>
          refreshLinks(target.performanceId, target.back, { seconds, autoRefresh: target.autoRefresh, cookieSent });
        if (pass.preQueue)
          return {
            view: {
              kind: "preQueue",
              waiting: pass.waiting,
              opensAt: pass.opensAt,
              timeZone,
              ...links(preQueueRefreshSeconds(pass.opensAt, clock.now())),
            },
            cookies,
            status: 200,
          };
        return {
          view: {
            kind: "waiting",
            place: pass.place,
            waiting: pass.waiting,
            estimatedWaitSeconds: pass.estimatedWaitSeconds,
            soldOut: false,
            otherDatesHref: calendarPath(config.routingType, titleSlug, venueSlug),
            ...links(refreshSecondsFor(pass.estimatedWaitSeconds)),
          },
          cookies,
          status: 200,
        };
      },
    };
  }

  async function writePage(
    req: ExpressRequest,
    res: ExpressResponse,
    view: WaitingView,
    {
      status,
      cookies,
      performanceId,
      phone,
    }: { status: number; cookies: string[]; performanceId: string; phone: string | null },
  ) {
    const logger = res.locals.logger as Logger;
    const url = new URL(req.originalUrl, "http://door");
    const cookieHeader = req.headers.cookie ?? null;
    const locale = await services.i18n.localeOf(url, cookieHeader, req.headers["accept-language"] ?? null);
    const { theme, remember } = await resolveTheme(url, cookieHeader, services);
    // As the root loader does for every other page.
    if (url.searchParams.get("lng") === locale) cookies.push(await sessions.languageCookie.serialize(locale));
    if (remember) cookies.push(await sessions.themeCookie.serialize(theme));
    const trackedEvents = (["fetchQueue.request", "fetchQueue.success"] as const).map((name) => {
      services.tracker.track({ name, properties: { performanceId } }, logger);
      return { performanceId, event: name };
    });
    const html = await pages.write({
      view,
      locale,
      theme,
      wordingSet: services.i18n.wordingSetFor(config.venueSlug),
      phone,
      nonce: res.locals.cspNonce as string,
      languageHref: (language) => languageHref(url, language),
      trackedEvents,
    });
    for (const cookie of cookies) res.append("Set-Cookie", cookie);
    res.set("Cache-Control", "no-store");
    res.set("Content-Type", "text/html; charset=utf-8");
    // Refused a place for now (issue 41): a 429 that says when to come back, for people and clients alike.
    if (view.kind === "tooManyJoins") res.set("Retry-After", String(view.retryAfterSeconds));
    // Written out as it is: no ETag to work out for a page that is never kept (no-store).
    res.status(status).end(req.method === "HEAD" ? undefined : html);
  }
}

const DOOR_QUERY: ReadonlySet<string> = new Set(WAITING_PAGE_QUERY);

/** This page's address with `?lng=`: only the parameters the door reads are carried. */
function languageHref(url: URL, language: Language): string {
  const kept = new URLSearchParams();
  for (const [name, value] of url.searchParams)
    if (DOOR_QUERY.has(name) && name !== "lng" && !kept.has(name)) kept.set(name, value);
  kept.set("lng", language);
  return `${url.pathname}?${kept.toString()}`;
}
