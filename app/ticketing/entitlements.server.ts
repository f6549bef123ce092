import type { Entitlements } from "./inventory.server";
import { GUEST } from "./inventory.server";
import { entitlementsOf, type MembershipStatus } from "./memberships";
import { withPromoEntitlements, type PromoCode } from "./promotions.server";

/**
 * What a buyer may book beyond a guest: their memberships' (presale, access seats, companions)
 * and their promo code's (presale, promotional seats). The calendar, the show page and the
 * tickets page all ask this, so no page offers what another would refuse.
 */
export function buyerEntitlements(membership: MembershipStatus, promo: PromoCode | null): Entitlements {
  return entitlementsOf(membership, withPromoEntitlements(GUEST, promo));
}
