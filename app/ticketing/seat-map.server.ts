import { namedCache } from "~/caches.server";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { Restriction } from "./catalogue-file";
import { activeClaim, activeStandingClaim, type Entitlements } from "./inventory.server";
import { bandPrice } from "./pricing";
import { ACCESS_SERVICES, accessServiceBits, accessServicesOf, suitedSeatsKey } from "~/views/access-services";
import {
  ACCESS,
  BAND_SYMBOLS,
  COMPANION,
  encodePreparedSeat,
  FILTERED,
  FREE,
  LOCKED,
  MINE,
  PACKAGE,
  POSITION_SCALE,
  prepareSeats,
  PROMOTIONAL,
  SEAT_MARKS,
  SPONSORED,
  SUITS_SHIFT,
  TAKEN,
  WHEELCHAIR,
  type Currency,
  type SeatMapBand,
  type SeatMapFilter,
  type SeatMapLegendFacts,
  type SeatMapPriceOption,
  type SeatMapRow,
  type SeatMapSection,
  type SeatMapView,
  type PreparedSeat,
  type SeatTuple,
} from "~/views/seat-map";

const TYPE_FLAGS: Record<string, number> = {
  wheelchair: WHEELCHAIR,
  companion: COMPANION,
  access: ACCESS,
  package: PACKAGE,
  promotional: PROMOTIONAL,
};

interface PlanSeat {
  id: number;
  label: string;
  x: number;
  y: number;
  /** Index into the plan's bands; -1 for a seat this plan does not sell. */
  band: number;
  /** Type and sponsorship flags (no state). */
  flags: number;
  restrictions: Restriction[];
  note: number;
  /** The access services it suits, as accessServiceBits. */
  suits: number;
}

interface PlanSection {
  id: string;
  name: string;
  kind: "seated" | "standing";
  capacity: number;
  band: number;
  /** Each row's seats, and the same as the view encodes them but for their flags (once all are read). */
  rows: { name: string; seats: PlanSeat[]; encoding: PreparedSeat[] }[];
  top: number;
  height: number;
  /** Whether this plan sells any place in it (the filter offers only these). */
  sells: boolean;
}

/** What never changes for a price plan once imported: its bands, parts of the house and seats. */
interface Plan {
  bands: SeatMapBand[];
  sections: PlanSection[];
  notes: string[];
  minX: number;
  maxX: number;
  priceRange: { min: number; max: number } | null;
  legend: SeatMapLegendFacts;
  /** Every service some seat suits, as accessServiceBits. */
  suits: number;
}

// `|| 0`: no -0 in the page's JSON.
const scaled = (value: number) => Math.round(value * POSITION_SCALE) || 0;

/** About what a house's encoded sections hold: their rows' text, and a little for each part. */
function sectionsBytes(sections: SeatMapSection[]): number {
  let bytes = 0;
  for (const section of sections) {
    bytes += 64 + section.name.length;
    if (section.kind === "seated")
      for (const [name, encoded] of section.rows) bytes += 32 + name.length + encoded.length;
  }
  return bytes;
}

/**
 * The seat map read model for the tickets page. A price plan's seats, bands and prices never change
 * once imported, so they are read once per plan and kept; each view reads only the claims on the
 * performance (which seats are taken, which are this basket's) and standing places taken.
 */
export function createSeatMaps(store: Store, clock: Clock) {
  const { db } = store;
  const plans = new Map<string, Promise<Plan>>();
  const keptSections = namedCache<SeatMapSection[]>("seat-map-sections", {
    reason: "a house's seats as encoded for the seat map, while its claims are unchanged",
    maxBytes: 8 * 1024 * 1024,
    sizeOf: sectionsBytes,
  });

  async function loadPlan(pricePlanId: string, seatMapId: string): Promise<Plan> {
    const [bandRows, optionRows, sectionRows, seatRows, areaRows] = await Promise.all([
      db
        .selectFrom("price_bands")
        .select(["id", "code", "name"])
        .where("price_plan_id", "=", pricePlanId)
        .orderBy("sort_order")
        .execute(),
      db
        .selectFrom("price_options")
        .innerJoin("price_bands", "price_bands.id", "price_options.price_band_id")
        .select([
          "price_options.id",
          "price_options.price_band_id",
          "price_options.kind",
          "price_options.label",
          "price_options.face_value",
          "price_options.booking_fee",
        ])
        .where("price_bands.price_plan_id", "=", pricePlanId)
        .orderBy("price_options.sort_order")
        .orderBy("price_options.id")
        .execute(),
      db
        .selectFrom("sections")
        .select(["id", "name", "kind", "capacity"])
        .where("seat_map_id", "=", seatMapId)
        .orderBy("sort_order")
        .execute(),
      db
        .selectFrom("seats")
        .leftJoin("price_plan_seats", (join) =>
          join
            .onRef("price_plan_seats.seat_id", "=", "seats.id")
            .on("price_plan_seats.price_plan_id", "=", pricePlanId),
        )
        .select([
          "seats.id",
          "seats.section_id",
          "seats.row_name",
          "seats.row_order",
          "seats.label",
          "seats.position",
          "seats.x",
          "seats.y",
          "seats.seat_type",
          "seats.restrictions",
          "seats.view_note",
          "seats.suits",
          "price_plan_seats.price_band_id",
        ])
        .where("seats.seat_map_id", "=", seatMapId)
        .orderBy("seats.section_id")
        .orderBy("seats.row_order")
        .orderBy("seats.position")
        .execute(),
      db
        .selectFrom("price_plan_areas")
        .select(["section_id", "price_band_id"])
        .where("price_plan_id", "=", pricePlanId)
        .execute(),
    ]);

    const bandIndex = new Map(bandRows.map((band, index) => [band.id, index]));
    const optionsOf = bandRows.map((): SeatMapPriceOption[] => []);
    for (const option of optionRows) {
      optionsOf[bandIndex.get(option.price_band_id)!]!.push({
        id: option.id,
        kind: option.kind,
        label: option.label,
        faceValue: Number(option.face_value),
        bookingFee: Number(option.booking_fee),
      });
    }
    const bands: SeatMapBand[] = bandRows.map((band, index) => ({
      id: band.id,
      code: band.code,
      name: band.name,
      price: bandPrice(optionsOf[index]!) ?? 0,
      style: index % BAND_SYMBOLS.length,
      options: optionsOf[index]!,
    }));

    const notes: string[] = [];
    const noteIndex = new Map<string, number>();
    const areaBand = new Map(areaRows.map((area) => [area.section_id, bandIndex.get(area.price_band_id) ?? -1]));
    const sections = new Map<string, PlanSection>(
      sectionRows.map((section) => [
        section.id,
        {
          id: section.id,
          name: section.name,
          kind: section.kind,
          capacity: Number(section.capacity),
          band: section.kind === "standing" ? (areaBand.get(section.id) ?? -1) : -1,
          rows: [],
          top: 0,
          height: 0,
          sells: false,
        },
      ]),
    );
    let minX = Infinity;
    let maxX = -Infinity;
    for (const seat of seatRows) {
      const section = sections.get(seat.section_id)!;
      let row = section.rows.at(-1);
      if (!row || row.name !== seat.row_name) {
        row = { name: seat.row_name, seats: [], encoding: [] };
        section.rows.push(row);
      }
      const restrictions = seat.restrictions.split(",").filter(Boolean) as Restriction[];
      let note = -1;
      if (seat.view_note) {
        note = noteIndex.get(seat.view_note) ?? notes.length;
        if (note === notes.length) {
          notes.push(seat.view_note);
          noteIndex.set(seat.view_note, note);
        }
      }
      const x = scaled(Number(seat.x));
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      row.seats.push({
        id: Number(seat.id),
        label: seat.label,
        x,
        y: scaled(Number(seat.y)),
        band: seat.price_band_id === null ? -1 : (bandIndex.get(seat.price_band_id) ?? -1),
        flags: (TYPE_FLAGS[seat.seat_type] ?? 0) | (restrictions.includes("amex") ? SPONSORED : 0),
        restrictions,
        note,
        suits: accessServiceBits(accessServicesOf(seat.suits)),
      });
    }
    const usedBands = new Set<number>();
    let marked = 0;
    let suits = 0;
    for (const section of sections.values()) {
      const seats = section.rows.flatMap((row) => row.seats);
      if (seats.length) {
        section.top = Math.min(...seats.map((seat) => seat.y));
        section.height = Math.max(...seats.map((seat) => seat.y)) - section.top;
      }
      for (const band of section.kind === "standing" ? [section.band] : seats.map((seat) => seat.band)) {
        if (band < 0) continue;
        usedBands.add(band);
        section.sells = true;
      }
      for (const seat of seats) {
        marked |= seat.flags;
        suits |= seat.suits;
      }
      for (const row of section.rows) {
        row.encoding = prepareSeats(
          row.seats.map((seat): SeatTuple => {
            const tuple: SeatTuple = [seat.id, seat.label, seat.x, seat.y, seat.band, 0];
            if (seat.note >= 0) tuple.push(seat.note);
            return tuple;
          }),
        );
      }
    }
    const prices = bands.filter((_, index) => usedBands.has(index)).map((band) => band.price);
    return {
      bands,
      // A standing area this plan does not sell is left out; seated parts are drawn whatever they sell.
      sections: [...sections.values()].filter((section) => section.kind === "seated" || section.band >= 0),
      notes,
      minX: Number.isFinite(minX) ? minX : 0,
      maxX: Number.isFinite(maxX) ? maxX : 0,
      priceRange: prices.length ? { min: Math.min(...prices), max: Math.max(...prices) } : null,
      legend: {
        bands: bands.flatMap((_, index) => (usedBands.has(index) ? [index] : [])),
        marks: SEAT_MARKS.filter(([, flag]) => marked & flag).map(([mark]) => mark),
        restrictedView: notes.length > 0,
      },
      suits,
    };
  }

  function planOf(pricePlanId: string, seatMapId: string): Promise<Plan> {
    let plan = plans.get(pricePlanId);
    if (!plan) {
      plan = loadPlan(pricePlanId, seatMapId);
      plan.catch(() => plans.delete(pricePlanId));
      plans.set(pricePlanId, plan);
    }
    return plan;
  }

  return {
    /** The seat map's cache of encoded sections: its hits, misses and bytes, for /metrics. */
    cacheStats: () => keptSections.stats(),
    /** The seat map of a performance as this buyer sees it, or undefined for an unknown performance. */
    async view(input: {
      performanceId: string;
      basketId: string | null;
      entitlements: Entitlements;
      filter: SeatMapFilter;
    }): Promise<SeatMapView | undefined> {
      const performance = await db
        .selectFrom("performances")
        .innerJoin("runs", "runs.id", "performances.run_id")
        .innerJoin("venues", "venues.id", "runs.venue_id")
        .select([
          "performances.price_plan_id",
          "performances.access_services",
          "runs.seat_map_id",
          "venues.currency",
          "venues.country",
        ])
        .where("performances.id", "=", input.performanceId)
        .executeTakeFirst();
      if (!performance) return undefined;
      const now = clock.now().toISOString();
      const [plan, claims, standing] = await Promise.all([
        planOf(performance.price_plan_id, performance.seat_map_id),
        db
          .selectFrom("seat_claims")
          .leftJoin("holds", "holds.id", "seat_claims.hold_id")
          .select(["seat_claims.seat_id", "seat_claims.status", "holds.basket_id"])
          .where("seat_claims.performance_id", "=", input.performanceId)
          .where(activeClaim(now))
          .execute(),
        db
          .selectFrom("standing_claims")
          .select((eb) => ["section_id", eb.fn.sum<number>("quantity").as("taken")])
          .where("performance_id", "=", input.performanceId)
          .where(activeStandingClaim(now))
          .groupBy("section_id")
          .execute(),
      ]);

      // Sold seats are never "mine": only a live hold can be let go of.
      const claimed = new Map<number, number>();
      for (const claim of claims) {
        const mine = input.basketId !== null && claim.status === "held" && claim.basket_id === input.basketId;
        claimed.set(Number(claim.seat_id), mine ? MINE : TAKEN);
      }
      const standingTaken = new Map(standing.map((row) => [row.section_id, Number(row.taken ?? 0)]));

      const filter: SeatMapFilter = {};
      if (input.filter.minPrice !== undefined) filter.minPrice = input.filter.minPrice;
      if (input.filter.maxPrice !== undefined) filter.maxPrice = input.filter.maxPrice;
      if (input.filter.sectionId !== undefined && plan.sections.some((s) => s.id === input.filter.sectionId))
        filter.sectionId = input.filter.sectionId;
      const allowed = input.entitlements.restrictions;
      // Seats are marked as suited only to services this performance carries.
      const suited = accessServiceBits(accessServicesOf(performance.access_services)) & plan.suits;

      // The sections as this buyer sees them are a function of the plan, the claims as they
      // bear on this buyer, the places standing, the buyer's restrictions and the filter: kept by
      // all of them, a house whose claims have not changed is not encoded again for each buyer.
      let key = `${performance.price_plan_id}|${filter.minPrice ?? ""}|${filter.maxPrice ?? ""}|${filter.sectionId ?? ""}|`;
      key += [...allowed].sort().join(",");
      key += `|${suited}`;
      for (const [sectionId, taken] of standingTaken) key += `|${sectionId}:${taken}`;
      key += "|";
      for (const [seatId, state] of claimed) key += state === MINE ? `${seatId}m,` : `${seatId},`;
      const sections = keptSections.getOrMake(key, () =>
        sectionsFor(plan, claimed, standingTaken, allowed, filter, suited),
      )!;

      return {
        currency: performance.currency as Currency,
        bands: plan.bands,
        sections,
        notes: plan.notes,
        minX: plan.minX,
        maxX: plan.maxX,
        priceRange: plan.priceRange,
        legend: plan.legend,
        suited: ACCESS_SERVICES.flatMap((service, index) =>
          suited & (1 << index)
            ? [{ service, flag: 1 << (SUITS_SHIFT + index), key: suitedSeatsKey(service, performance.country) }]
            : [],
        ),
        filterSections: plan.sections
          .filter((section) => section.sells)
          .map((section) => ({ id: section.id, name: section.name })),
        filter,
      };
    },
  };
}

/** Each part of the house as the buyer sees it: every seat's state added to its encoding. */
function sectionsFor(
  plan: Plan,
  claimed: ReadonlyMap<number, number>,
  standingTaken: ReadonlyMap<string, number>,
  allowed: ReadonlySet<Restriction>,
  filter: SeatMapFilter,
  /** The performance's services some seat suits, as accessServiceBits. */
  suited: number,
): SeatMapSection[] {
  const bandFits = plan.bands.map(
    (band) =>
      (filter.minPrice === undefined || band.price >= filter.minPrice) &&
      (filter.maxPrice === undefined || band.price <= filter.maxPrice),
  );
  return plan.sections.map((section) => {
    const sectionFits = filter.sectionId === undefined || filter.sectionId === section.id;
    if (section.kind === "standing") {
      return {
        id: section.id,
        name: section.name,
        kind: "standing",
        capacity: section.capacity,
        left: Math.max(0, section.capacity - (standingTaken.get(section.id) ?? 0)),
        band: section.band,
        inFilter: sectionFits && bandFits[section.band] === true,
      };
    }
    // Each seat's state added to its encoding worked out with the plan: no tuple per seat.
    const rows: SeatMapRow[] = section.rows.map((row) => {
      let encoded = "";
      let previous = 0;
      row.seats.forEach((seat, index) => {
        let state = claimed.get(seat.id) ?? (seat.band < 0 ? TAKEN : FREE);
        if (state === FREE && seat.restrictions.some((key) => !allowed.has(key))) state = LOCKED;
        const outside = state === FREE && !(sectionFits && bandFits[seat.band]);
        const flags = seat.flags | state | (outside ? FILTERED : 0) | ((seat.suits & suited) << SUITS_SHIFT);
        if (index > 0) encoded += ";";
        encoded += encodePreparedSeat(row.encoding[index]!, flags, previous);
        previous = flags;
      });
      return [row.name, encoded];
    });
    return { id: section.id, name: section.name, kind: "seated", rows, top: section.top, height: section.height };
  });
}

export type SeatMaps = ReturnType<typeof createSeatMaps>;
