// Who among the venue's staff may do what (issue 55, decision 0059): the one table every staff
// loader, action and command asks, so a role's reach is changed here or nowhere.

export const STAFF_ROLES = ["door", "boxOffice", "manager"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_ACTIONS = [
  /** Admit a ticket at the door, and see a performance's count of admitted and expected. */
  "checkIn",
  /** Find orders and read them: tickets, seats, payment, refunds, emails sent. */
  "viewOrders",
  "refund",
  "resendEmail",
  /** Issue a complimentary (zero-price) order. */
  "issueComp",
  /** Hold seats off sale as house seats, and release them. */
  "holdSeats",
  /** Sales figures, takings, the access list and the orders' CSV of a performance. */
  "viewReports",
  /** Add and remove staff, and read the audit log. */
  "manageStaff",
] as const;
export type StaffAction = (typeof STAFF_ACTIONS)[number];

const BOX_OFFICE: readonly StaffAction[] = ["checkIn", "viewOrders", "refund", "resendEmail", "issueComp", "holdSeats"];

const ALLOWED: Record<StaffRole, ReadonlySet<StaffAction>> = {
  door: new Set(["checkIn"]),
  boxOffice: new Set(BOX_OFFICE),
  manager: new Set(STAFF_ACTIONS),
};

/** Whether a member of staff with this role may do this. Anything not listed is refused. */
export function may(role: StaffRole, action: StaffAction): boolean {
  return ALLOWED[role]?.has(action) ?? false;
}

/**
 * Whether signing in takes a one-time code as well as the password. Every role that can move
 * money, give tickets away or change who is staff does; the door only admits tickets already
 * sold, and scans on shared phones in a queue, where a second device would slow the doors.
 */
export function needsSecondFactor(role: StaffRole): boolean {
  return may(role, "refund") || may(role, "issueComp") || may(role, "manageStaff");
}

export function isStaffRole(value: string): value is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(value);
}

/** A staff password's least length: staff reach other people's orders and money. */
export const STAFF_PASSWORD_MIN_LENGTH = 12;

/**
 * What the audit log records (staff_audit.action). Besides the actions above: signing in and out,
 * and staff added or removed (by a manager, or by the operator's command).
 */
export type StaffAuditAction =
  | "signIn"
  | "signOut"
  | "staffAdded"
  | "staffRemoved"
  | "checkIn"
  | "refund"
  | "resendEmail"
  | "issueComp"
  | "holdSeats"
  | "releaseSeats";
