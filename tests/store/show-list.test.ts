import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { createCatalogue } from "~/ticketing/catalogue.server";
import { loadDemoCatalogue } from "~/ticketing/demo.server";
import { ROOT } from "../support/app";
import { DEMO_NOW } from "../support/demo-journey";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// The list of shows on sale (home and venue pages), over the demo catalogue's several venues.
describe.each(DIALECTS)("the show list on %s", (dialect) => {
  let store: TestStore;
  const clock = fixedClock(DEMO_NOW);
  beforeAll(async () => {
    store = await createTestStore(dialect);
    await loadDemoCatalogue(store, clock, ROOT);
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
});
