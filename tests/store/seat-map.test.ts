import { describe, expect, it } from "vitest";
import type { CatalogueInput } from "~/ticketing/catalogue-file";
import { GUEST, type Entitlements, type Inventory } from "~/ticketing/inventory.server";
import { createSeatMaps, type SeatMaps } from "~/ticketing/seat-map.server";
import {
  COMPANION,
  decodeSeats,
  encodeSeats,
  FILTERED,
  isSelectable,
  PACKAGE,
  POSITION_SCALE,
  PROMOTIONAL,
  SPONSORED,
  seatState,
  WHEELCHAIR,
  ACCESS,
  type SeatedSection,
  type SeatMapView,
  type StandingSection,
} from "~/views/seat-map";
import { smallCatalogue } from "../support/catalogue";
import { useSeededStore, type SeededStore } from "../support/engine";
import { DIALECTS, type TestStore } from "../support/stores";

const ACCESS_BUYER: Entitlements = {
  restrictions: new Set(["amex", "wheelchair", "accessZone"]),
  presale: new Set(),
  companions: 1,
};

/** The small catalogue with a restricted-view pair and a package seat in row B. */
function catalogueWithNotes(): CatalogueInput {
  const catalogue = smallCatalogue() as CatalogueInput;
  const stalls = catalogue.venues![0]!.seatMap.sections[0]!;
  if (stalls.kind !== "seated") throw new Error("the small catalogue starts with seated stalls");
  stalls.rows[1]!.exceptions!.push(
    { seats: "3-4", viewNote: "Pillar on the left" },
    { seats: "5", type: "package", restrictions: ["package"] },
  );
  return catalogue;
}

function seatOf(view: SeatMapView, row: string, label: string) {
  for (const section of view.sections) {
    if (section.kind !== "seated") continue;
    const encoded = section.rows.find(([name]) => name === row)?.[1];
    const seats = encoded === undefined ? undefined : decodeSeats(encoded);
    const seat = seats?.find((candidate) => candidate[1] === label);
    if (seat) return { id: seat[0], x: seat[2], band: seat[4], flags: seat[5], note: seat[6] };
  }
  throw new Error(`no seat ${row}${label}`);
}

const stateOf = (view: SeatMapView, row: string, label: string) => seatState(seatOf(view, row, label).flags);

describe.each(DIALECTS)("the seat map read model on %s", (dialect) => {
  let store: TestStore;
  let seed: SeededStore["seed"];
  let inventory: Inventory;
  let seatMaps: SeatMaps;
  let performanceId: string;
  const view = (options: Partial<Parameters<SeatMaps["view"]>[0]> = {}) =>
    seatMaps.view({ performanceId, basketId: null, entitlements: GUEST, filter: {}, ...options });

  useSeededStore(
    dialect,
    (made) => {
      ({ store, seed, inventory } = made);
      seatMaps = createSeatMaps(store, seed.clock);
      performanceId = seed.onSale.id;
    },
    catalogueWithNotes(),
  );

  it("is undefined for a performance that does not exist", async () => {
    expect(await view({ performanceId: "00000000-0000-0000-0000-000000000000" })).toBeUndefined();
  });

  it("lists the bands with their all-in price, options and a style each, and the parts of the house", async () => {
    const map = (await view())!;
    expect(map.currency).toBe("GBP");
    expect(map.bands.map((band) => [band.code, band.name, band.price, band.style])).toEqual([
      // Full Price face value + booking fee: what the basket charges before another option is chosen.
      ["A", "Band A", 6800, 0],
      ["B", "Band B", 4750, 1],
      ["S", "Standing", 2700, 2],
    ]);
    expect(
      map.bands[0]!.options.map((option) => [option.kind, option.label, option.faceValue, option.bookingFee]),
    ).toEqual([
      ["full", "Full Price", 6500, 300],
      ["concession", "Concession", 5000, 300],
      ["member", "Member", 6000, 300],
    ]);
    expect(map.priceRange).toEqual({ min: 2700, max: 6800 });
    expect(map.sections.map((section) => [section.name, section.kind])).toEqual([
      ["Stalls", "seated"],
      ["Standing", "standing"],
    ]);
    expect(map.filterSections.map((section) => section.name)).toEqual(["Stalls", "Standing"]);
    const stalls = map.sections[0] as SeatedSection;
    expect(stalls.rows.map(([name, seats]) => [name, decodeSeats(seats).map((seat) => seat[1])])).toEqual([
      ["A", ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]],
      ["B", ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]],
    ]);
    // Seats are drawn left to right, in tenths of a seat width; the aisle after seat 5 leaves a gap.
    const xs = decodeSeats(stalls.rows[0]![1]).map((seat) => seat[2]);
    expect(xs[1]! - xs[0]!).toBe(POSITION_SCALE);
    expect(xs[5]! - xs[4]!).toBe(2 * POSITION_SCALE);
    expect(map.minX).toBe(Math.min(...xs));
    expect(map.maxX).toBe(Math.max(...xs));
  });

  it("marks seat types, sponsored seats and restricted views", async () => {
    const map = (await view())!;
    expect(seatOf(map, "A", "1").flags & WHEELCHAIR).toBeTruthy();
    expect(seatOf(map, "A", "2").flags & COMPANION).toBeTruthy();
    expect(seatOf(map, "A", "10").flags & ACCESS).toBeTruthy();
    expect(seatOf(map, "B", "1").flags & SPONSORED).toBeTruthy();
    expect(seatOf(map, "B", "2").flags & PROMOTIONAL).toBeTruthy();
    expect(seatOf(map, "B", "5").flags & PACKAGE).toBeTruthy();
    expect(seatOf(map, "A", "5").flags & ~0b11).toBe(0);
    expect(map.notes).toEqual(["Pillar on the left"]);
    expect(seatOf(map, "B", "3").note).toBe(0);
    expect(seatOf(map, "B", "4").note).toBe(0);
    expect(seatOf(map, "B", "6").note).toBeUndefined();
    expect(seatOf(map, "A", "3").band).toBe(0);
    expect(seatOf(map, "B", "3").band).toBe(1);
  });

  it("locks restricted seats the buyer is not entitled to; amex seats are open to anyone", async () => {
    const guest = (await view())!;
    expect(stateOf(guest, "A", "1")).toBe("locked");
    expect(stateOf(guest, "A", "10")).toBe("locked");
    expect(stateOf(guest, "B", "2")).toBe("locked");
    expect(stateOf(guest, "B", "5")).toBe("locked");
    expect(stateOf(guest, "B", "1")).toBe("free");
    expect(stateOf(guest, "A", "2")).toBe("free");
    const access = (await view({ entitlements: ACCESS_BUYER }))!;
    expect(stateOf(access, "A", "1")).toBe("free");
    expect(stateOf(access, "A", "10")).toBe("free");
    expect(stateOf(access, "B", "2")).toBe("locked");
  });

  it("shows held seats as this basket's or taken, sold and withheld seats as taken", async () => {
    const [a5, a6, b3] = [seed.seat("A", "5"), seed.seat("A", "6"), seed.seat("B", "3")];
    expect(await inventory.holdSeats({ basketId: "basket-1", performanceId, seatIds: [a5, a6] })).toMatchObject({
      ok: true,
    });
    expect(await inventory.holdSeats({ basketId: "basket-1", performanceId, seatIds: [b3] })).toMatchObject({
      ok: true,
    });
    // Another buyer's seat, sold.
    const other = await inventory.holdSeats({ basketId: "basket-2", performanceId, seatIds: [seed.seat("B", "7")] });
    expect(other.ok && (await inventory.sellHold(other.holdId, "order-1"))).toMatchObject({ ok: true });

    const mine = (await view({ basketId: "basket-1" }))!;
    expect(stateOf(mine, "A", "5")).toBe("mine");
    expect(stateOf(mine, "A", "6")).toBe("mine");
    expect(stateOf(mine, "B", "3")).toBe("mine");
    expect(stateOf(mine, "B", "7")).toBe("taken");
    expect(stateOf(mine, "B", "10")).toBe("taken");
    expect(stateOf(mine, "A", "7")).toBe("free");
    expect(isSelectable(seatOf(mine, "A", "5").flags)).toBe(true);

    const someoneElse = (await view({ basketId: "basket-3" }))!;
    expect(stateOf(someoneElse, "A", "5")).toBe("taken");
    expect(isSelectable(seatOf(someoneElse, "A", "5").flags)).toBe(false);
    const noBasket = (await view())!;
    expect(stateOf(noBasket, "A", "5")).toBe("taken");
    // The buyer who bought B7 cannot let go of it from the map.
    expect(stateOf((await view({ basketId: "basket-2" }))!, "B", "7")).toBe("taken");
  });

  it("keeps the sections a buyer sees while nothing they are worked out from changes, and works them out again when anything does", async () => {
    const first = (await view())!;
    expect((await view())!.sections).toBe(first.sections);
    // Another buyer's hold: the seat is taken at once for everyone else.
    await inventory.holdSeats({ basketId: "basket-1", performanceId, seatIds: [seed.seat("A", "5")] });
    const held = (await view())!;
    expect(held.sections).not.toBe(first.sections);
    expect(stateOf(held, "A", "5")).toBe("taken");
    // The same claims, but seen by the buyer who holds the seat.
    expect(stateOf((await view({ basketId: "basket-1" }))!, "A", "5")).toBe("mine");
    expect(stateOf((await view())!, "A", "5")).toBe("taken");
    // Another buyer's restrictions, and another filter.
    const access = (await view({ entitlements: ACCESS_BUYER }))!;
    expect(access.sections).not.toBe(held.sections);
    const cheap = (await view({ filter: { maxPrice: 5000 } }))!;
    expect(cheap.sections).not.toBe(held.sections);
    expect(seatOf(cheap, "A", "6").flags & FILTERED).toBeTruthy();
    expect(seatOf((await view())!, "A", "6").flags & FILTERED).toBe(0);
    // Standing places taken.
    const standingBefore = (await view())!;
    await inventory.holdStanding({ basketId: "basket-2", performanceId, sectionId: seed.standingId, quantity: 2 });
    const standingAfter = (await view())!;
    expect(standingAfter.sections).not.toBe(standingBefore.sections);
    expect((standingAfter.sections[1] as StandingSection).left).toBe(
      (standingBefore.sections[1] as StandingSection).left - 2,
    );
  });

  it("frees seats whose hold has expired, before the sweeper has run", async () => {
    await inventory.holdSeats({ basketId: "basket-1", performanceId, seatIds: [seed.seat("A", "5")] });
    expect(stateOf((await view({ basketId: "basket-1" }))!, "A", "5")).toBe("mine");
    seed.clock.advance(15 * 60_000 + 1);
    expect(stateOf((await view({ basketId: "basket-1" }))!, "A", "5")).toBe("free");
    expect(stateOf((await view())!, "A", "5")).toBe("free");
  });

  it("filters by price and part of the house, and keeps the buyer's own seats selectable", async () => {
    await inventory.holdSeats({ basketId: "basket-1", performanceId, seatIds: [seed.seat("A", "5")] });
    const cheap = (await view({ basketId: "basket-1", filter: { maxPrice: 5000 } }))!;
    expect(cheap.filter).toEqual({ maxPrice: 5000 });
    expect(seatOf(cheap, "A", "6").flags & FILTERED).toBeTruthy();
    expect(isSelectable(seatOf(cheap, "A", "6").flags)).toBe(false);
    expect(stateOf(cheap, "A", "6")).toBe("free");
    expect(seatOf(cheap, "B", "6").flags & FILTERED).toBe(0);
    expect(isSelectable(seatOf(cheap, "B", "6").flags)).toBe(true);
    expect(isSelectable(seatOf(cheap, "A", "5").flags)).toBe(true);
    expect(seatOf(cheap, "A", "5").flags & FILTERED).toBe(0);
    expect((cheap.sections[1] as StandingSection).inFilter).toBe(true);
    // The price range is the whole performance's, whatever the filter.
    expect(cheap.priceRange).toEqual({ min: 2700, max: 6800 });

    const dear = (await view({ filter: { minPrice: 6000, maxPrice: 7000 } }))!;
    expect(isSelectable(seatOf(dear, "A", "6").flags)).toBe(true);
    expect(isSelectable(seatOf(dear, "B", "6").flags)).toBe(false);
    expect((dear.sections[1] as StandingSection).inFilter).toBe(false);

    const standingOnly = (await view({ filter: { sectionId: seed.standingId } }))!;
    expect(standingOnly.filter).toEqual({ sectionId: seed.standingId });
    expect(isSelectable(seatOf(standingOnly, "B", "6").flags)).toBe(false);
    expect((standingOnly.sections[1] as StandingSection).inFilter).toBe(true);

    const unknown = (await view({ filter: { sectionId: "no-such-section" } }))!;
    expect(unknown.filter).toEqual({});
    expect(isSelectable(seatOf(unknown, "B", "6").flags)).toBe(true);
  });

  it("counts standing places left, freeing expired holds", async () => {
    const standing = () => view().then((map) => map!.sections[1] as StandingSection);
    expect(await standing()).toMatchObject({ name: "Standing", capacity: 5, left: 5, band: 2 });
    await inventory.holdStanding({ basketId: "basket-1", performanceId, sectionId: seed.standingId, quantity: 2 });
    expect((await standing()).left).toBe(3);
    seed.clock.advance(15 * 60_000 + 1);
    expect((await standing()).left).toBe(5);
  });

  it("serialises compactly: a row's seats are one string that decodes to the same seats", async () => {
    await inventory.holdSeats({ basketId: "basket-1", performanceId, seatIds: [seed.seat("A", "5")] });
    const map = (await view({ basketId: "basket-1", filter: { maxPrice: 5000 } }))!;
    expect(JSON.parse(JSON.stringify(map))).toEqual(map);
    const [a, b] = (map.sections[0] as SeatedSection).rows.map(([, seats]) => seats) as [string, string];
    // Seats that follow on from the one before (next id and number, one seat along) cost one ";".
    expect(a.length + b.length).toBeLessThan(200);
    for (const encoded of [a, b]) expect(encodeSeats(decodeSeats(encoded))).toBe(encoded);
    expect(seatOf(map, "A", "5")).toMatchObject({ id: seed.seat("A", "5") });
    expect(seatOf(map, "B", "10")).toMatchObject({ id: seed.seat("B", "10") });
  });
});
