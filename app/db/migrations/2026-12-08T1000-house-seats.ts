import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // House seats (issue 55 item 5, decision 0063): seats the box office keeps off sale. The seat
  // itself is taken by a seat_claims row of status "house" (the claim's key is what keeps it from
  // being sold twice, as for every other claim); this row says why, who and when. Written and
  // deleted in the same transaction as the claim. `staff_id` is the staff account's id as a plain
  // string, as ticket_check_ins keeps it.
  await db.schema
    .createTable("house_seats")
    .addColumn("performance_id", "text", (c) => c.notNull().references("performances.id"))
    .addColumn("seat_id", "integer", (c) => c.notNull().references("seats.id"))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("staff_id", "text")
    .addColumn("held_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("house_seats_pk", ["performance_id", "seat_id"])
    .execute();
}
