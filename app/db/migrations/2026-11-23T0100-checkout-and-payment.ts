import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The buyer's answers to the checkout steps: extras confirmed (even with none chosen), contact
  // details as JSON (never card data).
  await db.schema
    .alterTable("baskets")
    .addColumn("extras_done", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("baskets").addColumn("contacts", "text").execute();

  await db.schema
    .createTable("venue_questions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("venue_id", "text", (c) => c.notNull().references("venues.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("options", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("sort_order", "integer", (c) => c.notNull())
    .execute();

  await db.schema.alterTable("orders").addColumn("contacts", "text").execute();
  await db.schema.alterTable("orders").addColumn("paid_at", "text").execute();
  // The language the buyer used, for the confirmation email.
  await db.schema.alterTable("orders").addColumn("language", "text").execute();
  // The secret in the e-tickets link of the confirmation email: unguessable, never the order number.
  await db.schema.alterTable("orders").addColumn("access_key", "text").execute();
  await db.schema.createIndex("orders_access_key").on("orders").column("access_key").unique().execute();

  // One row per attempt to take money; the idempotency key is what the gateway sees, so a
  // repeated Pay finds the attempt already made instead of making another.
  await db.schema.alterTable("order_payments").addColumn("idempotency_key", "text").execute();
  await db.schema.alterTable("order_payments").addColumn("brand", "text").execute();
  await db.schema.alterTable("order_payments").addColumn("last4", "text").execute();
  await db.schema.alterTable("order_payments").addColumn("action", "text").execute();
  await db.schema.alterTable("order_payments").addColumn("failure", "text").execute();
  await db.schema
    .createIndex("order_payments_idempotency_key")
    .on("order_payments")
    .column("idempotency_key")
    .unique()
    .execute();

  await db.schema
    .createTable("order_tickets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id"))
    .addColumn("ref", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("barcode", "text", (c) => c.notNull().unique())
    .addColumn("sort_order", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_tickets_order").on("order_tickets").column("order_id").execute();

  await db.schema
    .createTable("email_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", "text", (c) => c.notNull())
    .addColumn("order_id", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .execute();
  await db.schema.createIndex("email_outbox_due").on("email_outbox").columns(["status", "next_attempt_at"]).execute();
  // One confirmation per order, however often completion is retried.
  await db.schema
    .createIndex("email_outbox_order_kind")
    .on("email_outbox")
    .columns(["order_id", "kind"])
    .unique()
    .execute();
}
