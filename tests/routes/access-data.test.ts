import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { loader as accessLoader } from "~/routes/access";
import { loader as calendarLoader } from "~/routes/calendar";
import { loader as showLoader } from "~/routes/show";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { testContext } from "../support/app";
import { smallCatalogue } from "../support/catalogue";

// Issue 43 item 4, "the page data names the services": what the calendar, show and /access
// loaders hand the page (and so anything that reads a page's data) names each service by its key
// and its words in the buyer's language, and the show's schema.org data says its hazards and sums
// up its access performances. The small catalogue imported on Monday 23 November 2026 at a UK
// hall: Wednesday 25 is audio-described with a touch tour, Thursday 26 signed and relaxed,
// Friday 27 captioned; the show warns of flashing lights and says it has no sudden loud noises.

const clock = fixedClock("2026-11-23T10:00:00.000Z");
const SHOW = { titleSlug: "test-show", venueSlug: "test-hall" };
const request = (path: string) => new Request(`http://localhost${path}?lng=en-US`);

describe("access services and hazards in the page data (en-US, at a UK venue)", () => {
  let context: Awaited<ReturnType<typeof testContext>>;
  beforeAll(async () => {
    context = await testContext({}, clock);
    const file = smallCatalogue();
    const show = file.shows[0]! as Record<string, unknown> & (typeof file.shows)[number];
    show.hazards = ["noSoundHazard", "flashing"];
    (show.runs[0] as Record<string, unknown>).access = [
      { days: "2", services: ["touch-tour", "audio-described"], notes: "Touch tour at 18:00." },
      { days: "3", services: ["signed", "relaxed"] },
      { days: "4", services: ["captioned"] },
    ];
    await importCatalogue(context.store, file, clock);
  });
  afterAll(() => context.close());

  const AUDIO_DESCRIBED = [
    { service: "audio-described", words: "Audio described", mark: "AD" },
    { service: "touch-tour", words: "Touch tour", mark: "TT" },
  ];
  // The interpreter signs the venue's language; "captioned" is worded as the buyer's language does.
  const SIGNED = [
    { service: "signed", words: "BSL interpreted", mark: "BSL" },
    { service: "relaxed", words: "Relaxed performance", mark: "RP" },
  ];
  const CAPTIONED = [{ service: "captioned", words: "Open captioned", mark: "OC" }];

  it("the calendar's performances name their services and words", async () => {
    const { data: page } = await calendarLoader({
      request: request("/shows/test-show/test-hall/calendar/2026-11-01"),
      params: { ...SHOW, date: "2026-11-01" },
      context,
    });
    const byDay = Object.fromEntries(page.performances.map((performance) => [performance.day, performance.access]));
    expect(byDay).toMatchObject({
      "2026-11-24": [],
      "2026-11-25": AUDIO_DESCRIBED,
      "2026-11-26": SIGNED,
      "2026-11-27": CAPTIONED,
    });
  });

  it("the show page's data names them, lists the next ones and words the hazards; its JSON-LD says both", async () => {
    const page = await showLoader({ request: request("/shows/test-show/test-hall"), params: SHOW, context });
    expect(page.performances.slice(0, 4).map((performance) => performance.access)).toEqual([
      [],
      AUDIO_DESCRIBED,
      SIGNED,
      CAPTIONED,
    ]);
    expect(page.accessNext.map((performance) => performance.services)).toEqual([AUDIO_DESCRIBED, SIGNED, CAPTIONED]);
    expect(page.accessNext[0]).toMatchObject({ notes: "Touch tour at 18:00.", bookable: true });
    expect(page.accessHref).toBe("/access");
    // In schema.org's order, whatever the catalogue's.
    expect(page.show.hazards).toEqual([
      { hazard: "flashing", words: "Contains flashing lights, including strobe lights" },
      { hazard: "noSoundHazard", words: "No sudden loud noises" },
    ]);

    const events = page.structuredData.slice(0, 4) as Record<string, unknown>[];
    for (const event of events) expect(event.accessibilityHazard).toEqual(["flashing", "noSoundHazard"]);
    expect(events.map((event) => event.accessibilitySummary ?? null)).toEqual([
      null,
      "Access: Audio described, Touch tour. Touch tour at 18:00.",
      "Access: BSL interpreted, Relaxed performance",
      "Access: Open captioned",
    ]);
    // A touch tour is the vocabulary's tactileObject (issue 56 item 7)…
    expect(events.map((event) => event.accessibilityFeature ?? null)).toEqual([
      null,
      ["audioDescription", "tactileObject"],
      ["signLanguage"],
      ["captions"],
    ]);
    // …and a relaxed performance, which it has no word for, says whom it is for, in the page's words.
    expect(events.map((event) => event.audience ?? null)).toEqual([
      null,
      null,
      [{ "@type": "Audience", audienceType: "Relaxed performance" }],
      null,
    ]);
  });

  it("/access names them, and one venue's page is its own or a 404", async () => {
    const page = await accessLoader({ request: request("/access"), params: {}, context });
    expect(page.heading).toBe("Access performances");
    expect(page.performances.map((performance) => performance.services)).toEqual([AUDIO_DESCRIBED, SIGNED, CAPTIONED]);
    const venue = await accessLoader({
      request: new Request("http://localhost/access?venue=test-hall&lng=en-US"),
      params: {},
      context,
    });
    expect(venue.heading).toBe("Access performances at Test Hall");
    expect(venue.performances).toEqual(page.performances);
    for (const asked of ["elsewhere", "Not a slug!"]) {
      await expect(
        accessLoader({ request: new Request(`http://localhost/access?venue=${asked}`), params: {}, context }),
      ).rejects.toMatchObject({ status: 404 });
    }
  });
});

describe("/access on a single venue's site", () => {
  it("lists that venue's without a list of venues, and any other venue is a 404", async () => {
    const context = await testContext({ ROUTING_TYPE: "SINGLE_VENUE", VENUE_SLUG: "test-hall" }, clock);
    try {
      const file = smallCatalogue();
      (file.shows[0]!.runs[0] as Record<string, unknown>).access = [{ days: "2", services: ["relaxed"] }];
      const other = structuredClone(file.venues[0]!);
      file.venues.push({ ...other, slug: "other-hall", name: "Other Hall" });
      await importCatalogue(context.store, file, clock);
      const load = (query: string) =>
        accessLoader({ request: new Request(`http://localhost/access${query}`), params: {}, context });
      const page = await load("");
      expect(page).toMatchObject({ heading: "Access performances", choices: null });
      expect(page.performances.map((performance) => performance.venueSlug)).toEqual(["test-hall"]);
      expect((await load("?venue=test-hall")).heading).toBe("Access performances at Test Hall");
      await expect(load("?venue=other-hall")).rejects.toMatchObject({ status: 404 });
    } finally {
      await context.close();
    }
  });
});
