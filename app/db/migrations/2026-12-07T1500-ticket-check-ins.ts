import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Door check-in (issue 55 item 2, decision 0060): one row per ticket ever admitted. The primary
  // key on the ticket is what admits it once: two doors scanning it at the same moment both try to
  // insert, the key lets one row in and the other insert does nothing, on SQLite and PostgreSQL,
  // in one process or many. `door` is what the door called itself ("Stalls door"); `staff_id` who
  // scanned, as the staff accounts name them (a plain string: accounts are not this table's).
  await db.schema
    .createTable("ticket_check_ins")
    .addColumn("ticket_id", "text", (c) => c.primaryKey().references("order_tickets.id"))
    .addColumn("performance_id", "text", (c) => c.notNull().references("performances.id"))
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id"))
    .addColumn("checked_in_at", "text", (c) => c.notNull())
    .addColumn("door", "text", (c) => c.notNull())
    .addColumn("staff_id", "text", (c) => c.notNull())
    .execute();
  // The door's running count of admitted is per performance.
  await db.schema
    .createIndex("ticket_check_ins_by_performance")
    .on("ticket_check_ins")
    .column("performance_id")
    .execute();
  // And its expected count reads a performance's orders, which nothing indexed by performance.
  await db.schema.createIndex("orders_by_performance").on("orders").column("performance_id").execute();
}
