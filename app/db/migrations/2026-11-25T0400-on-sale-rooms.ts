import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // A run's scheduled on-sale (the catalogue file's schedule.onSale): its waiting room's limits.
  await db.schema
    .createTable("on_sale_rooms")
    .addColumn("run_id", "text", (c) => c.primaryKey().references("runs.id"))
    .addColumn("pre_queue_from", "text", (c) => c.notNull())
    .addColumn("on_sale_at", "text", (c) => c.notNull())
    .addColumn("active_buyers", "integer", (c) => c.notNull())
    .addColumn("new_buyers_per_minute", "integer")
    .execute();
  // When a performance's waiting room opens, before its sale: its calendar then links to it, as
  // part of its sale window (sale-window.ts), without a join on every calendar read.
  await db.schema.alterTable("performances").addColumn("queue_opens_at", "text").execute();
}
