import type { Selectable } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { PriceOptionTable } from "~/db/schema";

// The catalogue's facts that every checkout request reads (a performance's venue and fees, a
// band's price options, an extra's price, a delivery method's fee), kept in memory for a while. An import adds
// venues, shows and performances under new ids and refuses a slug that exists, so these rows do
// not change under a running site; the age bound is for an operator who edits one by hand, whose
// change then reaches every process within CATALOGUE_MAX_AGE_MS, and the basket's price check
// tells any buyer it reaches (docs/decisions/0024-catalogue-facts-kept.md).

export const CATALOGUE_MAX_AGE_MS = 60_000;

/**
 * `load`, remembered per key for `maxAgeMs` by the clock. A key that finds nothing is not kept
 * (an import may add it), nor is one whose read failed.
 */
export function remembered<K, V>(clock: Clock, load: (key: K) => Promise<V | undefined>, maxAgeMs: number) {
  const kept = new Map<K, { at: number; value: Promise<V | undefined> }>();
  return (key: K): Promise<V | undefined> => {
    const now = clock.now().getTime();
    const entry = kept.get(key);
    if (entry && now >= entry.at && now - entry.at < maxAgeMs) return entry.value;
    const value = load(key);
    kept.set(key, { at: now, value });
    const forget = () => {
      if (kept.get(key)?.value === value) kept.delete(key);
    };
    value.then((found) => found === undefined && forget(), forget);
    return value;
  };
}

export type PriceOptionRow = Selectable<PriceOptionTable>;

export function createCatalogueFacts(store: Store, clock: Clock, maxAgeMs = CATALOGUE_MAX_AGE_MS) {
  const { db } = store;

  const optionsOfBand = remembered(
    clock,
    async (bandId: string) => {
      const rows = await db
        .selectFrom("price_options")
        .selectAll()
        .where("price_band_id", "=", bandId)
        .orderBy("sort_order")
        .execute();
      return rows.length ? rows : undefined;
    },
    maxAgeMs,
  );

  return {
    /** The venue a performance plays at, with its fees, and the show's slug. */
    venueOfPerformance: remembered(
      clock,
      (performanceId: string) =>
        db
          .selectFrom("performances")
          .innerJoin("runs", "runs.id", "performances.run_id")
          .innerJoin("venues", "venues.id", "runs.venue_id")
          .innerJoin("titles", "titles.id", "runs.title_id")
          .select([
            "venues.id",
            "venues.slug",
            "venues.currency",
            "venues.protection_fee",
            "venues.transaction_fee",
            "titles.slug as title_slug",
          ])
          .where("performances.id", "=", performanceId)
          .executeTakeFirst(),
      maxAgeMs,
    ),

    /** These bands' price options, each band's in its own order. */
    async priceOptionsOfBands(bandIds: readonly string[]): Promise<PriceOptionRow[]> {
      const bands = await Promise.all([...new Set(bandIds)].map((bandId) => optionsOfBand(bandId)));
      return bands.flatMap((options) => options ?? []);
    },

    /** An extra's unit price. */
    extra: remembered(
      clock,
      (id: string) => db.selectFrom("extras").select(["id", "price"]).where("id", "=", id).executeTakeFirst(),
      maxAgeMs,
    ),

    /** A delivery method's kind and fee. */
    deliveryMethod: remembered(
      clock,
      (id: string) => db.selectFrom("delivery_methods").select(["kind", "fee"]).where("id", "=", id).executeTakeFirst(),
      maxAgeMs,
    ),
  };
}

export type CatalogueFacts = ReturnType<typeof createCatalogueFacts>;
