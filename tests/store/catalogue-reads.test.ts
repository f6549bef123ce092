import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock, type Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import { createCatalogue } from "~/ticketing/catalogue.server";
import { loadDemoCatalogue } from "~/ticketing/demo.server";
import { ROOT } from "../support/app";
import { DEMO_NOW } from "../support/demo-journey";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

const DAY = 24 * 60 * 60_000;

/** What the show and calendar pages ask of a run, as the database answers it: the reference. */
function asked(store: Store, runId: string) {
  const { db } = store;
  const upcoming = (at: string) =>
    db
      .selectFrom("performances")
      .where("run_id", "=", runId)
      .where("starts_at", ">", at)
      .where("status", "=", "on_sale");
  return {
    performances: async (from: Date, to: Date) =>
      (
        await db
          .selectFrom("performances")
          .select("id")
          .where("run_id", "=", runId)
          .where("starts_at", ">=", from.toISOString())
          .where("starts_at", "<", to.toISOString())
          .orderBy("starts_at")
          .execute()
      ).map((row) => row.id),
    next: async (now: Date, limit: number) =>
      (await upcoming(now.toISOString()).select("id").orderBy("starts_at").limit(limit).execute()).map((row) => row.id),
    span: async (now: Date) => {
      const at = now.toISOString();
      const selling = upcoming(at).where("on_sale_until", ">", at);
      const span = await selling
        .select((eb) => [eb.fn.min("starts_at").as("first"), eb.fn.max("starts_at").as("last")])
        .executeTakeFirst();
      if (!span?.first) return null;
      const firstOnSale = await selling
        .select("starts_at")
        .where((eb) =>
          eb.or([
            eb("on_sale_from", "<=", at),
            eb("queue_opens_at", "<=", at),
            eb.and([eb("presale_from", "<=", at), eb("presale_until", ">", at)]),
          ]),
        )
        .orderBy("starts_at")
        .limit(1)
        .executeTakeFirst();
      return { first: String(span.first), last: String(span.last), firstOnSale: firstOnSale?.starts_at ?? null };
    },
    around: async (now: Date, from: Date, to: Date) => {
      const at = now.toISOString();
      const before = await upcoming(at)
        .select("starts_at")
        .where("starts_at", "<", from.toISOString())
        .orderBy("starts_at", "desc")
        .limit(1)
        .executeTakeFirst();
      const after = await upcoming(at)
        .select("starts_at")
        .where("starts_at", ">=", to.toISOString())
        .orderBy("starts_at")
        .limit(1)
        .executeTakeFirst();
      return { before: before?.starts_at ?? null, after: after?.starts_at ?? null };
    },
  };
}

/** The shows on sale, as the database answers it: the reference for the kept list. */
async function showsOnSale(store: Store, now: Date, venueSlug?: string) {
  const { db } = store;
  const onSale = db
    .selectFrom("performances")
    .select((eb) => [
      "performances.run_id",
      eb.fn.min("performances.starts_at").as("first"),
      eb.fn.max("performances.starts_at").as("last"),
    ])
    .where("performances.starts_at", ">", now.toISOString())
    .where("performances.status", "=", "on_sale")
    .groupBy("performances.run_id");
  let query = db
    .selectFrom(onSale.as("on_sale"))
    .innerJoin("runs", "runs.id", "on_sale.run_id")
    .innerJoin("titles", "titles.id", "runs.title_id")
    .innerJoin("venues", "venues.id", "runs.venue_id")
    .select(["titles.slug", "venues.slug as venueSlug", "on_sale.first", "on_sale.last"])
    .orderBy("titles.name")
    .orderBy("venues.name");
  if (venueSlug) query = query.where("venues.slug", "=", venueSlug);
  return (await query.execute()).map((row) => [row.slug, row.venueSlug, String(row.first), String(row.last)]);
}

// What the catalogue answers of the shows on sale (home and venue pages) and of a run's
// performances (show and calendar pages, kept as decision 0024 says), over the demo catalogue's
// several venues.
describe.each(DIALECTS)("the show list and a run's performances on %s", (dialect) => {
  let store: TestStore;
  let runIds: string[];
  const clock = fixedClock(DEMO_NOW);
  beforeAll(async () => {
    store = await createTestStore(dialect);
    await loadDemoCatalogue(store, clock, ROOT);
    // A cancelled performance among them, which only the month's list shows.
    const some = await store.db
      .selectFrom("performances")
      .select(["id", "run_id"])
      .orderBy("starts_at")
      .limit(3)
      .execute();
    await store.db.updateTable("performances").set({ status: "cancelled" }).where("id", "=", some[2]!.id).execute();
    // That run, and runs with a presale and a scheduled on-sale among a few others.
    const special = await store.db
      .selectFrom("performances")
      .select("run_id")
      .where((eb) => eb.or([eb("presale_from", "is not", null), eb("queue_opens_at", "is not", null)]))
      .distinct()
      .execute();
    const others = await store.db.selectFrom("runs").select("id").orderBy("id").limit(4).execute();
    runIds = [...new Set([some[2]!.run_id, ...special.map((row) => row.run_id), ...others.map((run) => run.id)])];
  });
  afterAll(() => store.drop());

  it("lists each show's runs with their first and last performances, and only a venue's when asked", async () => {
    const catalogue = createCatalogue(store, clock);
    const all = await catalogue.listShows(clock.now());
    const venues = new Set(all.flatMap((show) => show.runs.map((run) => run.venueSlug)));
    expect(venues.size).toBeGreaterThan(1);
    for (const run of all.flatMap((show) => show.runs)) {
      expect(run.firstPerformance > clock.now().toISOString()).toBe(true);
      expect(run.firstPerformance <= run.lastPerformance).toBe(true);
    }
    expect(all.map((show) => show.name)).toEqual([...all.map((show) => show.name)].sort());
    const [venue] = [...venues];
    const atVenue = await catalogue.listShows(clock.now(), venue);
    expect(atVenue.length).toBeGreaterThan(0);
    expect(atVenue.every((show) => show.runs.every((run) => run.venueSlug === venue))).toBe(true);
    expect(atVenue.map((show) => show.slug)).toEqual(
      all.filter((show) => show.runs.some((run) => run.venueSlug === venue)).map((show) => show.slug),
    );
  });

  it("lists the shows on sale, everywhere and at a venue, as the database does, at any time", async () => {
    const venues = (await store.db.selectFrom("venues").select("slug").orderBy("slug").limit(3).execute()).map(
      (venue) => venue.slug,
    );
    let listed = 0;
    for (const offsetDays of [-30, 0, 3, 45, 400]) {
      const now = new Date(clock.now().getTime() + offsetDays * DAY);
      const catalogue = createCatalogue(store, fixedClock(now.toISOString()));
      for (const venue of [undefined, ...venues]) {
        const shows = await catalogue.listShows(now, venue);
        const flat = shows.flatMap((show) =>
          show.runs.map((run) => [show.slug, run.venueSlug, run.firstPerformance, run.lastPerformance]),
        );
        expect(flat, `${venue ?? "everywhere"} at ${now.toISOString()}`).toEqual(await showsOnSale(store, now, venue));
        listed += flat.length;
      }
    }
    expect(listed).toBeGreaterThan(10);
  });

  it("answers the month, the next performances, the span and the months around as the database does", async () => {
    let compared = 0;
    for (const offsetDays of [-30, 0, 3, 45, 400]) {
      const now = new Date(clock.now().getTime() + offsetDays * DAY);
      const at: Clock = fixedClock(now.toISOString());
      const catalogue = createCatalogue(store, at);
      for (const runId of runIds) {
        const reference = asked(store, runId);
        const from = new Date(now.getTime() + 10 * DAY);
        const to = new Date(now.getTime() + 40 * DAY);
        expect((await catalogue.performances(runId, from, to)).map((p) => p.id)).toEqual(
          await reference.performances(from, to),
        );
        expect((await catalogue.nextPerformances(runId, now, 4)).map((p) => p.id)).toEqual(
          await reference.next(now, 4),
        );
        expect(await catalogue.runSpan(runId, now), `${runId} at ${now.toISOString()}`).toEqual(
          await reference.span(now),
        );
        expect(await catalogue.performancesAround(runId, now, from, to)).toEqual(await reference.around(now, from, to));
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(10);
  });
});
