import { describe, expect, it } from "vitest";
import {
  isStaffRole,
  may,
  needsSecondFactor,
  STAFF_ACTIONS,
  STAFF_ROLES,
  type StaffAction,
  type StaffRole,
} from "~/ticketing/staff-roles";

// What each staff role may do (decision 0059), written out in full: a change to the table in
// staff-roles.ts changes this test, on purpose.
const EXPECTED: Record<StaffRole, StaffAction[]> = {
  door: ["checkIn"],
  boxOffice: ["checkIn", "viewOrders", "refund", "resendEmail", "issueComp", "holdSeats"],
  manager: ["checkIn", "viewOrders", "refund", "resendEmail", "issueComp", "holdSeats", "viewReports", "manageStaff"],
};

describe("what each staff role may do", () => {
  it.each(STAFF_ROLES)("%s may do exactly its list", (role) => {
    const allowed = STAFF_ACTIONS.filter((action) => may(role, action));
    expect(allowed).toEqual(EXPECTED[role]);
  });

  it("the door checks tickets in and nothing else; box office neither reports nor manages staff", () => {
    expect(may("door", "checkIn")).toBe(true);
    expect(may("door", "viewOrders")).toBe(false);
    expect(may("door", "refund")).toBe(false);
    expect(may("boxOffice", "refund")).toBe(true);
    expect(may("boxOffice", "viewReports")).toBe(false);
    expect(may("boxOffice", "manageStaff")).toBe(false);
    expect(may("manager", "manageStaff")).toBe(true);
  });

  it("a role or action the table does not know is refused, not allowed", () => {
    expect(may("buyer" as StaffRole, "checkIn")).toBe(false);
    expect(may("manager", "deleteEverything" as StaffAction)).toBe(false);
  });

  it("every role that can move money, give tickets or change staff signs in with a code; the door does not", () => {
    expect(STAFF_ROLES.filter(needsSecondFactor)).toEqual(["boxOffice", "manager"]);
  });

  it("knows its roles by their stored names only", () => {
    expect(STAFF_ROLES.filter(isStaffRole)).toEqual(["door", "boxOffice", "manager"]);
    expect(isStaffRole("box-office")).toBe(false);
    expect(isStaffRole("admin")).toBe(false);
  });
});
