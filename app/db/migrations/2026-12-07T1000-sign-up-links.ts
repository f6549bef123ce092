import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // An emailed link that creates an account once it is followed (issue 53): nothing exists for the
  // email until its owner opens the link and chooses a password. Single use, short-lived, stored
  // as the SHA-256 of the token with this purpose's prefix, like a password reset's.
  await db.schema
    .createTable("sign_up_links")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("email_key", "text", (c) => c.notNull())
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    // The guest order whose confirmation asked for the link: the new account holds it.
    .addColumn("order_id", "text")
    // Where the person was going when they asked (a path on this site, checked when it was given).
    .addColumn("return_to", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("sign_up_links_email").on("sign_up_links").column("email_key").execute();
}
