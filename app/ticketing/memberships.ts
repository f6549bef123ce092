import type { MemberBenefits } from "./baskets.server";
import type { Entitlements } from "./inventory.server";

// What membership gives, decided once, here: every page, step and engine call asks these two
// functions. The paid ("plus") membership gives presale access and member prices; both it and the
// access membership waive the transaction fee and include ticket protection (spec section 1). The
// access membership lets its holder book the seats their registered needs call for, online.

export interface AccessNeeds {
  /** A wheelchair user: books wheelchair spaces. */
  wheelchair: boolean;
  /** Companion seats booked beside a wheelchair space (0–2). */
  companions: number;
  /** Anything else the venue should know, in the customer's words. */
  otherNeeds: string | null;
}

export interface MembershipStatus {
  /** The paid membership, while it lasts. */
  plus: { endsAt: string } | null;
  access: AccessNeeds | null;
}

export const NOT_A_MEMBER: MembershipStatus = { plus: null, access: null };

export const MAX_COMPANIONS = 2;

/** The presale audience the paid membership belongs to (a performance's `presale.audience`). */
export const PLUS_PRESALE_AUDIENCE = "plus-member";

export function isMember(status: MembershipStatus): boolean {
  return status.plus !== null || status.access !== null;
}

export function benefitsOf(status: MembershipStatus): MemberBenefits {
  const member = isMember(status);
  return { protectionIncluded: member, noTransactionFee: member, memberPrices: status.plus !== null };
}

/** What a member may book beyond `base` (a guest's, or a guest's with a promo code). */
export function entitlementsOf(status: MembershipStatus, base: Entitlements): Entitlements {
  const restrictions = new Set(base.restrictions);
  const presale = new Set(base.presale);
  let companions = base.companions;
  if (status.plus) presale.add(PLUS_PRESALE_AUDIENCE);
  if (status.access) {
    restrictions.add("accessZone");
    if (status.access.wheelchair) {
      restrictions.add("wheelchair");
      companions = Math.max(companions, status.access.companions);
    }
  }
  return { restrictions, presale, companions };
}
