import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import { RESTRICTIONS } from "./catalogue-file";
import { importCatalogue } from "./import-catalogue.server";
import { activeClaim, createInventory, type Entitlements } from "./inventory.server";

// The demo catalogue (catalogue/demo.json) and the sales that make some performances nearly or
// completely sold out (catalogue/demo-sales.json). The sales go through the engine, as box-office
// sales would: holds within each performance's seat limit, then sold.

const BOX_OFFICE: Entitlements = {
  restrictions: new Set(RESTRICTIONS),
  presale: new Set(["plus-member", "promo"]),
  companions: 10,
};

const salesFile = z.array(
  z.object({
    show: z.string(),
    venue: z.string(),
    performance: z.number().int().min(0),
    share: z.number().min(0).max(1),
  }),
);

export async function isCatalogueEmpty(store: Store): Promise<boolean> {
  const venue = await store.db.selectFrom("venues").select("id").limit(1).executeTakeFirst();
  return venue === undefined;
}

/** The demo catalogue file; without its pictures, it imports where no images folder is given. */
export function readDemoCatalogue(root: string, { pictures }: { pictures: boolean }): unknown {
  const demo = JSON.parse(readFileSync(join(root, "catalogue/demo.json"), "utf8")) as {
    shows: { poster?: unknown; hero?: unknown }[];
  };
  if (!pictures)
    for (const show of demo.shows) {
      delete show.poster;
      delete show.hero;
    }
  return demo;
}

/**
 * Loads the demo catalogue and its sales. Its posters (catalogue/posters/*.svg) are made into
 * `imagesDir` (the site's DATA_DIR/images); without one, the demo loads without posters.
 */
export async function loadDemoCatalogue(store: Store, clock: Clock, root: string, imagesDir?: string) {
  const summary = await importCatalogue(
    store,
    readDemoCatalogue(root, { pictures: imagesDir !== undefined }),
    clock,
    imagesDir ? { pictures: { from: join(root, "catalogue"), to: imagesDir } } : {},
  );
  const sales = salesFile.parse(JSON.parse(readFileSync(join(root, "catalogue/demo-sales.json"), "utf8")));
  const inventory = createInventory(store, clock);
  let sold = 0;
  for (const [index, sale] of sales.entries()) {
    const performance = await store.db
      .selectFrom("performances")
      .innerJoin("runs", "runs.id", "performances.run_id")
      .innerJoin("titles", "titles.id", "runs.title_id")
      .innerJoin("venues", "venues.id", "runs.venue_id")
      .select(["performances.id", "performances.price_plan_id", "performances.seat_limit", "performances.capacity"])
      .where("titles.slug", "=", sale.show)
      .where("venues.slug", "=", sale.venue)
      .orderBy("performances.starts_at")
      .offset(sale.performance)
      .limit(1)
      .executeTakeFirstOrThrow();
    const now = clock.now().toISOString();
    // Best seats first, as they sell in life.
    const free = await store.db
      .selectFrom("seats")
      .innerJoin("price_plan_seats", "price_plan_seats.seat_id", "seats.id")
      .select("seats.id")
      .where("price_plan_seats.price_plan_id", "=", performance.price_plan_id)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("seat_claims")
              .select("seat_claims.seat_id")
              .whereRef("seat_claims.seat_id", "=", "seats.id")
              .where("seat_claims.performance_id", "=", performance.id)
              .where(activeClaim(now)),
          ),
        ),
      )
      .orderBy("seats.quality", "desc")
      .orderBy("seats.id")
      .execute();
    const seatsToSell = free.slice(0, Math.round(free.length * sale.share)).map((seat) => seat.id);
    for (let start = 0, batch = 0; start < seatsToSell.length; start += performance.seat_limit, batch += 1) {
      const basketId = `demo-${index}-${batch}`;
      const held = await inventory.holdSeats({
        basketId,
        performanceId: performance.id,
        seatIds: seatsToSell.slice(start, start + performance.seat_limit),
        entitlements: BOX_OFFICE,
      });
      if (!held.ok) throw new Error(`demo sale ${index} could not hold seats: ${held.reason}`);
      const result = await inventory.sellHold(held.holdId, `box-office-${basketId}`);
      if (!result.ok) throw new Error(`demo sale ${index} could not sell: ${result.reason}`);
      sold += result.seats;
    }
    const standing = await store.db
      .selectFrom("sections")
      .innerJoin("price_plan_areas", "price_plan_areas.section_id", "sections.id")
      .select(["sections.id", "sections.capacity"])
      .where("price_plan_areas.price_plan_id", "=", performance.price_plan_id)
      .execute();
    for (const area of standing) {
      let remaining = Math.round(area.capacity * sale.share);
      for (let batch = 0; remaining > 0; batch += 1) {
        const quantity = Math.min(remaining, performance.seat_limit);
        const basketId = `demo-${index}-standing-${batch}`;
        const held = await inventory.holdStanding({
          basketId,
          performanceId: performance.id,
          sectionId: area.id,
          quantity,
          entitlements: BOX_OFFICE,
        });
        if (!held.ok) throw new Error(`demo sale ${index} could not hold standing places: ${held.reason}`);
        const result = await inventory.sellHold(held.holdId, `box-office-${basketId}`);
        if (!result.ok) throw new Error(`demo sale ${index} could not sell: ${result.reason}`);
        sold += quantity;
        remaining -= quantity;
      }
    }
  }
  return { ...summary, sold };
}
