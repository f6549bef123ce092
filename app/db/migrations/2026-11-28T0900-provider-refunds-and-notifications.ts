import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The sandbox's refunds, one row per refund's idempotency key, as a real provider keeps them: a
  // refund command run twice (a retry after a lost answer) refunds once.
  await db.schema
    .createTable("sandbox_refunds")
    .addColumn("idempotency_key", "text", (c) => c.primaryKey())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  // Every gateway notification (webhook) applied, by the gateway's own event id: providers deliver
  // at least once, so the same event may come twice, or from two servers' points of view at once.
  await db.schema
    .createTable("payment_notifications")
    .addColumn("event_id", "text", (c) => c.primaryKey())
    .addColumn("received_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("payment_notifications_received")
    .on("payment_notifications")
    .column("received_at")
    .execute();
}
