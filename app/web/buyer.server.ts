import type { AppLoadContext } from "@remix-run/node";
import { track } from "~/services/tracker.server";
import type { ClientEvent } from "~/views/events";
import { authToken } from "~/web/session.server";
import type { Entitlements } from "~/ticketing/inventory.server";
import { buyerEntitlements } from "~/ticketing/entitlements.server";
import { benefitsOf, type MembershipStatus } from "~/ticketing/memberships";
import type { MemberBenefits } from "~/ticketing/baskets.server";
import { normaliseCode, type PromoCheck, type PromoContext } from "~/ticketing/promotions.server";

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

/**
 * What this buyer may book for a performance: a guest's entitlements, widened by their promo code
 * when it is valid for this performance now, and by their memberships.
 */
export async function entitlementsFor(
  context: AppLoadContext,
  buyer: Buyer,
  promoContext: PromoContext,
): Promise<{ entitlements: Entitlements; promo: PromoCheck | null; membership: MembershipStatus }> {
  const membership = await membershipOf(context, buyer);
  if (!buyer.promoCode) return { entitlements: buyerEntitlements(membership, null), promo: null, membership };
  const promo = await context.promotions.check(buyer.promoCode, promoContext);
  return { entitlements: buyerEntitlements(membership, promo.ok ? promo.promo : null), promo, membership };
}

/**
 * Applying a promo code, the one way: on the tickets page or at payment, the code is checked for
 * the performance, tracked as the spec names it, put on the basket when it applies, and kept in
 * the buyer's promo cookie (the Set-Cookie header to send).
 */
export type PromoOutcome =
  | { ok: true; cookie: string; events: ClientEvent[] }
  | { ok: false; reason: string; events: ClientEvent[] };

export async function applyPromoCode(
  context: AppLoadContext,
  input: {
    code: string;
    target: PromoContext;
    /** The basket to carry the code; none yet on a tickets page before any seat is held. */
    basketId: string | null;
    /** Runs once the code is known to apply, before the basket changes (payment unlocks its order). */
    beforeSaving?: () => Promise<void>;
  },
): Promise<PromoOutcome> {
  const performanceId = input.target.performanceId;
  const check = await context.promotions.check(input.code, input.target);
  if (!check.ok) {
    const event = check.reason === "alreadyUsed" ? "promoSingleUseError" : "promoManualError";
    return {
      ok: false,
      reason: check.reason,
      events: [track(context, event, { performanceId, reason: check.reason })],
    };
  }
  await input.beforeSaving?.();
  if (input.basketId) await context.baskets.setPromo(input.basketId, check.promo.id);
  return {
    ok: true,
    cookie: await promoCookieHeader(context, check.promo.code),
    events: [track(context, "promoSuccess", { performanceId })],
  };
}

/** The session's visitor id: what a place in the waiting room belongs to. */
export async function visitorOf(request: Request, context: AppLoadContext): Promise<string | undefined> {
  return (await context.sessions.getSession(request)).get("visitorId");
}

// The buyer's place in the waiting room (app/web/waiting-room.server.ts), kept and given up from
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
