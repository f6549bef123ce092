import { randomUUID } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import type { Params } from "@remix-run/react";
import { notFound, parseParams, performanceParams } from "~/urls/params";
import { safeReturnPath } from "~/urls/return-path";
import { showFromParams } from "~/web/show-params.server";
import { saleRefusal, saleWindowOf } from "~/ticketing/sale-window";
import { benefitsOf } from "~/ticketing/memberships";
import { formatDateTime } from "~/i18n/format";
import { basketCookieHeader, entitlementsFor, readBuyer } from "./buyer.server";
import { admitOrQueue, type BasketClaim } from "./queue-gate.server";

// What the tickets page and its actions both need: the show and performance from the URL, who the
// buyer is (their membership and promo code, from which buyerEntitlements says what they may book
// once the form says what they declare), and what their basket already holds.

/**
 * Where the tickets page's actions send the buyer back to: the page itself, through the one
 * return-path check, since a request path is the buyer's to choose and `//evil.example/…` echoed
 * into Location would be another site.
 */
export function ticketsPageBack(request: Request): string {
  const url = new URL(request.url);
  return safeReturnPath(url.pathname + url.search);
}

export async function ticketsContext(request: Request, params: Params, context: AppLoadContext) {
  const show = await showFromParams(params, context);
  const { performanceId: id } = parseParams(params, performanceParams);
  const performance = await context.catalogue.performanceOfRun(show.runId, id);
  if (!performance) throw notFound();
  const venue = await context.catalogue.venue(show.venueSlug);
  if (!venue) throw notFound();
  const buyer = await readBuyer(request, context);
  const { entitlements, promo, membership } = await entitlementsFor(context, buyer, {
    performanceId: performance.id,
    titleSlug: show.slug,
    venueSlug: show.venueSlug,
    currency: venue.currency,
  });
  const reservation = buyer.basketId ? await context.reservations.current(buyer.basketId) : null;
  // The waiting room, when one is on, before anything is shown or held: the page and its forms alike.
  const claimBasket = await admitOrQueue(request, context, performance.id, {
    back: ticketsPageBack(request),
    holdsSeats: reservation !== null && !reservation.expired && reservation.performanceId === performance.id,
    basketId: buyer.basketId,
  });
  const refusal = saleRefusal(saleWindowOf(performance), context.clock.now(), entitlements.presale);
  return {
    show,
    venue,
    performance,
    buyer,
    /** The buyer's promo code when it is good for this performance now. */
    promo,
    membership,
    benefits: benefitsOf(membership),
    refusal,
    reservation,
    /** A live reservation for another performance: choosing here first asks "Empty your cart?". */
    otherReservation:
      reservation && !reservation.expired && reservation.performanceId !== performance.id ? reservation : null,
    /** The reservation for this performance, live or expired. */
    ownReservation: reservation && reservation.performanceId === performance.id ? reservation : null,
    /** An admitted place without a basket yet: the basket a first hold makes is claimed for it. */
    claimBasket,
  };
}

/**
 * The buyer's basket id, made now (with its cookie) if they have none yet. An admitted place's
 * first basket is claimed for it; when another client of the same session claimed one first,
 * that one is this buyer's too (one place, one basket).
 */
export async function ensureBasket(
  context: AppLoadContext,
  basketId: string | null,
  headers: Headers,
  claim: BasketClaim | null = null,
) {
  if (basketId) return basketId;
  const created = randomUUID();
  const owned = (claim && (await claim(created))) ?? created;
  headers.append("Set-Cookie", await basketCookieHeader(context, owned));
  return owned;
}

/**
 * The tickets page's title, made here so that no page's script carries the words or the date
 * format: which show, where and when ("Select your tickets: Hamlet, Liberty Theatre, Tue 8 Dec
 * 2026, 19:30"), in the buyer's language and the venue's wording set and time zone.
 */
export async function ticketsPageTitle(
  request: Request,
  context: AppLoadContext,
  show: { name: string; venueName: string; venueSlug: string; timeZone: string },
  startsAt: string,
): Promise<string> {
  const language = await context.i18n.getLocale(request);
  const { t } = await context.i18n.createInstance(language, context.i18n.wordingSetFor(show.venueSlug));
  // The page's own heading first, as the wording set has it.
  return t("tickets.pageTitle", {
    title: t("tickets.title"),
    show: show.name,
    venue: show.venueName,
    when: formatDateTime(startsAt, show.timeZone, language),
  });
}
