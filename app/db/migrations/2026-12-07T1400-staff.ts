import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  // The venue's staff (issue 55, decision 0059), apart from buyers' accounts. Never deleted, only
  // marked removed, so the audit log keeps naming who did what.
  await db.schema
    .createTable("staff_users")
    .addColumn("id", "text", (c) => c.primaryKey())
    // Trimmed and lower-cased: what sign-in matches on.
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('door', 'boxOffice', 'manager')`))
    .addColumn("password_hash", "text", (c) => c.notNull())
    // The TOTP secret (base32). Every role but the door signs in with a one-time code.
    .addColumn("totp_secret", "text")
    // The last time step whose code was accepted: a code is never accepted twice.
    .addColumn("last_totp_step", "bigint")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("removed_at", "text")
    .addCheckConstraint("staff_users_second_factor", sql`role = 'door' or totp_secret is not null`)
    .execute();
  // One current member per email; someone removed and added again is a new row, and the old one
  // still names what they did before.
  await sql`create unique index staff_users_email on staff_users (email) where removed_at is null`.execute(db);

  // A signed-in member of staff. As for buyers, the cookie holds a random token and the store only
  // its SHA-256. Ends at `expires_at`, or when `last_seen_at` is older than the idle limit.
  await db.schema
    .createTable("staff_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("staff_id", "text", (c) => c.notNull().references("staff_users.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("staff_sessions_staff").on("staff_sessions").column("staff_id").execute();

  // What staff did: append-only. The id counts up, so entries read in the order they were written.
  // `staff_id` is null for the operator's command line (no member of staff signed in).
  // `order_id` and `performance_id` have no foreign key: the log outlives anything it names.
  await db.schema
    .createTable("staff_audit")
    .addColumn("id", postgres ? "bigint" : "integer", (c) =>
      postgres ? c.generatedAlwaysAsIdentity().primaryKey() : c.autoIncrement().primaryKey(),
    )
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("staff_id", "text", (c) => c.references("staff_users.id"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("order_id", "text")
    .addColumn("performance_id", "text")
    // JSON: what else the entry needs to say (the address signed in from, the tickets refunded).
    .addColumn("detail", "text", (c) => c.notNull().defaultTo("{}"))
    .execute();
  await db.schema.createIndex("staff_audit_order").on("staff_audit").column("order_id").execute();
  await db.schema.createIndex("staff_audit_staff").on("staff_audit").column("staff_id").execute();

  // No code path can edit or delete the log: the database refuses, whoever asks.
  if (postgres) {
    await sql`
      create function staff_audit_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'staff_audit is append-only: % refused', tg_op;
      end
      $$`.execute(db);
    await sql`
      create trigger staff_audit_no_change before update or delete on staff_audit
      for each row execute function staff_audit_append_only()`.execute(db);
    // TRUNCATE fires no row trigger: refused by a statement trigger of its own.
    await sql`
      create trigger staff_audit_no_truncate before truncate on staff_audit
      for each statement execute function staff_audit_append_only()`.execute(db);
  } else {
    for (const operation of ["update", "delete"]) {
      await sql`
        create trigger ${sql.raw(`staff_audit_no_${operation}`)} before ${sql.raw(operation)} on staff_audit
        begin
          select raise(abort, ${sql.lit(`staff_audit is append-only: ${operation} refused`)});
        end`.execute(db);
    }
  }
}
