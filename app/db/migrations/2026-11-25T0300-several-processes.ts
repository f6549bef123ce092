import { PostgresAdapter, sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One row per periodic job (the hold sweeper, the payment reconciler, the email outbox): the
  // process that may run it until `until`, so several processes on one database do not all wake
  // and race for the same rows (decision 0030).
  await db.schema
    .createTable("job_leases")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("until", "text", (c) => c.notNull())
    .execute();

  // PostgreSQL tells every listening process which performance's claims changed, as part of the
  // commit that changed them: no statement more per hold, nothing said for a rolled-back one,
  // and a claim written by anything else (a script, a box-office system) is heard as well.
  // Notifications of one transaction with the same text are sent once. SQLite processes watch
  // the file's data version instead (app/db/change-feed.server.ts).
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create function notify_claims_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform pg_notify('claims_changed', old.performance_id);
      else
        perform pg_notify('claims_changed', new.performance_id);
        if tg_op = 'UPDATE' and old.performance_id <> new.performance_id then
          perform pg_notify('claims_changed', old.performance_id);
        end if;
      end if;
      return null;
    end
    $$`.execute(db);
  for (const table of ["seat_claims", "standing_claims"]) {
    await sql`
      create trigger ${sql.raw(`${table}_notify`)}
      after insert or update or delete on ${sql.table(table)}
      for each row execute function notify_claims_changed()`.execute(db);
  }
}
