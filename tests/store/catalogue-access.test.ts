import { readFileSync } from "node:fs";
import { formatInTimeZone } from "date-fns-tz";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { ACCESS_HAZARDS, ACCESS_SERVICES, catalogueFile } from "~/ticketing/catalogue-file";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { smallCatalogue, problemsOf } from "../support/catalogue";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// A Monday: the small catalogue's day 1 is Tuesday 24 November, day 5 the Saturday with two
// performances (14:30 and 19:30).
const clock = fixedClock("2026-11-23T10:00:00.000Z");

const withAccess = (access: unknown[]) => {
  const file = smallCatalogue();
  (file.shows[0]!.runs[0] as Record<string, unknown>).access = access;
  return file;
};

describe.each(DIALECTS)("access performances in the catalogue on %s", (dialect) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore(dialect);
  });
  afterAll(() => store.drop());

  it("refuses an unknown service, naming it and listing the allowed ones, and loads nothing", async () => {
    const file = withAccess([{ days: "2", services: ["captioned", "hearing-loop"] }]);
    expect(await problemsOf(importCatalogue(store, file, clock))).toEqual([
      'shows[0] "test-show" › runs[0].access[0].services[1]: unknown access service "hearing-loop": use one of captioned, audio-described, signed, relaxed, touch-tour, dementia-friendly, chill-out-space',
    ]);
    expect(await store.db.selectFrom("performances").selectAll().execute()).toEqual([]);
  });

  it("refuses days outside the run's schedule", async () => {
    const file = withAccess([{ days: "6-9", services: ["relaxed"] }]);
    expect(await problemsOf(importCatalogue(store, file, clock))).toEqual([
      'shows[0] "test-show" › runs[0].access[0].days: names a day outside the schedule (days 1 to 7)',
    ]);
  });

  it("accepts each known service, on a range of days or only at some times, with the notes", async () => {
    const file = withAccess([
      { days: "1", services: ["captioned"] },
      { days: "2", services: ["audio-described"], notes: "Touch tour at 18:00, book by phone." },
      { days: "3", services: ["signed"] },
      { days: "4", services: ["relaxed", "chill-out-space"] },
      { days: "5", times: ["14:30"], services: ["touch-tour", "dementia-friendly"] },
      { days: "6-7", services: ["captioned"] },
      { days: "7", services: ["audio-described"] },
    ]);
    await importCatalogue(store, file, clock);
    const performances = await store.db
      .selectFrom("performances")
      .select(["starts_at", "access_services", "access_notes"])
      .orderBy("starts_at")
      .execute();
    expect(
      performances.map((performance) => [
        formatInTimeZone(new Date(performance.starts_at), "Europe/London", "EEE HH:mm"),
        performance.access_services,
        performance.access_notes,
      ]),
    ).toEqual([
      ["Tue 19:30", "captioned", null],
      ["Wed 19:30", "audio-described", "Touch tour at 18:00, book by phone."],
      ["Thu 19:30", "signed", null],
      ["Fri 19:30", "relaxed,chill-out-space", null],
      ["Sat 14:30", "touch-tour,dementia-friendly", null],
      ["Sat 19:30", "", null],
      ["Sun 15:00", "captioned", null],
      ["Mon 19:30", "captioned,audio-described", null],
    ]);
    const stored = new Set(performances.flatMap((performance) => performance.access_services.split(",")));
    for (const service of ACCESS_SERVICES) expect(stored).toContain(service);
  });
});

const withHazards = (hazards: unknown[]) => {
  const file = smallCatalogue();
  (file.shows[0] as Record<string, unknown>).hazards = hazards;
  return file;
};

describe.each(DIALECTS)("a show's hazards in the catalogue on %s", (dialect) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore(dialect);
  });
  afterAll(() => store.drop());

  it("refuses an unknown hazard, naming it and listing schema.org's ones, and loads nothing", async () => {
    expect(await problemsOf(importCatalogue(store, withHazards(["sound", "strobe"]), clock))).toEqual([
      'shows[0] "test-show" › hazards[1]: unknown hazard "strobe": use one of flashing, noFlashingHazard, motionSimulation, noMotionSimulationHazard, sound, noSoundHazard',
    ]);
    expect(await store.db.selectFrom("titles").selectAll().execute()).toEqual([]);
  });

  it("refuses a hazard and its denial together, and one given twice", async () => {
    expect(await problemsOf(importCatalogue(store, withHazards(["flashing", "noFlashingHazard"]), clock))).toEqual([
      'shows[0] "test-show" › hazards[1]: "noFlashingHazard" contradicts "flashing": a show has a hazard or says it has none, not both',
    ]);
    expect(await problemsOf(importCatalogue(store, withHazards(["sound", "sound"]), clock))).toEqual([
      'shows[0] "test-show" › hazards[1]: "sound" is given twice',
    ]);
  });

  it("accepts each hazard and each denial, stored in schema.org's order; none said is none stored", async () => {
    for (const hazards of [
      ["sound", "flashing", "motionSimulation"],
      ["noSoundHazard", "noMotionSimulationHazard", "noFlashingHazard"],
      [],
    ]) {
      const fresh = await createTestStore(dialect);
      try {
        await importCatalogue(fresh, withHazards(hazards), clock);
        const [title] = await fresh.db.selectFrom("titles").select("access_hazards").execute();
        expect(title!.access_hazards.split(",").filter(Boolean)).toEqual(
          ACCESS_HAZARDS.filter((hazard) => hazards.includes(hazard)),
        );
      } finally {
        await fresh.drop();
      }
    }
  });
});

describe("the demo catalogue's access performances", () => {
  it("parses, and offers every service somewhere", () => {
    const demo = catalogueFile.parse(JSON.parse(readFileSync("catalogue/demo.json", "utf8")));
    const offered = new Set(
      demo.shows.flatMap((show) => show.runs.flatMap((run) => run.access.flatMap((entry) => entry.services))),
    );
    expect([...offered].sort()).toEqual([...ACCESS_SERVICES].sort());
    // And a spread of hazards: each said somewhere, and some shows that say nothing.
    const hazards = demo.shows.flatMap((show) => show.hazards);
    expect([...new Set(hazards)].sort()).toEqual([...ACCESS_HAZARDS].sort());
    expect(demo.shows.some((show) => show.hazards.length === 0)).toBe(true);
  });
});
