import type { Entitlements } from "./inventory.server";
import { GUEST } from "./inventory.server";
import { entitlementsOf, type MembershipStatus } from "./memberships";
import { withPromoEntitlements, type PromoCode } from "./promotions.server";

/** What a buyer says of themselves on the tickets form (the access declaration). */
export interface AccessDeclaration {
  /** They use a wheelchair: the wheelchair spaces and a companion seat are for them. */
  wheelchair: boolean;
}

export const NOTHING_DECLARED: AccessDeclaration = { wheelchair: false };

export interface BuyerEntitlements {
  /** What the engine lets them book. */
  entitlements: Entitlements;
  /** An access membership records them as a wheelchair user: the form has nothing to ask. */
  accessRegistered: boolean;
  /** Wheelchair spaces are theirs to book, registered or declared. */
  wheelchairUser: boolean;
}

/**
 * What a buyer may book beyond a guest: their memberships' (presale, access seats, companions),
 * their promo code's (presale, promotional seats), and what they declare on the tickets form. The
 * calendar, the show page and the tickets page all ask this, so no page offers what another would
 * refuse.
 *
 * Wheelchair spaces and companion seats are for wheelchair users and their companions, and the
 * engine refuses them to anyone else. A guest says so when booking them, which allows one companion
 * seat; an access membership records it once (accounts issue), with the number of companions they
 * registered, so a declaration adds nothing to it.
 */
export function buyerEntitlements(
  membership: MembershipStatus,
  promo: PromoCode | null,
  declared: AccessDeclaration = NOTHING_DECLARED,
): BuyerEntitlements {
  const entitlements = entitlementsOf(membership, withPromoEntitlements(GUEST, promo));
  const accessRegistered = membership.access?.wheelchair === true;
  if (accessRegistered || !declared.wheelchair)
    return { entitlements, accessRegistered, wheelchairUser: accessRegistered };
  return {
    entitlements: {
      ...entitlements,
      restrictions: new Set([...entitlements.restrictions, "wheelchair"]),
      companions: Math.max(entitlements.companions, 1),
    },
    accessRegistered,
    wheelchairUser: true,
  };
}
