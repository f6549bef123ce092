import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import { RESTRICTIONS } from "~/ticketing/catalogue-file";
import type { Customer } from "~/ticketing/order-lifecycle.server";
import type { PricedBasket } from "~/ticketing/pricing";
import { newBarcode } from "~/use-cases/barcode.server";
import type { createEngine } from "./engine";

// An access booking on the demo catalogue, as the access booking flow leaves it (issue 55 item 4's
// access list reads it): a wheelchair space and the companion seat beside it, booked through the
// domain rather than the pages.

/**
 * Access performances on general sale now, each with a wheelchair space and a companion seat
 * beside it in the same row of its plan (first performance, then wheelchair space, first).
 */
export async function wheelchairBesideCompanion(store: Store, clock: Clock) {
  const now = clock.now().toISOString();
  const candidates = await store.db
    .selectFrom("performances")
    .innerJoin("price_plan_seats", "price_plan_seats.price_plan_id", "performances.price_plan_id")
    .innerJoin("seats as wheelchair", "wheelchair.id", "price_plan_seats.seat_id")
    .innerJoin("seats as companion", (join) =>
      join
        .onRef("companion.section_id", "=", "wheelchair.section_id")
        .onRef("companion.row_name", "=", "wheelchair.row_name"),
    )
    .select([
      "performances.id",
      "performances.access_services",
      "wheelchair.id as wheelchairId",
      "wheelchair.suits as wheelchairSuits",
      "wheelchair.position as wheelchairPosition",
      "companion.id as companionId",
      "companion.position as companionPosition",
    ])
    .where("performances.access_services", "!=", "")
    .where("performances.presale_from", "is", null)
    .where("performances.on_sale_from", "<=", now)
    .where("performances.starts_at", ">", now)
    .where("wheelchair.seat_type", "=", "wheelchair")
    .where("companion.seat_type", "=", "companion")
    .orderBy("performances.starts_at")
    .orderBy("wheelchair.id")
    .execute();
  const beside = candidates.filter((row) => Math.abs(row.wheelchairPosition - row.companionPosition) === 1);
  expect(beside.length).toBeGreaterThan(0);
  return beside;
}

/**
 * A wheelchair user's booking of a wheelchair space and a companion seat (with every restriction
 * lifted, as their registered needs allow), completed and its tickets issued, labelled as the
 * site labels them.
 */
export async function wheelchairBooking(
  engine: ReturnType<typeof createEngine>,
  performanceId: string,
  seats: { wheelchairId: number; companionId: number },
  customer: Customer,
) {
  const basketId = randomUUID();
  const held = await engine.inventory.holdSeats({
    basketId,
    performanceId,
    seatIds: [seats.wheelchairId, seats.companionId],
    entitlements: { restrictions: new Set(RESTRICTIONS), presale: new Set(), companions: 1 },
  });
  if (!held.ok) throw new Error(held.reason);
  const placed = await engine.placeAsShown(basketId, customer);
  if (!placed.ok) throw new Error(placed.reason);
  expect(await engine.orderLifecycle.completeOrder(placed.order)).toEqual({ ok: true });
  const refs = (JSON.parse(placed.order.lines) as PricedBasket).lines.flatMap((line) =>
    line.kind === "ticket" ? [line.ref] : [],
  );
  const places = await engine.orders.placesOf(refs);
  await engine.orders.issueTickets(
    placed.order.id,
    refs.map((ref) => {
      const place = places.get(ref);
      const label = place?.kind === "seat" ? `${place.section}, row ${place.row}, seat ${place.seat}` : ref;
      return { ref, label, barcode: newBarcode() };
    }),
  );
  return placed.order;
}
