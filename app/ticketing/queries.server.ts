import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";

/**
 * Each price band's Full Price (its lowest "full" face value), as a subquery named `full_price`:
 * what price filters and best-available compare against.
 */
export function fullPriceOfBand(db: Kysely<Database>) {
  return db
    .selectFrom("price_options")
    .select((eb) => ["price_band_id", eb.fn.min("face_value").as("price")])
    .where("kind", "=", "full")
    .groupBy("price_band_id")
    .as("full_price");
}
