import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // What the paid membership costs, in each currency the operator sells in (from the catalogue).
  await db.schema
    .createTable("membership_products")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("price", "integer", (c) => c.notNull())
    .addColumn("months", "integer", (c) => c.notNull())
    .addUniqueConstraint("membership_products_kind_currency", ["kind", "currency"])
    .execute();

  // A paid membership period: bought by an order, from starts_at until ends_at. Renewing adds a
  // period that starts when the last one ends.
  await db.schema
    .createTable("memberships")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("customer_id", "text", (c) => c.notNull().references("customers.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("order_id", "text", (c) => c.unique())
    .addColumn("starts_at", "text", (c) => c.notNull())
    .addColumn("ends_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("memberships_customer").on("memberships").columns(["customer_id", "ends_at"]).execute();

  // The access membership: the needs a customer registers once, so they are not asked again.
  await db.schema
    .createTable("access_registrations")
    .addColumn("customer_id", "text", (c) => c.primaryKey().references("customers.id"))
    .addColumn("wheelchair", "integer", (c) => c.notNull())
    .addColumn("companions", "integer", (c) => c.notNull())
    .addColumn("other_needs", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // A basket may carry the paid membership (alone, or beside tickets) and knows who is buying it.
  await db.schema.alterTable("baskets").addColumn("membership_product_id", "text").execute();
}
