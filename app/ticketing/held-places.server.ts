import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { activeClaim } from "./inventory.server";

// Which seats and standing places a hold or a basket holds, each with its price band: the one
// selection behind the reservation the pages show and the basket's prices. A caller joins what
// else it needs (the reservation view names each seat; the basket's prices need nothing more).

/** One hold's places (an expired hold's too: its page says so), or a basket's still held at `liveAt`. */
export type HeldPlacesOf = { holdId: string } | { basketId: string; liveAt: string };

export function heldSeats(db: Kysely<Database>, of: HeldPlacesOf) {
  const seats = db
    .selectFrom("seat_claims")
    .innerJoin("holds", "holds.id", "seat_claims.hold_id")
    .innerJoin("performances", "performances.id", "seat_claims.performance_id")
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
    ])
    .where("seat_claims.status", "=", "held");
  return "holdId" in of
    ? seats.where("seat_claims.hold_id", "=", of.holdId)
    : seats.where("holds.basket_id", "=", of.basketId).where(activeClaim(of.liveAt));
}

export function heldStanding(db: Kysely<Database>, of: HeldPlacesOf) {
  const standing = db
    .selectFrom("standing_claims")
    .innerJoin("holds", "holds.id", "standing_claims.hold_id")
    .innerJoin("performances", "performances.id", "standing_claims.performance_id")
    .innerJoin("price_plan_areas", (join) =>
      join
        .onRef("price_plan_areas.section_id", "=", "standing_claims.section_id")
        .onRef("price_plan_areas.price_plan_id", "=", "performances.price_plan_id"),
    )
    .select([
      "standing_claims.id",
      "standing_claims.performance_id",
      "standing_claims.section_id",
      "standing_claims.quantity",
      "standing_claims.price_option_id",
      "price_plan_areas.price_band_id",
    ])
    .where("standing_claims.status", "=", "held");
  return "holdId" in of
    ? standing.where("standing_claims.hold_id", "=", of.holdId)
    : standing.where("holds.basket_id", "=", of.basketId).where("standing_claims.held_until", ">", of.liveAt);
}
