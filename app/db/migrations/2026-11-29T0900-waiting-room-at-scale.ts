import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 41 (decision 0044): a waiting room whose cost per request does not grow with its queue,
// and whose admitted place owns one basket.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The room's own counters, moved in the transaction that admits or lets go: a request reads
  // them instead of counting the room's rows. Places are given out without gaps and let in in
  // order, so everyone from admitted_through + 1 to next_position - 1 is waiting.
  await db.schema
    .alterTable("queue_rooms")
    .addColumn("admitted_through", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("queue_rooms")
    .addColumn("admitted_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("queue_rooms")
    .addColumn("pre_queued", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // The one basket an admitted place may hold seats in; and a pre-queue entry's random draw,
  // taken from crypto at arrival, so the draw at the on-sale time is one ordered statement.
  await db.schema.alterTable("queue_entries").addColumn("basket_id", "text").execute();
  await db.schema.alterTable("queue_entries").addColumn("draw", "integer").execute();
  // Checkout steps keep or give up a place by the session's visitor id alone.
  await db.schema
    .createIndex("queue_entries_by_visitor")
    .on("queue_entries")
    .columns(["visitor_id", "state"])
    .execute();
  // Lapsed admissions are found without reading the room's waiting rows.
  await db.schema
    .createIndex("queue_entries_by_lapse")
    .on("queue_entries")
    .columns(["room_id", "state", "active_until"])
    .execute();
  // Admissions of the last few minutes, one row per batch: the per-minute limit and the estimate
  // read these, not the entries (departed entries are deleted).
  await db.schema
    .createTable("queue_admissions")
    .addColumn("room_id", "text", (c) => c.notNull().references("queue_rooms.id"))
    .addColumn("admitted_at", "text", (c) => c.notNull())
    .addColumn("admitted", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("queue_admissions_by_room")
    .on("queue_admissions")
    .columns(["room_id", "admitted_at"])
    .execute();

  // Joins counted per client address and per session over a window (fair against bots without
  // script): one row per key, its window restarted when it has passed.
  await db.schema
    .createTable("queue_joins")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("window_started_at", "text", (c) => c.notNull())
    .addColumn("joins", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("queue_joins_by_window").on("queue_joins").column("window_started_at").execute();

  // Rooms in use when this runs: their counters from their rows, once.
  await sql`insert into queue_admissions (room_id, admitted_at, admitted)
    select room_id, admitted_at, 1 from queue_entries where admitted_at is not null`.execute(db);
  await sql`delete from queue_entries where state = 'left'`.execute(db);
  await sql`update queue_rooms set
    admitted_count = (select count(*) from queue_entries e where e.room_id = queue_rooms.id and e.state = 'admitted'),
    pre_queued = (select count(*) from queue_entries e where e.room_id = queue_rooms.id and e.position is null),
    admitted_through = coalesce(
      (select min(e.position) - 1 from queue_entries e
        where e.room_id = queue_rooms.id and e.state = 'waiting' and e.position is not null),
      next_position - 1)`.execute(db);
}
