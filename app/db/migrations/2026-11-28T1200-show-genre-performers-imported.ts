import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // What a search engine's event listing needs and the catalogue did not say (issue 40 item 4): a
  // show's genre (music makes it a MusicEvent) and who performs it (JSON: [{ name, kind }]). And
  // when each show and venue was imported, for the sitemap's lastmod; null for those imported
  // before, whose pages then give only the moments their sales opened.
  // One column at a time: SQLite's ALTER TABLE adds one per statement.
  await db.schema.alterTable("titles").addColumn("genre", "text").execute();
  await db.schema
    .alterTable("titles")
    .addColumn("performers", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await db.schema.alterTable("titles").addColumn("imported_at", "text").execute();
  await db.schema.alterTable("venues").addColumn("imported_at", "text").execute();
}
