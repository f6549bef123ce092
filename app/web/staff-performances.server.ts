import type { AppLoadContext } from "@remix-run/node";
import type { ListedPerformance } from "~/views/staff-performances";

// What the staff's choose-a-performance pages (issue 55: the door, house seats and comps) share:
// the performances they list, read from the catalogue's list of what is on, and the one the
// page's GET form chose.

/**
 * The performances on sale as of `from` (one begun since then is still listed), and only those
 * starting before `until` when it is given; soonest first.
 */
export async function listedPerformances(
  context: AppLoadContext,
  from: Date,
  until?: string,
): Promise<ListedPerformance[]> {
  const runs = await context.catalogue.runsOnSale(from);
  return runs
    .flatMap((run) =>
      run.performances
        .filter((performance) => until === undefined || performance.startsAt < until)
        .map((performance) => ({
          id: performance.id,
          startsAt: performance.startsAt,
          timeZone: run.timeZone,
          show: run.name,
          venue: run.venueName,
        })),
    )
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.show.localeCompare(b.show));
}

/**
 * Every performance still to start and on sale, soonest first: house seats and comps are for any
 * of them. With the one the page's address asks for (its GET form's choice), when it is on the
 * list, and the error for one that is not.
 */
export async function salePerformanceChoice(request: Request, context: AppLoadContext) {
  const performances = await listedPerformances(context, context.clock.now());
  const asked = new URL(request.url).searchParams.get("performance");
  const chosen = performances.find((performance) => performance.id === asked) ?? null;
  return {
    performances,
    asked,
    chosen,
    performanceError: asked !== null && !chosen ? "staff.houseSeats.performanceMissing" : null,
  };
}
