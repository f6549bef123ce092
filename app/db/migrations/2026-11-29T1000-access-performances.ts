import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Access performances (issue 43): the services a performance carries, comma-separated from the
  // catalogue's fixed set ("captioned,audio-described"; empty for none, so a filter is a LIKE on
  // one column in both dialects), and the buyer's notes about them.
  // One column at a time: SQLite's ALTER TABLE adds one per statement.
  await db.schema
    .alterTable("performances")
    .addColumn("access_services", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.alterTable("performances").addColumn("access_notes", "text").execute();
}
