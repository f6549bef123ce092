import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("venues")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("country", "text", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("time_zone", "text", (c) => c.notNull())
    .addColumn("wording_set", "text", (c) => c.notNull())
    .addColumn("support_phone", "text", (c) => c.notNull())
    .addColumn("address_lines", "text", (c) => c.notNull())
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("postcode", "text", (c) => c.notNull())
    .addColumn("region", "text")
    .addColumn("transaction_fee", "integer", (c) => c.notNull())
    .addColumn("protection_fee", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("titles")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("age_guidance", "text", (c) => c.notNull())
    .addColumn("running_time_minutes", "integer", (c) => c.notNull())
    .addColumn("image_url", "text")
    .execute();

  await db.schema
    .createTable("seat_maps")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("venue_id", "text", (c) => c.notNull().references("venues.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sections")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("seat_map_id", "text", (c) => c.notNull().references("seat_maps.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("sort_order", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("capacity", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("seats")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("seat_map_id", "text", (c) => c.notNull().references("seat_maps.id"))
    .addColumn("section_id", "text", (c) => c.notNull().references("sections.id"))
    .addColumn("row_name", "text", (c) => c.notNull())
    .addColumn("row_order", "integer", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("x", "real", (c) => c.notNull())
    .addColumn("y", "real", (c) => c.notNull())
    .addColumn("seat_type", "text", (c) => c.notNull())
    .addColumn("restrictions", "text", (c) => c.notNull())
    .addColumn("quality", "integer", (c) => c.notNull())
    .addColumn("view_note", "text")
    .execute();
  await db.schema
    .createIndex("seats_by_map")
    .on("seats")
    .columns(["seat_map_id", "section_id", "row_order", "position"])
    .execute();

  await db.schema
    .createTable("runs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("title_id", "text", (c) => c.notNull().references("titles.id"))
    .addColumn("venue_id", "text", (c) => c.notNull().references("venues.id"))
    .addColumn("seat_map_id", "text", (c) => c.notNull().references("seat_maps.id"))
    .addUniqueConstraint("runs_title_venue", ["title_id", "venue_id"])
    .execute();

  await db.schema
    .createTable("price_plans")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("run_id", "text", (c) => c.notNull().references("runs.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("price_bands")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("price_plan_id", "text", (c) => c.notNull().references("price_plans.id"))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("sort_order", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("price_plan_seats")
    .addColumn("price_plan_id", "text", (c) => c.notNull().references("price_plans.id"))
    .addColumn("seat_id", "integer", (c) => c.notNull().references("seats.id"))
    .addColumn("price_band_id", "text", (c) => c.notNull().references("price_bands.id"))
    .addPrimaryKeyConstraint("price_plan_seats_pk", ["price_plan_id", "seat_id"])
    .execute();

  await db.schema
    .createTable("price_plan_areas")
    .addColumn("price_plan_id", "text", (c) => c.notNull().references("price_plans.id"))
    .addColumn("section_id", "text", (c) => c.notNull().references("sections.id"))
    .addColumn("price_band_id", "text", (c) => c.notNull().references("price_bands.id"))
    .addPrimaryKeyConstraint("price_plan_areas_pk", ["price_plan_id", "section_id"])
    .execute();

  await db.schema
    .createTable("price_options")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("price_band_id", "text", (c) => c.notNull().references("price_bands.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("face_value", "integer", (c) => c.notNull())
    .addColumn("booking_fee", "integer", (c) => c.notNull())
    .addColumn("sort_order", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("performances")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("run_id", "text", (c) => c.notNull().references("runs.id"))
    .addColumn("price_plan_id", "text", (c) => c.notNull().references("price_plans.id"))
    .addColumn("starts_at", "text", (c) => c.notNull())
    .addColumn("on_sale_from", "text", (c) => c.notNull())
    .addColumn("on_sale_until", "text", (c) => c.notNull())
    .addColumn("presale_from", "text")
    .addColumn("presale_until", "text")
    .addColumn("presale_audience", "text", (c) => c.notNull())
    .addColumn("seat_limit", "integer", (c) => c.notNull())
    .addColumn("notice", "text")
    .addColumn("admission_message", "text")
    .addColumn("timed_entry", "text")
    .addColumn("capacity", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("performances_by_run_start")
    .on("performances")
    .columns(["run_id", "starts_at"])
    .execute();

  await db.schema
    .createTable("extras")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("venue_id", "text", (c) => c.notNull().references("venues.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("price", "integer", (c) => c.notNull())
    .addColumn("sort_order", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("delivery_methods")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("venue_id", "text", (c) => c.notNull().references("venues.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("fee", "integer", (c) => c.notNull())
    .addColumn("countries", "text", (c) => c.notNull())
    .addColumn("sort_order", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("baskets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("holds")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("basket_id", "text", (c) => c.notNull().references("baskets.id"))
    .addColumn("performance_id", "text", (c) => c.notNull().references("performances.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("holds_by_basket").on("holds").column("basket_id").execute();
  await db.schema.createIndex("holds_by_expiry").on("holds").column("expires_at").execute();

  await db.schema
    .createTable("seat_claims")
    .addColumn("performance_id", "text", (c) => c.notNull().references("performances.id"))
    .addColumn("seat_id", "integer", (c) => c.notNull().references("seats.id"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("hold_id", "text", (c) => c.references("holds.id"))
    .addColumn("held_until", "text")
    .addColumn("order_id", "text")
    .addPrimaryKeyConstraint("seat_claims_pk", ["performance_id", "seat_id"])
    .execute();
  await db.schema.createIndex("seat_claims_by_hold").on("seat_claims").column("hold_id").execute();

  await db.schema
    .createTable("standing_claims")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("performance_id", "text", (c) => c.notNull().references("performances.id"))
    .addColumn("section_id", "text", (c) => c.notNull().references("sections.id"))
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("hold_id", "text", (c) => c.references("holds.id"))
    .addColumn("held_until", "text")
    .addColumn("order_id", "text")
    .execute();
  await db.schema
    .createIndex("standing_claims_by_performance")
    .on("standing_claims")
    .columns(["performance_id", "section_id"])
    .execute();
}
