import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("baskets").addColumn("protection_choice", "integer").execute();
  await db.schema.alterTable("baskets").addColumn("delivery_method_id", "text").execute();
  await db.schema.alterTable("baskets").addColumn("promo_code_id", "text").execute();
  await db.schema.alterTable("baskets").addColumn("last_seen_prices", "text").execute();
  await db.schema.alterTable("seat_claims").addColumn("price_option_id", "text").execute();
  await db.schema.alterTable("standing_claims").addColumn("price_option_id", "text").execute();

  await db.schema
    .createTable("basket_extras")
    .addColumn("basket_id", "text", (c) => c.notNull().references("baskets.id"))
    .addColumn("extra_id", "text", (c) => c.notNull().references("extras.id"))
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("basket_extras_pk", ["basket_id", "extra_id"])
    .execute();

  await db.schema
    .createTable("basket_vouchers")
    .addColumn("basket_id", "text", (c) => c.notNull().references("baskets.id"))
    .addColumn("voucher_id", "text", (c) => c.notNull().references("vouchers.id"))
    .addColumn("applied_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("basket_vouchers_pk", ["basket_id", "voucher_id"])
    .execute();
}
