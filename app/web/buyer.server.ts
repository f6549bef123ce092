import type { AppLoadContext } from "@remix-run/node";
import { track } from "~/use-cases/tracker.server";
import type { ClientEvent } from "~/views/events";
import { authToken } from "~/web/session.server";
import type { Entitlements } from "~/ticketing/inventory.server";
import { buyerEntitlements } from "~/ticketing/entitlements.server";
import { benefitsOf, type MembershipStatus } from "~/ticketing/memberships";
import type { MemberBenefits } from "~/ticketing/baskets.server";
import {
  normaliseCode,
  type LinkRefusal,
  type PromoCode,
  type PromoContext,
  type PromoRefusal,
  type PromoTarget,
  type RunPromoContext,
} from "~/ticketing/promotions.server";

// What the buyer brings to a request: their basket (an id in a signed, HttpOnly cookie), a
// promo code they arrived with or entered before they had a basket, and the account they are
// signed in to. Only actions create a basket or change the code; loaders read them.

export interface Buyer {
  basketId: string | null;
  /** A promo code the buyer applied (normalised); still checked again wherever it is used. */
  promoCode: string | null;
  /** The signed-in customer, if any. */
  customerId: string | null;
}

const BASKET_ID = /^[0-9a-f-]{36}$/;

/** The buyer this request comes from; a page's loaders (the layout's beside the step's) share one reading. */
export function readBuyer(request: Request, context: AppLoadContext): Promise<Buyer> {
  return context.readOnce("buyer", async () => {
    const cookies = request.headers.get("Cookie");
    const basket: unknown = await context.sessions.basketCookie.parse(cookies);
    const promo: unknown = await context.sessions.promoCookie.parse(cookies);
    const customer = await context.auth.customer(await authToken(request, context));
    return {
      basketId: typeof basket === "string" && BASKET_ID.test(basket) ? basket : null,
      promoCode: typeof promo === "string" && promo ? normaliseCode(promo) : null,
      customerId: customer?.id ?? null,
    };
  });
}

/** The buyer's basket as this request reads it (once per page: `readOnce`). */
export function readBasket(context: AppLoadContext, basketId: string) {
  return context.readOnce(`basket:${basketId}`, () => context.baskets.snapshot(basketId));
}

export async function basketCookieHeader(context: AppLoadContext, basketId: string | null): Promise<string> {
  return basketId
    ? context.sessions.basketCookie.serialize(basketId)
    : context.sessions.basketCookie.serialize("", { maxAge: 0 });
}

export async function promoCookieHeader(context: AppLoadContext, code: string | null): Promise<string> {
  return code
    ? context.sessions.promoCookie.serialize(normaliseCode(code))
    : context.sessions.promoCookie.serialize("", { maxAge: 0 });
}

export function membershipOf(context: AppLoadContext, buyer: Buyer): Promise<MembershipStatus> {
  return context.memberships.status(buyer.customerId);
}

/** The membership benefits that change this buyer's prices (none for a guest). */
export async function benefitsFor(context: AppLoadContext, buyer: Buyer): Promise<MemberBenefits> {
  return benefitsOf(await membershipOf(context, buyer));
}

/** The code the buyer holds, when it is good here now; a code that has lapsed is simply not in play. */
export async function heldPromo(context: AppLoadContext, buyer: Buyer, target: PromoTarget): Promise<PromoCode | null> {
  if (!buyer.promoCode) return null;
  const check = await context.promotions.check(buyer.promoCode, target);
  return check.ok ? check.promo : null;
}

/**
 * What this buyer may book for a performance before they declare anything: a guest's entitlements,
 * widened by their promo code when it is valid for this performance now, and by their memberships.
 */
export async function entitlementsFor(
  context: AppLoadContext,
  buyer: Buyer,
  promoContext: PromoContext,
): Promise<{ entitlements: Entitlements; promo: PromoCode | null; membership: MembershipStatus }> {
  const membership = await membershipOf(context, buyer);
  const promo = await heldPromo(context, buyer, promoContext);
  return { entitlements: buyerEntitlements(membership, promo).entitlements, promo, membership };
}

/**
 * A code the buyer typed into a form (the tickets page, the payment page) for a performance, which
 * goes on their basket when they have one; or one a link brought to a show's calendar, before any
 * performance is chosen, which goes on no basket (the tickets page checks it again against the one
 * they choose).
 */
export type PromoEntry =
  | {
      source: "form";
      code: string;
      target: PromoContext;
      /** The basket to carry the code; none yet on a tickets page before any seat is held. */
      basketId: string | null;
      /** Runs once the code is known to apply, before the basket changes (payment unlocks its order). */
      beforeSaving?: () => Promise<void>;
    }
  | { source: "link"; code: string; target: RunPromoContext };

export type PromoApplied<Refusal extends PromoRefusal = PromoRefusal> =
  | { ok: true; promo: PromoCode; cookie: string; events: ClientEvent[] }
  | { ok: false; reason: Refusal; events: ClientEvent[] };

/**
 * Applying a promo code, the one way: the code is checked where it is to be used, tracked as the
 * spec names it for where it came from, put on the basket when it applies, and kept in the buyer's
 * promo cookie (the Set-Cookie header to send). A refused code leaves the one the buyer holds as it
 * was. The code itself never goes into a tracked event.
 */
export async function applyPromoCode(
  context: AppLoadContext,
  entry: Extract<PromoEntry, { source: "link" }>,
): Promise<PromoApplied<LinkRefusal>>;
export async function applyPromoCode(context: AppLoadContext, entry: PromoEntry): Promise<PromoApplied>;
export async function applyPromoCode(context: AppLoadContext, entry: PromoEntry): Promise<PromoApplied> {
  const check = await context.promotions.check(entry.code, entry.target, entry.source);
  if (!check.ok) return { ok: false, reason: check.reason, events: [refusalEvent(context, entry, check.reason)] };
  if (entry.source === "form") {
    await entry.beforeSaving?.();
    if (entry.basketId) await context.baskets.setPromo(entry.basketId, check.promo.id);
  }
  const success =
    entry.source === "link"
      ? track(context, "promoSuccess", { rule: check.promo.rule_key, source: "link" })
      : track(context, "promoSuccess", { performanceId: entry.target.performanceId });
  return {
    ok: true,
    promo: check.promo,
    cookie: await promoCookieHeader(context, check.promo.code),
    events: [success],
  };
}

function refusalEvent(context: AppLoadContext, entry: PromoEntry, reason: PromoRefusal): ClientEvent {
  if (entry.source === "link")
    return reason === "alreadyUsed"
      ? track(context, "promoSingleUseError", { source: "link" })
      : track(context, "promoDeeplinkError", { reason });
  const event = reason === "alreadyUsed" ? "promoSingleUseError" : "promoManualError";
  return track(context, event, { performanceId: entry.target.performanceId, reason });
}

/**
 * The code in play where a promo link lands (a show's calendar): the link's (`?pc=`, null when it
 * brought none), applied and reported whatever the outcome, or else the one the buyer already
 * holds, if it is good here. A bad link leaves a code the buyer holds as it was.
 */
export async function promoFromLink(
  context: AppLoadContext,
  buyer: Buyer,
  target: RunPromoContext,
  code: string | null,
): Promise<{ link: PromoApplied<LinkRefusal> | null; promo: PromoCode | null }> {
  const link = code === null ? null : await applyPromoCode(context, { source: "link", code, target });
  if (link?.ok) return { link, promo: link.promo };
  return { link, promo: await heldPromo(context, buyer, target) };
}

/** The session's visitor id: what a place in the waiting room belongs to. */
export async function visitorOf(request: Request, context: AppLoadContext): Promise<string | undefined> {
  return (await context.sessions.getSession(request)).get("visitorId");
}

// The buyer's place in the waiting room (app/web/queue-gate.server.ts), kept and given up from
// the checkout's pages. Here rather than there: a route's browser bundle keeps an empty stand-in
// for each server module it imports, and the payment page is a few bytes under its budget.

/** Keeps an admitted buyer's place while they check out; nothing when no room can queue. */
export async function stillInCheckout(request: Request, context: AppLoadContext): Promise<void> {
  if (!(await context.waitingRoom.enabled())) return;
  const visitorId = await visitorOf(request, context);
  if (visitorId) await context.waitingRoom.stillActive(visitorId);
}

/** The buyer is done with their place (paid, released their seats, let the hold lapse). */
export async function leaveWaitingRoom(request: Request, context: AppLoadContext): Promise<void> {
  if (!(await context.waitingRoom.enabled())) return;
  const visitorId = await visitorOf(request, context);
  if (visitorId) await context.waitingRoom.leave(visitorId);
}
