import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { migrateToLatest } from "~/db/migrate.server";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { createWaitingRooms } from "~/ticketing/waiting-room.server";
import { smallCatalogue } from "../support/catalogue";
import { createTestStore, createTestStoreAt, DIALECTS, type TestStore } from "../support/stores";

// A scheduled on-sale's moments are stored once, on its performances (decision 0029): the run's
// room keeps its limits, and reads its opening and its draw from the performances' sale windows.

const AT = "2026-12-01T10:00:00.000Z";
const QUEUE_OPENS = "2026-12-01T09:30:00.000Z";
const NO_SITE_QUEUE = { activeBuyers: 0, newBuyersPerMinute: null, idleMs: 600_000 };

/** The small catalogue with a scheduled on-sale instead of its presale, or with neither. */
function catalogue(onSale: boolean) {
  const file = smallCatalogue();
  const schedule = file.shows[0]!.runs[0]!.schedule as Record<string, unknown>;
  delete schedule.presale;
  if (onSale) schedule.onSale = { at: AT, preQueueMinutes: 30, activeBuyers: 2, newBuyersPerMinute: 7 };
  return file;
}

describe.each(DIALECTS)("a scheduled on-sale's moments on %s", (dialect) => {
  const clock = fixedClock("2026-11-23T10:00:00.000Z");

  describe("as the importer stores them", () => {
    let store: TestStore;
    beforeAll(async () => {
      store = await createTestStore(dialect);
      await importCatalogue(store, catalogue(true), clock);
    });
    afterAll(() => store.drop());

    it("the room keeps its limits only; the moments are the performances'", async () => {
      expect(await store.db.selectFrom("on_sale_rooms").selectAll().execute()).toEqual([
        { run_id: expect.any(String), active_buyers: 2, new_buyers_per_minute: 7 },
      ]);
      const performances = await store.db.selectFrom("performances").selectAll().execute();
      expect(performances.length).toBeGreaterThan(0);
      for (const performance of performances) {
        expect(performance).toMatchObject({ on_sale_from: AT, queue_opens_at: QUEUE_OPENS });
      }
    });

    it("the room opens and draws when its performances' sale window says, and moves with it", async () => {
      const [first] = await store.db.selectFrom("performances").select(["id", "run_id"]).execute();
      clock.set("2026-12-01T09:29:00.000Z");
      expect(await createWaitingRooms(store, clock, NO_SITE_QUEUE).ruleFor(first!.id)).toBeNull();
      clock.set("2026-12-01T09:40:00.000Z");
      const rooms = createWaitingRooms(store, clock, NO_SITE_QUEUE);
      const rule = {
        id: `run:${first!.run_id}`,
        activeBuyers: 2,
        newBuyersPerMinute: 7,
        onSale: { preQueueFrom: QUEUE_OPENS, at: AT },
      };
      expect(await rooms.ruleFor(first!.id)).toEqual(rule);
      expect(await rooms.rules()).toEqual([rule]);

      // Put back a quarter of an hour: nothing else holds the moment, so the room follows.
      const later = "2026-12-01T10:15:00.000Z";
      await store.db.updateTable("performances").set({ on_sale_from: later }).execute();
      const moved = createWaitingRooms(store, clock, NO_SITE_QUEUE);
      expect((await moved.ruleFor(first!.id))?.onSale).toEqual({ preQueueFrom: QUEUE_OPENS, at: later });
      expect((await moved.rules())[0]?.onSale?.at).toBe(later);
    });
  });

  /**
   * Today's importer writes columns that migrations after this one add (a venue's access and
   * travel, a show's genre and performers, when each was imported, a performance's access services, the services a seat suits, a show's hazards): they are there for the import,
   * and gone again before the migrations under test run, so the store stands as it stood.
   */
  async function withLaterCatalogueColumns(store: TestStore, run: () => Promise<unknown>) {
    const later = {
      venues: ["access_info", "travel_info", "imported_at"],
      titles: ["access_info", "genre", "performers", "imported_at", "access_hazards"],
      performances: ["access_services", "access_notes"],
      seats: ["suits"],
    } as const;
    for (const [table, columns] of Object.entries(later))
      for (const column of columns) await store.db.schema.alterTable(table).addColumn(column, "text").execute();
    await run();
    for (const [table, columns] of Object.entries(later))
      for (const column of columns) await store.db.schema.alterTable(table).dropColumn(column).execute();
  }

  describe("moved by its migration", () => {
    let store: TestStore;
    let runId: string;
    let performanceIds: string[];
    beforeAll(async () => {
      // As the store stood before: the room holding both moments, its performances a copy of them.
      store = await createTestStoreAt(dialect, "2026-11-25T0400-on-sale-rooms");
      clock.set("2026-11-23T10:00:00.000Z");
      await withLaterCatalogueColumns(store, () => importCatalogue(store, catalogue(false), clock));
      const performances = await store.db.selectFrom("performances").select(["id", "run_id"]).orderBy("id").execute();
      runId = performances[0]!.run_id;
      performanceIds = performances.map((performance) => performance.id);
      // The columns this migration drops are no longer in the schema's types.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      await (store.db as Kysely<any>)
        .insertInto("on_sale_rooms")
        .values({
          run_id: runId,
          pre_queue_from: QUEUE_OPENS,
          on_sale_at: AT,
          active_buyers: 2,
          new_buyers_per_minute: null,
        })
        .execute();
      await store.db.updateTable("performances").set({ on_sale_from: AT, queue_opens_at: QUEUE_OPENS }).execute();
      // One without its copy of the queue's opening, as a room added by hand would have left it.
      await store.db
        .updateTable("performances")
        .set({ queue_opens_at: null })
        .where("id", "=", performanceIds[0]!)
        .execute();
      // This one first, then any that came after it.
      expect((await migrateToLatest(store.db))[0]).toBe("2026-11-27T0900-on-sale-moment-once");
    });
    afterAll(() => store.drop());

    it("drops the room's copy and keeps its limits", async () => {
      expect(await store.db.selectFrom("on_sale_rooms").selectAll().execute()).toEqual([
        { run_id: runId, active_buyers: 2, new_buyers_per_minute: null },
      ]);
    });

    it("gives a performance that lacked it the room's pre-queue opening, and leaves the rest as they were", async () => {
      const performances = await store.db
        .selectFrom("performances")
        .select(["on_sale_from", "queue_opens_at"])
        .execute();
      expect(performances).toHaveLength(performanceIds.length);
      for (const performance of performances) {
        expect(performance).toEqual({ on_sale_from: AT, queue_opens_at: QUEUE_OPENS });
      }
    });

    it("the room still opens and draws when it did", async () => {
      clock.set("2026-12-01T09:40:00.000Z");
      expect(await createWaitingRooms(store, clock, NO_SITE_QUEUE).ruleFor(performanceIds[0]!)).toEqual({
        id: `run:${runId}`,
        activeBuyers: 2,
        newBuyersPerMinute: null,
        onSale: { preQueueFrom: QUEUE_OPENS, at: AT },
      });
    });
  });
});
