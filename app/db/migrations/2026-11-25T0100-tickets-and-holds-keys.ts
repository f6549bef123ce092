import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // An order's tickets are issued once, by one insert that a second completion (the reconciler
  // beside the buyer's own return, two processes) cannot repeat: the key refuses a second ticket
  // in the same place of the order, so the insert itself is the check.
  await db.schema
    .createIndex("order_tickets_order_place")
    .on("order_tickets")
    .columns(["order_id", "sort_order"])
    .unique()
    .execute();
  await db.schema.dropIndex("order_tickets_order").execute();
  // A basket's standing places are read through its holds (the basket's snapshot, the seat
  // limit), as its seats are through seat_claims_by_hold: without this, every standing claim of
  // every performance is read on each checkout request.
  await db.schema.createIndex("standing_claims_by_hold").on("standing_claims").column("hold_id").execute();
}
