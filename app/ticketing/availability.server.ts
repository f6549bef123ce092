import type { Store } from "~/db/connection.server";
import { activeClaim, activeStandingClaim } from "./inventory.server";
import { fullPriceOfBand } from "./queries.server";

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

/**
 * Places left for many performances at once: two grouped counts (seats taken, standing places
 * taken) against each performance's stored capacity, so a month of performances is two queries
 * whatever the size of the houses.
 */
export async function availabilityOf(
  store: Store,
  performanceIds: string[],
  now: Date,
  thresholds: AvailabilityThresholds = DEFAULT_THRESHOLDS,
): Promise<Map<string, PerformanceAvailability>> {
  const result = new Map<string, PerformanceAvailability>();
  if (performanceIds.length === 0) return result;
  const nowIso = now.toISOString();
  const [performances, seats, standing] = await Promise.all([
    store.db.selectFrom("performances").select(["id", "capacity"]).where("id", "in", performanceIds).execute(),
    store.db
      .selectFrom("seat_claims")
      .select((eb) => ["performance_id", eb.fn.countAll<number>().as("taken")])
      .where("performance_id", "in", performanceIds)
      .where("status", "!=", "withheld")
      .where(activeClaim(nowIso))
      .groupBy("performance_id")
      .execute(),
    store.db
      .selectFrom("standing_claims")
      .select((eb) => ["performance_id", eb.fn.sum<number>("quantity").as("taken")])
      .where("performance_id", "in", performanceIds)
      .where(activeStandingClaim(nowIso))
      .groupBy("performance_id")
      .execute(),
  ]);
  const taken = new Map<string, number>();
  for (const row of [...seats, ...standing])
    taken.set(row.performance_id, (taken.get(row.performance_id) ?? 0) + Number(row.taken));
  for (const performance of performances) {
    const left = Math.max(0, performance.capacity - (taken.get(performance.id) ?? 0));
    result.set(performance.id, {
      capacity: performance.capacity,
      left,
      level: availabilityLevel(left, performance.capacity, thresholds),
    });
  }
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
  /** Lowest and highest full price across these performances, and within the filter. */
  priceRange: { min: number; max: number } | null;
  selectedPriceRange: { min: number; max: number } | null;
  /** Every distinct full price across these performances, lowest first (the price filter's choices). */
  prices: number[];
  /** Parts of the house that sell places for these performances. */
  sections: { id: string; name: string }[];
  availability: Map<string, PerformanceAvailability>;
}

/**
 * What the calendar's filters need for a set of performances (a month, say): the price range, the
 * parts of the house, and availability counted only over the places that fit the filter. A handful
 * of grouped queries, whatever the number of performances.
 */
export async function calendarFacts(
  store: Store,
  performanceIds: string[],
  now: Date,
  filter: AvailabilityFilter = {},
  thresholds: AvailabilityThresholds = DEFAULT_THRESHOLDS,
): Promise<CalendarFacts> {
  const facts: CalendarFacts = {
    priceRange: null,
    selectedPriceRange: null,
    prices: [],
    sections: [],
    availability: new Map(),
  };
  if (performanceIds.length === 0) return facts;
  const nowIso = now.toISOString();
  const { db } = store;
  const performances = await db
    .selectFrom("performances")
    .select(["id", "price_plan_id"])
    .where("id", "in", performanceIds)
    .execute();
  const planIds = [...new Set(performances.map((performance) => performance.price_plan_id))];

  // Each band's full price, and where the band applies (seats by section, standing areas).
  const fullPrice = fullPriceOfBand(db);
  const seatBands = await db
    .selectFrom("price_plan_seats")
    .innerJoin("seats", "seats.id", "price_plan_seats.seat_id")
    .innerJoin(fullPrice, "full_price.price_band_id", "price_plan_seats.price_band_id")
    .select((eb) => [
      "price_plan_seats.price_plan_id",
      "seats.section_id",
      "full_price.price",
      eb.fn.countAll<number>().as("seats"),
    ])
    .where("price_plan_seats.price_plan_id", "in", planIds)
    .groupBy(["price_plan_seats.price_plan_id", "seats.section_id", "full_price.price"])
    .execute();
  const areaBands = await db
    .selectFrom("price_plan_areas")
    .innerJoin("sections", "sections.id", "price_plan_areas.section_id")
    .innerJoin(fullPrice, "full_price.price_band_id", "price_plan_areas.price_band_id")
    .select([
      "price_plan_areas.price_plan_id",
      "sections.id as section_id",
      "sections.capacity as seats",
      "full_price.price",
    ])
    .where("price_plan_areas.price_plan_id", "in", planIds)
    .execute();
  const groups = [
    ...seatBands.map((group) => ({ ...group, standing: false })),
    ...areaBands.map((group) => ({ ...group, standing: true })),
  ].map((group) => ({ ...group, price: Number(group.price), seats: Number(group.seats) }));
  const fits = (group: { section_id: string; price: number }) =>
    (filter.minPrice === undefined || group.price >= filter.minPrice) &&
    (filter.maxPrice === undefined || group.price <= filter.maxPrice) &&
    (filter.sectionId === undefined || group.section_id === filter.sectionId);
  const range = (prices: number[]) => (prices.length ? { min: Math.min(...prices), max: Math.max(...prices) } : null);
  facts.priceRange = range(groups.map((group) => group.price));
  facts.selectedPriceRange = range(groups.filter(fits).map((group) => group.price));
  facts.prices = [...new Set(groups.map((group) => group.price))].sort((a, b) => a - b);
  const sectionIds = [...new Set(groups.map((group) => group.section_id))];
  facts.sections = sectionIds.length
    ? await db
        .selectFrom("sections")
        .select(["id", "name"])
        .where("id", "in", sectionIds)
        .orderBy("sort_order")
        .execute()
    : [];

  // Places taken, grouped the same way (performance, section, price).
  const seatsTaken = await db
    .selectFrom("seat_claims")
    .innerJoin("performances", "performances.id", "seat_claims.performance_id")
    .innerJoin("price_plan_seats", (join) =>
      join
        .onRef("price_plan_seats.seat_id", "=", "seat_claims.seat_id")
        .onRef("price_plan_seats.price_plan_id", "=", "performances.price_plan_id"),
    )
    .innerJoin("seats", "seats.id", "seat_claims.seat_id")
    .innerJoin(fullPrice, "full_price.price_band_id", "price_plan_seats.price_band_id")
    .select((eb) => [
      "seat_claims.performance_id",
      "seats.section_id",
      "full_price.price",
      eb.fn.countAll<number>().as("taken"),
      // Withheld seats were never for sale: they count against neither capacity nor what is left.
      eb.fn.sum<number>(eb.case().when("seat_claims.status", "=", "withheld").then(1).else(0).end()).as("withheld"),
    ])
    .where("seat_claims.performance_id", "in", performanceIds)
    .where(activeClaim(nowIso))
    .groupBy(["seat_claims.performance_id", "seats.section_id", "full_price.price"])
    .execute();
  const standingTaken = await db
    .selectFrom("standing_claims")
    .select((eb) => ["performance_id", "section_id", eb.fn.sum<number>("quantity").as("taken")])
    .where("performance_id", "in", performanceIds)
    .where(activeStandingClaim(nowIso))
    .groupBy(["performance_id", "section_id"])
    .execute();

  for (const performance of performances) {
    const planGroups = groups.filter((group) => group.price_plan_id === performance.price_plan_id && fits(group));
    const claimed = seatsTaken.filter(
      (row) => row.performance_id === performance.id && fits({ section_id: row.section_id, price: Number(row.price) }),
    );
    const withheld = claimed.reduce((sum, row) => sum + Number(row.withheld ?? 0), 0);
    const capacity = planGroups.reduce((sum, group) => sum + group.seats, 0) - withheld;
    const taken =
      claimed.reduce((sum, row) => sum + Number(row.taken), 0) -
      withheld +
      standingTaken
        .filter(
          (row) =>
            row.performance_id === performance.id &&
            planGroups.some((group) => group.standing && group.section_id === row.section_id),
        )
        .reduce((sum, row) => sum + Number(row.taken), 0);
    const left = Math.max(0, capacity - taken);
    const level =
      filter.quantity !== undefined && left < filter.quantity
        ? "soldOut"
        : availabilityLevel(left, capacity, thresholds);
    facts.availability.set(performance.id, { capacity, left, level });
  }
  return facts;
}

/** Where a performance stands for a buyer browsing the calendar at `now`. */
export type SaleState =
  /** On general sale. */
  | "onSale"
  /** In presale, and this buyer does not (yet) qualify: members and code holders can book. */
  | "presale"
  /** In presale, and this buyer's entitlements (a presale code) let them book now. */
  | "presaleUnlocked"
  /** Neither on sale nor in presale yet. */
  | "notYetOnSale"
  /** Online sales have ended. */
  | "closed"
  | "cancelled";

export interface SaleWindow {
  status: "on_sale" | "cancelled";
  onSaleFrom: string;
  onSaleUntil: string;
  presaleFrom: string | null;
  presaleUntil: string | null;
  /** Comma-separated presale audiences ("plus-member", "promo"). */
  presaleAudience: string;
}

/**
 * The same rule the inventory applies when a hold is taken (inventory.server.ts), read-only, so
 * the calendar never offers as bookable what the tickets page would refuse, and vice versa.
 */
export function saleState(window: SaleWindow, now: Date, presaleAudiences: ReadonlySet<string>): SaleState {
  const at = now.toISOString();
  if (window.status !== "on_sale") return "cancelled";
  if (at >= window.onSaleUntil) return "closed";
  if (at >= window.onSaleFrom) return "onSale";
  const inPresale = window.presaleFrom !== null && at >= window.presaleFrom && at < (window.presaleUntil ?? "");
  if (!inPresale) return "notYetOnSale";
  const audience = window.presaleAudience.split(",").filter(Boolean);
  return audience.some((group) => presaleAudiences.has(group)) ? "presaleUnlocked" : "presale";
}
