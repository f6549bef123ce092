import type { AppLoadContext } from "@remix-run/node";
import { message } from "~/forms/checkout/messages";
import type { SeatName, SeatRefused } from "~/views/house-seats";

// What the house-seat and comp pages share (issue 55 item 5): the performances they offer, and
// how a refusal of seats is worded in the error summary.

/** Every performance still to start and on sale, soonest first: house seats and comps are for any of them. */
export async function salePerformances(context: AppLoadContext) {
  const runs = await context.catalogue.runsOnSale(context.clock.now());
  return runs
    .flatMap((run) =>
      run.performances.map((performance) => ({
        id: performance.id,
        startsAt: performance.startsAt,
        timeZone: run.timeZone,
        show: run.name,
        venue: run.venueName,
      })),
    )
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.show.localeCompare(b.show));
}

export type SalePerformance = Awaited<ReturnType<typeof salePerformances>>[number];

/** The performance the page's GET form chose, when it is on the list. */
export function chosenPerformance(performances: SalePerformance[], url: string) {
  const asked = new URL(url).searchParams.get("performance");
  return { asked, chosen: performances.find((performance) => performance.id === asked) ?? null };
}

const seatValues = (seat: SeatName) => ({ section: seat.section, row: seat.row, seat: seat.seat });

/** One line per seat refused, saying where it stands now. */
export const refusedSeatMessages = (seats: SeatRefused[]) =>
  seats.map((seat) => message(`staff.houseSeats.refused.${seat.state}`, seatValues(seat)));

/** The seats, for the page to name (tickets.seatName) in its answer. */
export const seatNames = (seats: SeatName[]) => seats.map(seatValues);
