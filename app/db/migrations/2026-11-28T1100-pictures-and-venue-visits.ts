import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // What a venue page says beyond the address: access, and how to get there (issue 40).
  await db.schema.alterTable("venues").addColumn("access_info", "text").execute();
  await db.schema.alterTable("venues").addColumn("travel_info", "text").execute();
  // A show's own access notes (captioned, relaxed, audio-described performances).
  await db.schema.alterTable("titles").addColumn("access_info", "text").execute();

  // A show's poster and hero picture, as the import made them: the alt text, the largest size's
  // width and height, and every file made from the operator's picture (JSON: format, width,
  // height and the content-hashed file name under DATA_DIR/images).
  await db.schema
    .createTable("title_pictures")
    .addColumn("title_id", "text", (c) => c.notNull().references("titles.id"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("alt", "text", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("sources", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("title_pictures_pk", ["title_id", "role"])
    .execute();
}
