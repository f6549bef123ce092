import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Seats suited to access services (issue 43): the services a seat suits, comma-separated from
  // the catalogue's fixed set ("captioned,signed"; empty for none), as a performance's are. A
  // seat's own fact, read with the rest of its price plan's seats once and kept (decision 0049).
  await db.schema
    .alterTable("seats")
    .addColumn("suits", "text", (c) => c.notNull().defaultTo(""))
    .execute();
}
