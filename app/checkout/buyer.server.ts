import type { AppLoadContext } from "@remix-run/node";
import { GUEST, type Entitlements } from "~/ticketing/inventory.server";
import {
  normaliseCode,
  withPromoEntitlements,
  type PromoCheck,
  type PromoContext,
} from "~/ticketing/promotions.server";

// What the buyer brings to a request: their basket (an id in a signed, HttpOnly cookie), and a
// promo code they arrived with or entered before they had a basket. Only actions create a basket
// or change the code; loaders read them.

export interface Buyer {
  basketId: string | null;
  /** A promo code the buyer applied (normalised); still checked again wherever it is used. */
  promoCode: string | null;
}

const BASKET_ID = /^[0-9a-f-]{36}$/;

export async function readBuyer(request: Request, context: AppLoadContext): Promise<Buyer> {
  const cookies = request.headers.get("Cookie");
  const basket: unknown = await context.sessions.basketCookie.parse(cookies);
  const promo: unknown = await context.sessions.promoCookie.parse(cookies);
  return {
    basketId: typeof basket === "string" && BASKET_ID.test(basket) ? basket : null,
    promoCode: typeof promo === "string" && promo ? normaliseCode(promo) : null,
  };
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

/**
 * What this buyer may book for a performance: a guest's entitlements, widened by their promo code
 * when it is valid for this performance now. (Accounts and memberships add to this later.)
 */
export async function entitlementsFor(
  context: AppLoadContext,
  buyer: Buyer,
  promoContext: PromoContext,
): Promise<{ entitlements: Entitlements; promo: PromoCheck | null }> {
  if (!buyer.promoCode) return { entitlements: GUEST, promo: null };
  const promo = await context.promotions.check(buyer.promoCode, promoContext);
  return { entitlements: withPromoEntitlements(GUEST, promo.ok ? promo.promo : null), promo };
}
