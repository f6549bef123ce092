import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/db/schema";
import type { StaffAuditAction } from "~/ticketing/staff-roles";

// The staff's audit log (decision 0059): who did what, when, to which order or performance. The
// table is append-only at the database, so these two are all there is: write an entry, read them.
// Written through the caller's transaction where it has one, so an action and its entry are
// committed together or not at all.

export interface StaffAuditInput {
  /** The member of staff who did it; null for the operator's command line. */
  staffId: string | null;
  action: StaffAuditAction;
  orderId?: string | null;
  performanceId?: string | null;
  /** Whatever else is worth keeping (the tickets refunded, the address signed in from): kept as JSON. */
  detail?: Record<string, unknown>;
}

export interface StaffAuditEntry {
  id: number;
  at: string;
  staffId: string | null;
  /** The name of that member of staff, as it is now; null for the command line. */
  staffName: string | null;
  action: string;
  orderId: string | null;
  orderNumber: string | null;
  performanceId: string | null;
  detail: Record<string, unknown>;
}

export async function writeStaffAudit(
  db: Kysely<Database> | Transaction<Database>,
  at: Date,
  entry: StaffAuditInput,
): Promise<void> {
  await db
    .insertInto("staff_audit")
    .values({
      at: at.toISOString(),
      staff_id: entry.staffId,
      action: entry.action,
      order_id: entry.orderId ?? null,
      performance_id: entry.performanceId ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
    })
    .execute();
}

export interface StaffAuditFilter {
  orderId?: string;
  /** The order's number, as staff read it (the log keeps the order's id). */
  orderNumber?: string;
  staffId?: string;
  /** The newest this many, newest first; without it, every entry, oldest first. */
  newest?: number;
}

/** The entries about an order, or by a member of staff (both: those that are both). */
export async function readStaffAudit(db: Kysely<Database>, filter: StaffAuditFilter): Promise<StaffAuditEntry[]> {
  let query = db
    .selectFrom("staff_audit")
    .leftJoin("staff_users", "staff_users.id", "staff_audit.staff_id")
    .leftJoin("orders", "orders.id", "staff_audit.order_id")
    .select([
      "staff_audit.id",
      "staff_audit.at",
      "staff_audit.staff_id",
      "staff_users.name as staff_name",
      "staff_audit.action",
      "staff_audit.order_id",
      "orders.number as order_number",
      "staff_audit.performance_id",
      "staff_audit.detail",
    ]);
  if (filter.orderId !== undefined) query = query.where("staff_audit.order_id", "=", filter.orderId);
  if (filter.orderNumber !== undefined) query = query.where("orders.number", "=", filter.orderNumber);
  if (filter.staffId !== undefined) query = query.where("staff_audit.staff_id", "=", filter.staffId);
  query =
    filter.newest === undefined
      ? query.orderBy("staff_audit.id")
      : query.orderBy("staff_audit.id", "desc").limit(filter.newest);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: Number(row.id),
    at: row.at,
    staffId: row.staff_id,
    staffName: row.staff_name,
    action: row.action,
    orderId: row.order_id,
    orderNumber: row.order_number,
    performanceId: row.performance_id,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
  }));
}
