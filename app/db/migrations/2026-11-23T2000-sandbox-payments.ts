import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The sandbox gateway's own payments, in the store rather than in one process's memory: a real
  // provider keeps them on its side, so a restarted server, or a second one sharing the database,
  // must find a payment the buyer authorised at the sandbox's bank while another process waited.
  // Never the card: only its brand and last four digits.
  await db.schema
    .createTable("sandbox_payments")
    .addColumn("reference", "text", (c) => c.primaryKey())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("brand", "text")
    .addColumn("last4", "text")
    .addColumn("return_url", "text", (c) => c.notNull())
    .addColumn("cancel_url", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("asked", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("exit_url", "text")
    .addColumn("captured", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("refunded", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("voided", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("sandbox_payments_created").on("sandbox_payments").column("created_at").execute();

  // When the reconciler last asked the gateway about an attempt that ended without a charge
  // (timed out, failed): each is checked once for an authorisation left behind, then never again.
  await db.schema.alterTable("order_payments").addColumn("reconciled_at", "text").execute();
  await db.schema
    .createIndex("order_payments_status_created")
    .on("order_payments")
    .columns(["status", "created_at"])
    .execute();
}
