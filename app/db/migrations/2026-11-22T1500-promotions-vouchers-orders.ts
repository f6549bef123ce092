import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("promo_codes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("rule_key", "text", (c) => c.notNull())
    .addColumn("percent", "integer")
    .addColumn("amount", "integer")
    .addColumn("currency", "text")
    .addColumn("price_option_kind", "text")
    .addColumn("special_face_value", "integer")
    .addColumn("scope_kind", "text", (c) => c.notNull())
    .addColumn("scope_ref", "text")
    .addColumn("valid_from", "text", (c) => c.notNull())
    .addColumn("valid_until", "text", (c) => c.notNull())
    .addColumn("usage_limit", "integer")
    .addColumn("used_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("vouchers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("balance", "integer", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addCheckConstraint("vouchers_balance_not_negative", sql`balance >= 0`)
    .execute();

  await db.schema
    .createTable("voucher_movements")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("voucher_id", "text", (c) => c.notNull().references("vouchers.id"))
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("order_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("voucher_movements_by_voucher").on("voucher_movements").column("voucher_id").execute();

  await db.schema
    .createTable("guess_attempts")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("failures", "integer", (c) => c.notNull())
    .addColumn("first_failure_at", "text", (c) => c.notNull())
    .addColumn("locked_until", "text")
    .execute();

  await db.schema
    .createTable("orders")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("basket_id", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("customer_name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("performance_id", "text", (c) => c.references("performances.id"))
    .addColumn("show_name", "text", (c) => c.notNull())
    .addColumn("delivery_method", "text")
    .addColumn("lines", "text", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("to_pay", "integer", (c) => c.notNull())
    .addColumn("promo_code_id", "text", (c) => c.references("promo_codes.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("order_payments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id"))
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("amount", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("provider_reference", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_payments_by_order").on("order_payments").column("order_id").execute();
}
