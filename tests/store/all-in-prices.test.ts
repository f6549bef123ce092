import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { ticketsView } from "~/use-cases/ticket-prices.server";
import { createAvailability } from "~/ticketing/availability-service.server";
import { createBaskets, type MemberBenefits } from "~/ticketing/baskets.server";
import { RESTRICTIONS } from "~/ticketing/catalogue-file";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { createInventory, type Entitlements } from "~/ticketing/inventory.server";
import { createReservations } from "~/ticketing/reservation-view.server";
import { createSeatMaps } from "~/ticketing/seat-map.server";
import { COMPANION, FILTERED, FREE, seatedSections, STATE_MASK, WHEELCHAIR, type SeatMapView } from "~/views/seat-map";
import { createSeatSearch } from "~/ticketing/seat-search.server";
import { ROOT } from "../support/app";
import { DIALECTS, createTestStore, type TestStore } from "../support/stores";

// Prices are all-in (docs/decisions/0012-all-in-prices.md): whatever price a buyer is shown for a
// ticket, on the calendar's price filter, the seat map's labels and key, a standing area or a price
// option, is what the basket then charges for it. This walks every price option of the demo
// catalogue: it holds a place of each band, checks the basket's line against the band's price as
// the seat map shows it, then chooses each option the tickets page offers and checks the line
// against the amount the page showed for it.

const BOX_OFFICE: Entitlements = {
  restrictions: new Set(RESTRICTIONS),
  presale: new Set(["plus-member", "promo"]),
  companions: 10,
};
// A Plus member is offered every kind the demo has (member prices too).
const MEMBER: MemberBenefits = { protectionIncluded: true, noTransactionFee: true, memberPrices: true };
const IMPORTED_AT = "2026-11-23T10:00:00.000Z";

/** A free place of each band the view sells: a seat (not a wheelchair or companion one, where there is another) or a standing area. */
function placesByBand(view: SeatMapView) {
  const places = new Map<number, { seatId: number } | { sectionId: string }>();
  for (const section of view.sections)
    if (section.kind === "standing" && section.band >= 0 && section.left > 0)
      places.set(section.band, { sectionId: section.id });
  const seats = seatedSections(view).flatMap((section) => section.rows.flatMap(([, row]) => row));
  for (const plain of [true, false])
    for (const [id, , , , band, flags] of seats) {
      if (band < 0 || places.has(band) || (flags & STATE_MASK) !== FREE) continue;
      if (plain && (flags & (WHEELCHAIR | COMPANION)) !== 0) continue;
      places.set(band, { seatId: id });
    }
  return places;
}

describe.each(DIALECTS)("all-in prices across the demo catalogue on %s", (dialect) => {
  let store: TestStore;
  const clock = fixedClock(IMPORTED_AT);

  beforeAll(async () => {
    store = await createTestStore(dialect);
    // Prices, not pictures: the demo's posters are left out (they are imported only from a file).
    const demo = JSON.parse(readFileSync(join(ROOT, "catalogue/demo.json"), "utf8")) as {
      shows: { poster?: unknown; hero?: unknown }[];
    };
    for (const show of demo.shows) {
      delete show.poster;
      delete show.hero;
    }
    await importCatalogue(store, demo, clock);
    clock.set("2026-11-23T12:00:00.000Z");
  }, 120_000);
  afterAll(() => store?.drop());

  it("every price option shown is the amount the basket charges for it", { timeout: 120_000 }, async () => {
    const { db } = store;
    const seatMaps = createSeatMaps(store, clock);
    const inventory = createInventory(store, clock);
    const baskets = createBaskets(store, clock);
    const reservations = createReservations(store, clock);
    const availability = createAvailability(store, clock, { maxAgeMs: 0 });
    const seatSearch = createSeatSearch(store, clock);
    // One bookable performance of each price plan: every band and option lives in a plan.
    const performances = await db
      .selectFrom("performances")
      .select(["id", "price_plan_id", "run_id"])
      .where("presale_from", "is", null)
      .orderBy("starts_at")
      .execute();
    const plans = new Map<string, { id: string; run: string }>();
    for (const performance of performances)
      if (!plans.has(performance.price_plan_id))
        plans.set(performance.price_plan_id, { id: performance.id, run: performance.run_id });
    const allOptions = await db.selectFrom("price_options").select("id").execute();
    const planCount = await db.selectFrom("price_plans").select("id").execute();
    expect(plans.size).toBe(planCount.length);

    const walked = new Set<string>();
    let basketNumber = 0;
    for (const performance of plans.values()) {
      const view = (await seatMaps.view({
        performanceId: performance.id,
        basketId: null,
        entitlements: BOX_OFFICE,
        filter: {},
      }))!;
      const places = placesByBand(view);
      expect(places.size, `a free place of every band of ${performance.id}`).toBe(view.bands.length);

      for (const [bandIndex, place] of places) {
        const band = view.bands[bandIndex]!;
        const basketId = `all-in-${(basketNumber += 1)}`;
        const held =
          "seatId" in place
            ? await inventory.holdSeats({
                basketId,
                performanceId: performance.id,
                seatIds: [place.seatId],
                entitlements: BOX_OFFICE,
              })
            : await inventory.holdStanding({
                basketId,
                performanceId: performance.id,
                sectionId: place.sectionId,
                quantity: 1,
                entitlements: BOX_OFFICE,
              });
        expect(held.ok).toBe(true);

        // Before any choice: the seat map's and key's price for the band.
        const ticketLine = async () => {
          const priced = (await baskets.price(basketId, MEMBER))!.priced;
          const lines = priced.lines.filter((line) => line.kind === "ticket");
          expect(lines).toHaveLength(1);
          return lines[0]!;
        };
        expect((await ticketLine()).amount, `${band.name}'s price on the seat map`).toBe(band.price);

        // Each option the tickets page offers for it, at the amount the page shows.
        const reservation = (await reservations.current(basketId))!;
        const shown = ticketsView(reservation, await baskets.price(basketId, MEMBER), MEMBER);
        const offered = shown.lines[0]!.options;
        expect(offered.map((option) => option.id).sort()).toEqual(band.options.map((option) => option.id).sort());
        for (const option of offered) {
          const ticket =
            "seatId" in place ? { seatId: place.seatId } : { standingClaimId: reservation.standing[0]!.claimId };
          expect(await baskets.choosePriceOption(basketId, ticket, option.id, MEMBER)).toEqual({ ok: true });
          const line = await ticketLine();
          expect(line.priceOptionId).toBe(option.id);
          expect(line.amount, `${band.name}, ${option.label}`).toBe(option.amount);
          walked.add(option.id);
        }
      }

      // A price filter set to a band's price keeps that band's places choosable.
      for (const [bandIndex, band] of view.bands.entries()) {
        const filtered = (await seatMaps.view({
          performanceId: performance.id,
          basketId: null,
          entitlements: BOX_OFFICE,
          filter: { minPrice: band.price, maxPrice: band.price },
        }))!;
        const inBand = seatedSections(filtered)
          .flatMap((section) => section.rows.flatMap(([, row]) => row))
          .filter(([, , , , seatBand, flags]) => seatBand === bandIndex && (flags & STATE_MASK) === FREE);
        const standing = filtered.sections.find((section) => section.kind === "standing" && section.band === bandIndex);
        expect(
          inBand.some(([, , , , , flags]) => (flags & FILTERED) === 0) ||
            (standing?.kind === "standing" && standing.inFilter),
          `${band.name} at ${band.price} passes its own price filter`,
        ).toBe(true);
      }

      // Best available, asked for one band's price, finds seats of a band at that price.
      const bandOfSeat = new Map(
        seatedSections(view).flatMap((section) =>
          section.rows.flatMap(([, row]) => row.map((seat) => [seat[0], seat[4]])),
        ),
      );
      let found = 0;
      for (const price of new Set(view.bands.map((band) => band.price))) {
        const result = await seatSearch.search(
          performance.id,
          { quantity: 1, minPrice: price, maxPrice: price },
          BOX_OFFICE,
        );
        if (!result || "ok" in result) continue;
        found += 1;
        for (const seatId of result.seatIds) expect(view.bands[bandOfSeat.get(seatId)!]!.price).toBe(price);
      }
      if (bandOfSeat.size > 0) expect(found, "best available finds seats by the prices shown").toBeGreaterThan(0);

      // The calendar's price filter offers the prices the seat map shows, and filters by them.
      const facts = await availability.calendar([performance.id]);
      expect(facts.prices).toEqual([...new Set(view.bands.map((band) => band.price))].sort((a, b) => a - b));
      for (const price of facts.prices) {
        const only = await availability.calendar([performance.id], { minPrice: price, maxPrice: price });
        expect(only.selectedPriceRange).toEqual({ min: price, max: price });
      }
    }
    expect([...walked].sort()).toEqual(allOptions.map((option) => option.id).sort());
  });
});
