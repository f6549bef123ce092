import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { activeClaim } from "./inventory.server";

// The seats and standing places a hold or a basket holds, each with its price band and what a
// page names it by: the one query behind the reservation the pages show and the basket's prices.

/** One hold's places (an expired hold's too: its page says so), or a basket's still held at `liveAt`. */
export type HeldPlacesOf = { holdId: string } | { basketId: string; liveAt: string };

export async function heldPlaces(db: Kysely<Database>, of: HeldPlacesOf) {
  let seats = db
    .selectFrom("seat_claims")
    .innerJoin("holds", "holds.id", "seat_claims.hold_id")
    .innerJoin("performances", "performances.id", "seat_claims.performance_id")
    .innerJoin("seats", "seats.id", "seat_claims.seat_id")
    .innerJoin("sections", "sections.id", "seats.section_id")
    .innerJoin("price_plan_seats", (join) =>
      join
        .onRef("price_plan_seats.seat_id", "=", "seat_claims.seat_id")
        .onRef("price_plan_seats.price_plan_id", "=", "performances.price_plan_id"),
    )
    .select([
      "seat_claims.performance_id",
      "seat_claims.seat_id",
      "seat_claims.price_option_id",
      "price_plan_seats.price_band_id",
      "sections.name as section",
      "seats.row_name",
      "seats.label",
      "seats.seat_type",
      "seats.restrictions",
      "seats.view_note",
    ])
    .where("seat_claims.status", "=", "held");
  let standing = db
    .selectFrom("standing_claims")
    .innerJoin("holds", "holds.id", "standing_claims.hold_id")
    .innerJoin("performances", "performances.id", "standing_claims.performance_id")
    .innerJoin("sections", "sections.id", "standing_claims.section_id")
    .innerJoin("price_plan_areas", (join) =>
      join
        .onRef("price_plan_areas.section_id", "=", "standing_claims.section_id")
        .onRef("price_plan_areas.price_plan_id", "=", "performances.price_plan_id"),
    )
    .select([
      "standing_claims.id",
      "standing_claims.performance_id",
      "standing_claims.section_id",
      "sections.name as section",
      "standing_claims.quantity",
      "standing_claims.price_option_id",
      "price_plan_areas.price_band_id",
    ])
    .where("standing_claims.status", "=", "held");
  if ("holdId" in of) {
    seats = seats.where("seat_claims.hold_id", "=", of.holdId);
    standing = standing.where("standing_claims.hold_id", "=", of.holdId);
  } else {
    seats = seats.where("holds.basket_id", "=", of.basketId).where(activeClaim(of.liveAt));
    standing = standing.where("holds.basket_id", "=", of.basketId).where("standing_claims.held_until", ">", of.liveAt);
  }
  const [seatRows, standingRows] = await Promise.all([
    seats.orderBy("sections.sort_order").orderBy("seats.row_order").orderBy("seats.position").execute(),
    standing.orderBy("sections.sort_order").execute(),
  ]);
  return { seats: seatRows, standing: standingRows };
}
