import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // A customer account: the email is stored as typed, and matched by its normalised form.
  await db.schema
    .createTable("customers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("email_key", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn("phone", "text")
    // The saved delivery address (Address) as JSON, for post and mail.
    .addColumn("address", "text")
    .addColumn("contact_consent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // A signed-in browser. The cookie holds a random token; only its SHA-256 is stored, so a copy
  // of the database signs no one in. A new row (a new id) on every sign-in.
  await db.schema
    .createTable("auth_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("customer_id", "text", (c) => c.notNull().references("customers.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("auth_sessions_customer").on("auth_sessions").column("customer_id").execute();

  // Emailed password-reset links: single use, short-lived, stored as the token's SHA-256.
  await db.schema
    .createTable("password_resets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("customer_id", "text", (c) => c.notNull().references("customers.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("password_resets_customer").on("password_resets").column("customer_id").execute();

  // An order belongs to the customer who was signed in, or who created an account after it.
  await db.schema.alterTable("orders").addColumn("customer_id", "text").execute();
  await db.schema.createIndex("orders_customer").on("orders").column("customer_id").execute();
}
