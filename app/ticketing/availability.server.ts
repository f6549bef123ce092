import type { Store } from "~/db/connection.server";
import { activeClaim } from "./inventory.server";

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
      .where((eb) => eb.or([eb("status", "!=", "held"), eb("held_until", ">", nowIso)]))
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
