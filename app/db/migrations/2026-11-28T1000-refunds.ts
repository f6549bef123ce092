import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One row per refund asked for, written before the provider is called: a run that dies after
  // the provider's answer finds its row pending and finishes it with the same idempotency key,
  // so the provider refunds once. `request_key` is what the operator asked for (the order and its
  // tickets); a refusal leaves it free to be tried again under a new idempotency key.
  await db.schema
    .createTable("refunds")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id"))
    .addColumn("request_key", "text", (c) => c.notNull())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("whole", "integer", (c) => c.notNull())
    .addColumn("ticket_ids", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("card_amount", "integer", (c) => c.notNull())
    .addColumn("voucher_parts", "text", (c) => c.notNull())
    .addColumn("reason", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("provider_reference", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("settled_at", "text")
    .execute();
  await db.schema.createIndex("refunds_by_order").on("refunds").column("order_id").execute();
  await db.schema.createIndex("refunds_by_request").on("refunds").column("request_key").execute();

  // A ticket is taken by a refund when the refund is recorded (so two refunds cannot both pay it
  // back) and void once the refund is settled; a refused refund lets it go again.
  await db.schema.alterTable("order_tickets").addColumn("refund_id", "text").execute();
  await db.schema.alterTable("order_tickets").addColumn("voided_at", "text").execute();

  // The order stays "paid" (its payment's life); what has been given back is said beside it.
  await db.schema.alterTable("orders").addColumn("refund_status", "text").execute();
}
