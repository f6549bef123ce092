import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One row per waiting room: the next place to give out, and when its pre-queue was shuffled.
  // Every admission locks this row, so two processes never let in more than the room allows.
  await db.schema
    .createTable("queue_rooms")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("next_position", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("shuffled_at", "text")
    .execute();
  // A buyer's place in a room, bound to their session's visitor id: one per room and visitor, so
  // refreshing or coming back finds the same place.
  await db.schema
    .createTable("queue_entries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("room_id", "text", (c) => c.notNull().references("queue_rooms.id"))
    .addColumn("visitor_id", "text", (c) => c.notNull())
    .addColumn("arrived_at", "text", (c) => c.notNull())
    // Null while in the pre-queue: places are drawn at random when the sale opens.
    .addColumn("position", "integer")
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("admitted_at", "text")
    .addColumn("active_until", "text")
    .addUniqueConstraint("queue_entries_room_visitor", ["room_id", "visitor_id"])
    .execute();
  await db.schema
    .createIndex("queue_entries_by_place")
    .on("queue_entries")
    .columns(["room_id", "state", "position"])
    .execute();
  await db.schema
    .createIndex("queue_entries_by_admission")
    .on("queue_entries")
    .columns(["room_id", "admitted_at"])
    .execute();
}
