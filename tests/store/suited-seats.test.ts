import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { catalogueFile, type CatalogueInput } from "~/ticketing/catalogue-file";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { GUEST } from "~/ticketing/inventory.server";
import { createSeatMaps } from "~/ticketing/seat-map.server";
import { createSeatSearch } from "~/ticketing/seat-search.server";
import { expandSeatMap } from "~/ticketing/seat-map";
import { decodeSeats, SUITS_SHIFT, type SeatMapView } from "~/views/seat-map";
import { problemsOf, smallCatalogue } from "../support/catalogue";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// Issue 43 item 3: seats suited to an access service, named by the catalogue, stored with the
// seat, marked on the seat map and preferred by best available only on performances that carry
// the service. The small catalogue's day 1 (Tuesday) is captioned, day 3 (Thursday) signed.

const clock = fixedClock("2026-11-23T10:00:00.000Z");

function withSuitedSeats(suitedSeats: unknown[]): CatalogueInput {
  const file = smallCatalogue() as CatalogueInput;
  (file.venues![0]!.seatMap as Record<string, unknown>).suitedSeats = suitedSeats;
  (file.shows![0]!.runs[0] as Record<string, unknown>).access = [
    { days: "1", services: ["captioned"] },
    { days: "3", services: ["signed"] },
  ];
  return file;
}

const SUITED = [
  { suits: ["captioned"], section: "Stalls", rows: ["B"], seats: "3-7" },
  { suits: ["signed"], section: "Stalls", seats: "8-9" },
];

/** Each seat of a view as "A3" with the access services it is marked as suited to. */
function marked(view: SeatMapView): Record<string, number> {
  const marks: Record<string, number> = {};
  for (const section of view.sections) {
    if (section.kind !== "seated") continue;
    for (const [row, encoded] of section.rows)
      for (const [, label, , , , flags] of decodeSeats(encoded))
        if (flags >> SUITS_SHIFT) marks[`${row}${label}`] = flags >> SUITS_SHIFT;
  }
  return marks;
}

describe.each(DIALECTS)("seats suited to access services on %s", (dialect) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore(dialect);
  });
  afterAll(() => store.drop());

  it("refuses an unknown service, a part of the house, row or seat the map does not have, and loads nothing", async () => {
    const file = withSuitedSeats([
      { suits: ["captioned", "front-row"], section: "Stalls" },
      { suits: ["signed"], section: "Balcony" },
      { suits: ["signed"], section: "Standing" },
      { suits: ["relaxed"], section: "Stalls", rows: ["A", "Z"] },
      { suits: ["relaxed"], section: "Stalls", rows: ["B"], seats: "9-11" },
    ]);
    expect(await problemsOf(importCatalogue(store, file, clock))).toEqual([
      'venues[0] "test-hall" › seatMap.suitedSeats[0].suits[1]: unknown access service "front-row": use one of captioned, audio-described, signed, relaxed, touch-tour, dementia-friendly, chill-out-space',
    ]);
    file.venues![0]!.seatMap.suitedSeats!.shift();
    expect(await problemsOf(importCatalogue(store, file, clock))).toEqual([
      'venues[0] "test-hall" › seatMap.suitedSeats[0].section: no seated section "Balcony" in this seat map',
      'venues[0] "test-hall" › seatMap.suitedSeats[1].section: no seated section "Standing" in this seat map',
      'venues[0] "test-hall" › seatMap.suitedSeats[2].rows: no row Z in Stalls',
      'venues[0] "test-hall" › seatMap.suitedSeats[3].seats: names a seat row B of Stalls does not have',
    ]);
    expect(await store.db.selectFrom("seats").selectAll().execute()).toEqual([]);
  });

  describe("imported", () => {
    let captioned: string;
    let signed: string;
    let plain: string;
    beforeAll(async () => {
      await importCatalogue(store, withSuitedSeats(SUITED), clock);
      const performances = await store.db
        .selectFrom("performances")
        .select(["id", "access_services"])
        .orderBy("starts_at")
        .execute();
      [captioned, , signed] = performances.map((performance) => performance.id) as [string, string, string];
      plain = performances[1]!.id;
      expect(performances.slice(0, 3).map((performance) => performance.access_services)).toEqual([
        "captioned",
        "",
        "signed",
      ]);
    });

    it("stores the services each seat suits, in the set's order", async () => {
      const seats = await store.db
        .selectFrom("seats")
        .select(["row_name", "label", "suits"])
        .where("suits", "!=", "")
        .orderBy("id")
        .execute();
      expect(seats.map((seat) => `${seat.row_name}${seat.label} ${seat.suits}`)).toEqual([
        "A8 signed",
        "A9 signed",
        "B3 captioned",
        "B4 captioned",
        "B5 captioned",
        "B6 captioned",
        "B7 captioned",
        "B8 signed",
        "B9 signed",
      ]);
    });

    it("marks on the seat map the seats suited to the performance's own services, worded by the venue's country", async () => {
      const maps = createSeatMaps(store, clock);
      const view = (performanceId: string) =>
        maps.view({ performanceId, basketId: null, entitlements: GUEST, filter: {} }).then((found) => found!);
      const atCaptioned = await view(captioned);
      expect(atCaptioned.suited).toEqual([
        { service: "captioned", flag: 1 << SUITS_SHIFT, key: "access.seats.captioned" },
      ]);
      expect(marked(atCaptioned)).toEqual({ B3: 1, B4: 1, B5: 1, B6: 1, B7: 1 });
      // Signed is the third service; a UK venue's interpreter signs BSL.
      const atSigned = await view(signed);
      expect(atSigned.suited).toEqual([
        { service: "signed", flag: 1 << (SUITS_SHIFT + 2), key: "access.seats.signedIn.GB" },
      ]);
      expect(Object.keys(marked(atSigned))).toEqual(["A8", "A9", "B8", "B9"]);
      // The same price plan without the service: nothing marked.
      const atPlain = await view(plain);
      expect(atPlain.suited).toEqual([]);
      expect(marked(atPlain)).toEqual({});
    });

    it("prefers suited seats in best available only where the performance carries the service", async () => {
      const search = createSeatSearch(store, clock);
      const rowsOf = async (performanceId: string, prefer: ("captioned" | "signed")[]) => {
        const found = await search.search(performanceId, { quantity: 2, prefer });
        if (!found || "ok" in found) throw new Error("no seats");
        const seats = await store.db
          .selectFrom("seats")
          .select(["row_name", "label"])
          .where("id", "in", found.seatIds)
          .orderBy("id")
          .execute();
        return { seats: seats.map((seat) => `${seat.row_name}${seat.label}`), suited: found.suited };
      };
      // Row A is the better row; asked, the captioned performance offers its suited seats in B.
      expect((await rowsOf(captioned, [])).seats.every((seat) => seat.startsWith("A"))).toBe(true);
      const suited = await rowsOf(captioned, ["captioned"]);
      expect(suited.suited).toBe(true);
      expect(suited.seats.every((seat) => /^B[3-7]$/.test(seat))).toBe(true);
      // A performance without captions: the wish is dropped, the best seats offered as ever.
      const plainSeats = await rowsOf(plain, ["captioned"]);
      expect(plainSeats.suited).toBeUndefined();
      expect(plainSeats.seats.every((seat) => seat.startsWith("A"))).toBe(true);
    });
  });
});

describe("the demo catalogue's suited seats", () => {
  it("are at every venue with captioned, audio-described or signed performances, for the services it has", () => {
    const demo = catalogueFile.parse(JSON.parse(readFileSync("catalogue/demo.json", "utf8")));
    for (const venue of demo.venues) {
      const offered = new Set(
        demo.shows.flatMap((show) =>
          show.runs
            .filter((run) => run.venue === venue.slug)
            .flatMap((run) => run.access.flatMap((entry) => entry.services)),
        ),
      );
      const suits = new Set(
        expandSeatMap(venue.seatMap.sections, venue.seatMap.suitedSeats).flatMap((section) =>
          section.seats.flatMap((seat) => seat.suits),
        ),
      );
      for (const service of ["captioned", "audio-described", "signed"] as const)
        expect({ venue: venue.slug, service, suited: suits.has(service) }).toEqual({
          venue: venue.slug,
          service,
          suited: offered.has(service),
        });
    }
  });
});
