import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { ChangeFeed } from "~/db/change-feed.server";
import {
  computeCalendarFacts,
  DEFAULT_THRESHOLDS,
  loadClaimCounts,
  loadPlanGroups,
  type AvailabilityFilter,
  type AvailabilityThresholds,
  type CalendarFacts,
  type ClaimCounts,
  type PerformanceAvailability,
  type PlanGroup,
  placesLeft,
  sectionNames,
} from "./availability.server";

export interface AvailabilityOptions {
  thresholds?: AvailabilityThresholds;
  /**
   * How old a count may be when another instance (process, container) changed the claims: this
   * instance hears of its own holds and releases at once, and of nobody else's.
   */
  maxAgeMs: number;
  /**
   * Other instances' changes as they commit (PostgreSQL LISTEN, SQLite's data version). While it
   * is live a count is kept until a change or a lapse says otherwise (and at most
   * HEARD_MAX_AGE_MS); while it is not, `maxAgeMs` bounds how stale a count may be.
   */
  feed?: Pick<ChangeFeed, "live" | "subscribe">;
}

/** A backstop only: with the feed live, a count is dropped when a change is heard. */
export const HEARD_MAX_AGE_MS = 60_000;

interface Cached<T> {
  value: T;
  /** Epoch ms after which the value is read again. */
  until: number;
}

/**
 * Availability for the calendar and the show page, read through a small cache. Counting the claims
 * of a busy month costs more than rendering the page, and every browser asks for it. What the cache
 * keeps is exact for this instance: the inventory reports each change (`changed`), and a count is
 * read again when the first hold it counted lapses. Across instances the feed reports changes as
 * they commit; without it (or while it is down) a count is at most `maxAgeMs` old.
 * The tickets page and every hold read the store itself, so a stale calendar can mislead only as
 * far as one click: it never sells a seat.
 */
export function createAvailability(store: Store, clock: Clock, options: AvailabilityOptions) {
  const thresholds = options.thresholds ?? DEFAULT_THRESHOLDS;
  const plans = new Map<string, Cached<PlanGroup[]>>();
  const claims = new Map<string, Cached<ClaimCounts>>();
  const performances = new Map<string, Cached<{ planId: string; capacity: number }>>();
  const sections = new Map<string, Cached<{ id: string; name: string }[]>>();
  // Bumped by every change: a read that began before a change must not store what it read.
  const generations = new Map<string, number>();
  // Bumped when any performance may have changed (another SQLite process wrote, the listener
  // reconnected): the same rule, for every read under way.
  let epoch = 0;
  const generation = (id: string) => `${epoch}:${generations.get(id) ?? 0}`;
  const claimsMaxAge = () =>
    options.maxAgeMs > 0 && options.feed?.live() ? Math.max(HEARD_MAX_AGE_MS, options.maxAgeMs) : options.maxAgeMs;

  const fresh = <T>(entry: Cached<T> | undefined, now: number) => (entry && now < entry.until ? entry : undefined);

  async function performanceFacts(ids: string[], now: number) {
    const missing = ids.filter((id) => !fresh(performances.get(id), now));
    if (missing.length) {
      const rows = await store.db
        .selectFrom("performances")
        .select(["id", "price_plan_id", "capacity"])
        .where("id", "in", missing)
        .execute();
      for (const row of rows)
        performances.set(row.id, {
          value: { planId: row.price_plan_id, capacity: row.capacity },
          until: now + options.maxAgeMs,
        });
    }
    return ids.flatMap((id) => {
      const entry = performances.get(id);
      return entry ? [{ id, ...entry.value }] : [];
    });
  }

  async function planGroups(planIds: string[], now: number) {
    const missing = planIds.filter((id) => !fresh(plans.get(id), now));
    if (missing.length) {
      const groups = await loadPlanGroups(store, missing);
      for (const id of missing)
        plans.set(id, { value: groups.filter((group) => group.planId === id), until: now + options.maxAgeMs });
    }
    return planIds.flatMap((id) => plans.get(id)?.value ?? []);
  }

  async function sectionsOf(groups: PlanGroup[], now: number) {
    const ids = [...new Set(groups.map((group) => group.sectionId))].sort();
    if (ids.length === 0) return [];
    const key = ids.join(",");
    const cached = fresh(sections.get(key), now);
    if (cached) return cached.value;
    const value = await sectionNames(store, groups);
    sections.set(key, { value, until: now + options.maxAgeMs });
    return value;
  }

  async function claimCounts(ids: string[], now: number) {
    const missing = ids.filter((id) => !fresh(claims.get(id), now));
    if (missing.length) {
      const started = new Map(missing.map((id) => [id, generation(id)]));
      const counts = await loadClaimCounts(store, missing, new Date(now));
      const maxAge = claimsMaxAge();
      for (const [id, value] of counts) {
        if (generation(id) !== started.get(id)) continue;
        const lapse = value.firstLapse ? Date.parse(value.firstLapse) : Infinity;
        claims.set(id, { value, until: Math.min(now + maxAge, lapse) });
      }
    }
    const result = new Map<string, ClaimCounts>();
    for (const id of ids) {
      const entry = claims.get(id);
      if (entry) result.set(id, entry.value);
    }
    // A count dropped by a change during the read: read it again, uncached, rather than guess.
    const dropped = ids.filter((id) => !result.has(id));
    if (dropped.length)
      for (const [id, value] of await loadClaimCounts(store, dropped, new Date(now))) result.set(id, value);
    return result;
  }

  function changed(performanceId: string) {
    generations.set(performanceId, (generations.get(performanceId) ?? 0) + 1);
    claims.delete(performanceId);
  }

  options.feed?.subscribe((performanceId) => {
    if (performanceId !== null) return changed(performanceId);
    epoch += 1;
    claims.clear();
  });

  return {
    /** The calendar's facts for these performances under a filter (see computeCalendarFacts). */
    async calendar(performanceIds: string[], filter: AvailabilityFilter = {}): Promise<CalendarFacts> {
      const now = clock.now().getTime();
      const found = await performanceFacts(performanceIds, now);
      const groups = await planGroups([...new Set(found.map((performance) => performance.planId))], now);
      return computeCalendarFacts(
        {
          performances: found,
          groups,
          sections: await sectionsOf(groups, now),
          claims: await claimCounts(performanceIds, now),
        },
        filter,
        thresholds,
      );
    },

    /** Places left against each performance's stored capacity (the show page's next performances). */
    async summary(performanceIds: string[]): Promise<Map<string, PerformanceAvailability>> {
      const now = clock.now().getTime();
      const found = await performanceFacts(performanceIds, now);
      const counts = await claimCounts(performanceIds, now);
      return new Map(found.map(({ id, capacity }) => [id, placesLeft(capacity, counts.get(id), thresholds)]));
    },

    /**
     * The lowest all-in price (pricing.ts bandPrice: face value and booking fee, what the basket
     * charges) of any place these price plans sell: a run's "from" price, over the plans of its
     * performances still selling. Null when they sell nothing.
     */
    async lowestPrice(planIds: readonly string[]): Promise<number | null> {
      const groups = await planGroups([...new Set(planIds)], clock.now().getTime());
      return groups.length ? Math.min(...groups.map((group) => group.price)) : null;
    },

    /**
     * Each performance's lowest all-in price: the cheapest band's price as its seat labels show it
     * (pricing.ts bandPrice), whether or not a place of that band is left. What a search engine's
     * offer says a ticket costs "from"; null for a performance whose plan sells nothing.
     */
    async lowestPrices(performanceIds: string[]): Promise<Map<string, number | null>> {
      const now = clock.now().getTime();
      const found = await performanceFacts(performanceIds, now);
      const groups = await planGroups([...new Set(found.map((performance) => performance.planId))], now);
      return new Map(
        found.map(({ id, planId }) => {
          const prices = groups.filter((group) => group.planId === planId).map((group) => group.price);
          return [id, prices.length ? Math.min(...prices) : null];
        }),
      );
    },

    /** The inventory changed claims for this performance: its counts are read again next time. */
    changed,
  };
}

export type Availability = ReturnType<typeof createAvailability>;
