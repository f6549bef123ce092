import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // What a show warns of (issue 43 item 4): schema.org accessibilityHazard values from the
  // catalogue's fixed set, comma-separated in the set's order ("flashing,noSoundHazard"); empty
  // when the catalogue says nothing, which is not the same as saying there is no hazard.
  await db.schema
    .alterTable("titles")
    .addColumn("access_hazards", "text", (c) => c.notNull().defaultTo(""))
    .execute();
}
