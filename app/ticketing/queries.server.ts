import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { bandPrice } from "./pricing";

/**
 * Each price band's price (pricing.ts bandPrice: what a place of the band is charged before any
 * other option is chosen), for every band of these price plans: what the seat map, best available
 * and the calendar show and filter by. Worked out here rather than in SQL so that one function
 * prices what is shown and what is charged. A band without options has no price and is left out.
 */
export async function bandPricesOfPlans(db: Kysely<Database>, planIds: string[]): Promise<Map<string, number>> {
  if (planIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("price_options")
    .innerJoin("price_bands", "price_bands.id", "price_options.price_band_id")
    .select([
      "price_options.price_band_id",
      "price_options.kind",
      "price_options.face_value",
      "price_options.booking_fee",
    ])
    .where("price_bands.price_plan_id", "in", planIds)
    .orderBy("price_options.sort_order")
    .orderBy("price_options.id")
    .execute();
  const optionsOf = new Map<string, { kind: string; faceValue: number; bookingFee: number }[]>();
  for (const row of rows) {
    const options = optionsOf.get(row.price_band_id) ?? [];
    options.push({ kind: row.kind, faceValue: Number(row.face_value), bookingFee: Number(row.booking_fee) });
    optionsOf.set(row.price_band_id, options);
  }
  const prices = new Map<string, number>();
  for (const [bandId, options] of optionsOf) {
    const price = bandPrice(options);
    if (price !== null) prices.set(bandId, price);
  }
  return prices;
}
