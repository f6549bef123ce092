import { describe, expect, it } from "vitest";
import { GUEST } from "~/ticketing/inventory.server";
import { benefitsOf, entitlementsOf, NOT_A_MEMBER, type MembershipStatus } from "~/ticketing/memberships";
import { buyerEntitlements } from "~/ticketing/entitlements.server";
import type { PromoCode } from "~/ticketing/promotions.server";

const PLUS: MembershipStatus = { plus: { endsAt: "2027-11-23T12:00:00.000Z" }, access: null };
const WHEELCHAIR: MembershipStatus = { plus: null, access: { wheelchair: true, companions: 2, otherNeeds: null } };
const OTHER_NEEDS: MembershipStatus = { plus: null, access: { wheelchair: false, companions: 0, otherNeeds: "Aisle" } };

describe("membership benefits", () => {
  it("a guest has none", () => {
    expect(benefitsOf(NOT_A_MEMBER)).toEqual({
      protectionIncluded: false,
      noTransactionFee: false,
      memberPrices: false,
    });
    expect(entitlementsOf(NOT_A_MEMBER, GUEST)).toEqual(GUEST);
  });

  it("Plus: no transaction fee, protection included, member prices and presale", () => {
    expect(benefitsOf(PLUS)).toEqual({ protectionIncluded: true, noTransactionFee: true, memberPrices: true });
    const entitlements = entitlementsOf(PLUS, GUEST);
    expect([...entitlements.presale]).toEqual(["plus-member"]);
    expect(entitlements.restrictions.has("wheelchair")).toBe(false);
  });

  it("access: no transaction fee and protection included, but neither member prices nor presale", () => {
    expect(benefitsOf(OTHER_NEEDS)).toEqual({ protectionIncluded: true, noTransactionFee: true, memberPrices: false });
    expect(entitlementsOf(OTHER_NEEDS, GUEST).presale.size).toBe(0);
  });

  it("access: access-zone seats for every access member; wheelchair spaces and companions for wheelchair users", () => {
    const other = entitlementsOf(OTHER_NEEDS, GUEST);
    expect(other.restrictions.has("accessZone")).toBe(true);
    expect(other.restrictions.has("wheelchair")).toBe(false);
    expect(other.companions).toBe(0);
    const wheelchair = entitlementsOf(WHEELCHAIR, GUEST);
    expect(wheelchair.restrictions.has("wheelchair")).toBe(true);
    expect(wheelchair.companions).toBe(2);
    // Sponsored seats stay open to everyone whatever the membership.
    expect(wheelchair.restrictions.has("amex")).toBe(true);
  });
});

describe("a buyer's entitlements, as every page reads them", () => {
  const code = (rule_key: PromoCode["rule_key"]) => ({ rule_key }) as PromoCode;

  it("a guest without a code has a guest's", () => {
    expect(buyerEntitlements(NOT_A_MEMBER, null)).toEqual({
      entitlements: GUEST,
      accessRegistered: false,
      wheelchairUser: false,
    });
  });

  it("adds the membership's and the code's, together", () => {
    const both = buyerEntitlements(PLUS, code("unlockPresale")).entitlements;
    expect([...both.presale].sort()).toEqual(["plus-member", "promo"]);
    expect(buyerEntitlements(WHEELCHAIR, code("unlockPromoSeats")).entitlements.restrictions).toEqual(
      new Set([...GUEST.restrictions, "accessZone", "wheelchair", "promo"]),
    );
  });

  it("a guest who declares they use a wheelchair may book wheelchair spaces and one companion seat", () => {
    const undeclared = buyerEntitlements(NOT_A_MEMBER, null, { wheelchair: false });
    expect(undeclared.wheelchairUser).toBe(false);
    expect(undeclared.entitlements.restrictions.has("wheelchair")).toBe(false);
    expect(undeclared.entitlements.companions).toBe(0);
    const declared = buyerEntitlements(NOT_A_MEMBER, code("unlockPromoSeats"), { wheelchair: true });
    expect(declared).toMatchObject({ accessRegistered: false, wheelchairUser: true });
    expect(declared.entitlements.restrictions).toEqual(new Set([...GUEST.restrictions, "promo", "wheelchair"]));
    expect(declared.entitlements.companions).toBe(1);
    // An access member who is not a wheelchair user declares it like a guest, keeping the access zone.
    const other = buyerEntitlements(OTHER_NEEDS, null, { wheelchair: true });
    expect(other).toMatchObject({ accessRegistered: false, wheelchairUser: true });
    expect(other.entitlements.restrictions).toEqual(new Set([...GUEST.restrictions, "accessZone", "wheelchair"]));
  });

  it("a registered wheelchair user has no declaration to make, and keeps the companions they registered", () => {
    const none = { plus: null, access: { wheelchair: true, companions: 0, otherNeeds: null } };
    for (const wheelchair of [false, true]) {
      const registered = buyerEntitlements(WHEELCHAIR, null, { wheelchair });
      expect(registered).toMatchObject({ accessRegistered: true, wheelchairUser: true });
      expect(registered.entitlements.restrictions.has("wheelchair")).toBe(true);
      expect(registered.entitlements.companions).toBe(2);
      // A declaration does not add the guest's companion seat to a registration without one.
      expect(buyerEntitlements(none, null, { wheelchair }).entitlements.companions).toBe(0);
    }
  });
});
