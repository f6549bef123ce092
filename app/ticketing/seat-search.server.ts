import type { Store } from "~/db/connection.server";
import type { Clock } from "~/clock";
import { accessServicesOf } from "~/views/access-services";
import { bestBlock, rowsOf, type PlannedSeat, type SearchRequest, type SearchResult } from "./best-available";
import type { Restriction } from "./catalogue-file";
import { CATALOGUE_MAX_AGE_MS, remembered } from "./catalogue-facts.server";
import type { Refusal } from "./errors";
import { GUEST, seatLimitRefusal, takenSeatIds, type Entitlements } from "./inventory.server";
import { bandPricesOfPlans } from "./queries.server";

/**
 * Best available against the store. A price plan's seats (positions, quality, prices) never change
 * once imported, so they are read once and kept, grouped by row; each search reads only which
 * seats are taken.
 */
export function createSeatSearch(store: Store, clock: Clock) {
  const plans = new Map<string, Promise<PlannedSeat[][]>>();
  // A performance's price plan and seat limit, as unchanging as its seats (catalogue-facts.server.ts).
  const planOf = remembered(
    clock,
    (performanceId: string) =>
      store.db
        .selectFrom("performances")
        .select(["price_plan_id", "seat_limit", "access_services"])
        .where("id", "=", performanceId)
        .executeTakeFirst(),
    CATALOGUE_MAX_AGE_MS,
  );

  function rowsOfPlan(pricePlanId: string): Promise<PlannedSeat[][]> {
    let seats = plans.get(pricePlanId);
    if (!seats) {
      seats = (async () => {
        const [prices, rows] = await Promise.all([
          bandPricesOfPlans(store.db, [pricePlanId]),
          store.db
            .selectFrom("seats")
            .innerJoin("price_plan_seats", "price_plan_seats.seat_id", "seats.id")
            .select([
              "seats.id",
              "seats.section_id",
              "seats.row_order",
              "seats.position",
              "seats.quality",
              "seats.seat_type",
              "seats.restrictions",
              "seats.suits",
              "price_plan_seats.price_band_id",
            ])
            .where("price_plan_seats.price_plan_id", "=", pricePlanId)
            .execute(),
        ]);
        const seats = rows.flatMap((row): PlannedSeat[] => {
          const price = prices.get(row.price_band_id);
          return price === undefined
            ? []
            : [
                {
                  id: row.id,
                  sectionId: row.section_id,
                  rowOrder: row.row_order,
                  position: row.position,
                  quality: row.quality,
                  seatType: row.seat_type,
                  restrictions: row.restrictions.split(",").filter(Boolean) as Restriction[],
                  suits: accessServicesOf(row.suits),
                  price,
                },
              ];
        });
        return rowsOf(seats);
      })();
      seats.catch(() => plans.delete(pricePlanId));
      plans.set(pricePlanId, seats);
    }
    return seats;
  }

  /**
   * Best available for one performance and request: the performance's seats are read (once per
   * price plan), then `choose` picks the best block from which seats are taken at that moment. The
   * engine's holdBest calls it inside the transaction that claims the block. A group larger than
   * one basket may hold is refused here (told so, not that no seats were found); null when there is
   * no such performance. Seats suited to an access service are preferred only for the services the
   * performance carries: a captioned seat means nothing at a performance without captions.
   */
  async function chooser(
    performanceId: string,
    request: SearchRequest,
    entitlements: Entitlements = GUEST,
  ): Promise<
    | {
        choose: (taken: ReadonlySet<number>) => number[] | null;
        /** The same choice with whether its seats suit what was preferred. */
        best: (taken: ReadonlySet<number>) => SearchResult | null;
      }
    | Refusal
    | null
  > {
    const performance = await planOf(performanceId);
    if (!performance) return null;
    const overLimit = seatLimitRefusal(performance.seat_limit, request.quantity);
    if (overLimit) return overLimit;
    const rows = await rowsOfPlan(performance.price_plan_id);
    const carried = accessServicesOf(performance.access_services);
    const prefer = (request.prefer ?? []).filter((service) => carried.includes(service));
    const best = (taken: ReadonlySet<number>) =>
      bestBlock(rows, (seat) => !taken.has(seat.id), { ...request, prefer }, entitlements.restrictions);
    return { best, choose: (taken) => best(taken)?.seatIds ?? null };
  }

  return {
    chooser,

    /** The best block free now, without holding it (what holdBest would choose at this moment). */
    async search(
      performanceId: string,
      request: SearchRequest,
      entitlements: Entitlements = GUEST,
    ): Promise<{ seatIds: number[]; suited?: boolean } | Refusal | null> {
      const found = await chooser(performanceId, request, entitlements);
      if (!found || "ok" in found) return found;
      const result = found.best(await takenSeatIds(store.db, performanceId, clock.now().toISOString()));
      if (!result) return null;
      return result.suited === undefined
        ? { seatIds: result.seatIds }
        : { seatIds: result.seatIds, suited: result.suited };
    },
  };
}

export type SeatSearch = ReturnType<typeof createSeatSearch>;
