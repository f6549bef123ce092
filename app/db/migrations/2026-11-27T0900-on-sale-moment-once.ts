import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // A scheduled on-sale's moments were stored twice: on its run's room (pre_queue_from,
  // on_sale_at) and on each of its performances (queue_opens_at, on_sale_from). The performances'
  // are the truth (decision 0029, amended 2026-11-27): they are what a hold is checked against.
  // A room's performances without a queue time take the room's, so no room loses its pre-queue;
  // on_sale_from is kept as it is, being the moment holds were allowed from all along.
  await db
    .updateTable("performances")
    .set((eb) => ({
      queue_opens_at: eb
        .selectFrom("on_sale_rooms")
        .select("on_sale_rooms.pre_queue_from")
        .whereRef("on_sale_rooms.run_id", "=", "performances.run_id"),
    }))
    .where("queue_opens_at", "is", null)
    .where("run_id", "in", db.selectFrom("on_sale_rooms").select("on_sale_rooms.run_id"))
    .execute();
  // One column at a time: SQLite's ALTER TABLE drops one per statement.
  await db.schema.alterTable("on_sale_rooms").dropColumn("pre_queue_from").execute();
  await db.schema.alterTable("on_sale_rooms").dropColumn("on_sale_at").execute();
}
