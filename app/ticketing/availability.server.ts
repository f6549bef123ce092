import type { Store } from "~/db/connection.server";
import { activeClaim, activeStandingClaim } from "./inventory.server";
import { bandPricesOfPlans } from "./queries.server";

export type AvailabilityLevel = "good" | "medium" | "low" | "soldOut";

/**
 * The share of sellable places still free at or above which a performance shows as Good, and as
 * Medium; anything above nothing is Low; nothing is Sold out. Configured by AVAILABILITY_THRESHOLDS.
 */
export interface AvailabilityThresholds {
  good: number;
  medium: number;
}

export const DEFAULT_THRESHOLDS: AvailabilityThresholds = { good: 0.5, medium: 0.2 };

export function availabilityLevel(
  left: number,
  capacity: number,
  thresholds: AvailabilityThresholds,
): AvailabilityLevel {
  if (left <= 0 || capacity <= 0) return "soldOut";
  const share = left / capacity;
  if (share >= thresholds.good) return "good";
  if (share >= thresholds.medium) return "medium";
  return "low";
}

export interface PerformanceAvailability {
  capacity: number;
  left: number;
  level: AvailabilityLevel;
}

/** Places left of a performance's stored capacity, given what is taken. */
export function placesLeft(
  capacity: number,
  counts: ClaimCounts | undefined,
  thresholds: AvailabilityThresholds,
): PerformanceAvailability {
  const taken =
    (counts?.seats ?? []).reduce((sum, row) => sum + row.taken - row.withheld, 0) +
    (counts?.standing ?? []).reduce((sum, row) => sum + row.taken, 0);
  const left = Math.max(0, capacity - taken);
  return { capacity, left, level: availabilityLevel(left, capacity, thresholds) };
}

/**
 * Places left for many performances at once, read straight from the store (no cache: see
 * createAvailability): grouped counts against each performance's stored capacity, so a month of
 * performances is a few queries whatever the size of the houses.
 */
export async function availabilityOf(
  store: Store,
  performanceIds: string[],
  now: Date,
  thresholds: AvailabilityThresholds = DEFAULT_THRESHOLDS,
): Promise<Map<string, PerformanceAvailability>> {
  const result = new Map<string, PerformanceAvailability>();
  if (performanceIds.length === 0) return result;
  const performances = await store.db
    .selectFrom("performances")
    .select(["id", "capacity"])
    .where("id", "in", performanceIds)
    .execute();
  const counts = await loadClaimCounts(store, performanceIds, now);
  for (const performance of performances)
    result.set(performance.id, placesLeft(performance.capacity, counts.get(performance.id), thresholds));
  return result;
}

export interface AvailabilityFilter {
  minPrice?: number;
  maxPrice?: number;
  sectionId?: string;
  /**
   * Places the buyer wants together in one booking. A performance with fewer places left that
   * fit the rest of the filter cannot sell them, so it shows as Sold out for this filter.
   */
  quantity?: number;
}

export interface CalendarFacts {
  /** Lowest and highest band price (all-in) across these performances, and within the filter. */
  priceRange: { min: number; max: number } | null;
  selectedPriceRange: { min: number; max: number } | null;
  /** Every distinct band price (all-in) across these performances, lowest first (the price filter's choices). */
  prices: number[];
  /** Parts of the house that sell places for these performances. */
  sections: { id: string; name: string }[];
  availability: Map<string, PerformanceAvailability>;
}

/** Where a price plan sells places: seats per (part of house, price band), and standing areas. */
export interface PlanGroup {
  planId: string;
  sectionId: string;
  bandId: string;
  /** The band's price, booking fee included (pricing.ts bandPrice). */
  price: number;
  seats: number;
  standing: boolean;
}

/** Places taken for one performance, grouped as the plan groups are. */
export interface ClaimCounts {
  seats: { sectionId: string; bandId: string; taken: number; withheld: number }[];
  standing: { sectionId: string; taken: number }[];
  /** The earliest moment a held place counted here lapses (and the counts change by themselves). */
  firstLapse: string | null;
}

/** Each plan's groups: catalogue facts, which change only when a catalogue is imported. */
export async function loadPlanGroups(store: Store, planIds: string[]): Promise<PlanGroup[]> {
  if (planIds.length === 0) return [];
  const { db } = store;
  const [prices, seatBands, areaBands] = await Promise.all([
    bandPricesOfPlans(db, planIds),
    db
      .selectFrom("price_plan_seats")
      .innerJoin("seats", "seats.id", "price_plan_seats.seat_id")
      .select((eb) => [
        "price_plan_seats.price_plan_id",
        "seats.section_id",
        "price_plan_seats.price_band_id",
        eb.fn.countAll<number>().as("seats"),
      ])
      .where("price_plan_seats.price_plan_id", "in", planIds)
      .groupBy(["price_plan_seats.price_plan_id", "seats.section_id", "price_plan_seats.price_band_id"])
      .execute(),
    db
      .selectFrom("price_plan_areas")
      .innerJoin("sections", "sections.id", "price_plan_areas.section_id")
      .select([
        "price_plan_areas.price_plan_id",
        "sections.id as section_id",
        "sections.capacity as seats",
        "price_plan_areas.price_band_id",
      ])
      .where("price_plan_areas.price_plan_id", "in", planIds)
      .execute(),
  ]);
  return [
    ...seatBands.map((group) => ({ ...group, standing: false })),
    ...areaBands.map((group) => ({ ...group, standing: true })),
  ].flatMap((group) => {
    const price = prices.get(group.price_band_id);
    if (price === undefined) return [];
    return [
      {
        planId: group.price_plan_id,
        sectionId: group.section_id,
        bandId: group.price_band_id,
        price,
        seats: Number(group.seats),
        standing: group.standing,
      },
    ];
  });
}

/** Places taken at `now` for each performance, grouped as the plan groups are. */
export async function loadClaimCounts(
  store: Store,
  performanceIds: string[],
  now: Date,
): Promise<Map<string, ClaimCounts>> {
  const counts = new Map<string, ClaimCounts>(
    performanceIds.map((id) => [id, { seats: [], standing: [], firstLapse: null }]),
  );
  if (performanceIds.length === 0) return counts;
  const nowIso = now.toISOString();
  const { db } = store;
  const [seatsTaken, standingTaken] = await Promise.all([
    db
      .selectFrom("seat_claims")
      .innerJoin("performances", "performances.id", "seat_claims.performance_id")
      .innerJoin("price_plan_seats", (join) =>
        join
          .onRef("price_plan_seats.seat_id", "=", "seat_claims.seat_id")
          .onRef("price_plan_seats.price_plan_id", "=", "performances.price_plan_id"),
      )
      .innerJoin("seats", "seats.id", "seat_claims.seat_id")
      .select((eb) => [
        "seat_claims.performance_id",
        "seats.section_id",
        "price_plan_seats.price_band_id",
        eb.fn.countAll<number>().as("taken"),
        // Withheld seats were never for sale: they count against neither capacity nor what is left.
        eb.fn.sum<number>(eb.case().when("seat_claims.status", "=", "withheld").then(1).else(0).end()).as("withheld"),
        eb.fn.min<string | null>("seat_claims.held_until").as("firstLapse"),
      ])
      .where("seat_claims.performance_id", "in", performanceIds)
      .where(activeClaim(nowIso))
      .groupBy(["seat_claims.performance_id", "seats.section_id", "price_plan_seats.price_band_id"])
      .execute(),
    db
      .selectFrom("standing_claims")
      .select((eb) => [
        "performance_id",
        "section_id",
        eb.fn.sum<number>("quantity").as("taken"),
        eb.fn.min<string | null>("held_until").as("firstLapse"),
      ])
      .where("performance_id", "in", performanceIds)
      .where(activeStandingClaim(nowIso))
      .groupBy(["performance_id", "section_id"])
      .execute(),
  ]);
  const noteLapse = (entry: ClaimCounts, lapse: string | null) => {
    // Only held claims have a held_until (min() skips the nulls of sold and withheld ones).
    if (lapse !== null && (entry.firstLapse === null || lapse < entry.firstLapse)) entry.firstLapse = lapse;
  };
  for (const row of seatsTaken) {
    const entry = counts.get(row.performance_id)!;
    entry.seats.push({
      sectionId: row.section_id,
      bandId: row.price_band_id,
      taken: Number(row.taken),
      withheld: Number(row.withheld ?? 0),
    });
    noteLapse(entry, row.firstLapse);
  }
  for (const row of standingTaken) {
    const entry = counts.get(row.performance_id)!;
    entry.standing.push({ sectionId: row.section_id, taken: Number(row.taken) });
    noteLapse(entry, row.firstLapse);
  }
  return counts;
}

/** The catalogue and claim facts the calendar is computed from, however they were read. */
export interface CalendarSources {
  performances: { id: string; planId: string }[];
  groups: PlanGroup[];
  sections: { id: string; name: string }[];
  claims: Map<string, ClaimCounts>;
}

/**
 * What the calendar's filters need for a set of performances (a month, say): the price range, the
 * parts of the house, and availability counted only over the places that fit the filter.
 */
export function computeCalendarFacts(
  sources: CalendarSources,
  filter: AvailabilityFilter = {},
  thresholds: AvailabilityThresholds = DEFAULT_THRESHOLDS,
): CalendarFacts {
  const { groups, claims } = sources;
  const priceOfBand = new Map(groups.map((group) => [group.bandId, group.price]));
  const fitsPrice = (price: number | undefined) =>
    price !== undefined &&
    (filter.minPrice === undefined || price >= filter.minPrice) &&
    (filter.maxPrice === undefined || price <= filter.maxPrice);
  const fits = (group: { sectionId: string; price: number }) =>
    fitsPrice(group.price) && (filter.sectionId === undefined || group.sectionId === filter.sectionId);
  const claimFits = (row: { sectionId: string; bandId: string }) =>
    fitsPrice(priceOfBand.get(row.bandId)) && (filter.sectionId === undefined || row.sectionId === filter.sectionId);
  const range = (prices: number[]) => (prices.length ? { min: Math.min(...prices), max: Math.max(...prices) } : null);
  const facts: CalendarFacts = {
    priceRange: range(groups.map((group) => group.price)),
    selectedPriceRange: range(groups.filter(fits).map((group) => group.price)),
    prices: [...new Set(groups.map((group) => group.price))].sort((a, b) => a - b),
    sections: sources.sections,
    availability: new Map(),
  };
  for (const performance of sources.performances) {
    const planGroups = groups.filter((group) => group.planId === performance.planId && fits(group));
    const counts = claims.get(performance.id);
    const claimed = (counts?.seats ?? []).filter(claimFits);
    const withheld = claimed.reduce((sum, row) => sum + row.withheld, 0);
    const capacity = planGroups.reduce((sum, group) => sum + group.seats, 0) - withheld;
    const taken =
      claimed.reduce((sum, row) => sum + row.taken, 0) -
      withheld +
      (counts?.standing ?? [])
        .filter((row) => planGroups.some((group) => group.standing && group.sectionId === row.sectionId))
        .reduce((sum, row) => sum + row.taken, 0);
    const left = Math.max(0, capacity - taken);
    const level =
      filter.quantity !== undefined && left < filter.quantity
        ? "soldOut"
        : availabilityLevel(left, capacity, thresholds);
    facts.availability.set(performance.id, { capacity, left, level });
  }
  return facts;
}

/** The calendar's facts read straight from the store (no cache): see createAvailability for the cached reads. */
export async function calendarFacts(
  store: Store,
  performanceIds: string[],
  now: Date,
  filter: AvailabilityFilter = {},
  thresholds: AvailabilityThresholds = DEFAULT_THRESHOLDS,
): Promise<CalendarFacts> {
  const performances = await performancePlans(store, performanceIds);
  const groups = await loadPlanGroups(store, [...new Set(performances.map((performance) => performance.planId))]);
  return computeCalendarFacts(
    {
      performances,
      groups,
      sections: await sectionNames(store, groups),
      claims: await loadClaimCounts(store, performanceIds, now),
    },
    filter,
    thresholds,
  );
}

async function performancePlans(store: Store, performanceIds: string[]) {
  if (performanceIds.length === 0) return [];
  const rows = await store.db
    .selectFrom("performances")
    .select(["id", "price_plan_id"])
    .where("id", "in", performanceIds)
    .execute();
  return rows.map((row) => ({ id: row.id, planId: row.price_plan_id }));
}

/** The parts of the house the groups sell, in the house's order. */
export async function sectionNames(store: Store, groups: PlanGroup[]) {
  const sectionIds = [...new Set(groups.map((group) => group.sectionId))];
  if (sectionIds.length === 0) return [];
  return store.db
    .selectFrom("sections")
    .select(["id", "name"])
    .where("id", "in", sectionIds)
    .orderBy("sort_order")
    .execute();
}
