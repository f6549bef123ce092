import type { AppLoadContext } from "@remix-run/node";
import { calendarPath, showPath, ticketsPath } from "~/urls/paths";
import type { Reservation } from "~/ticketing/reservation-view.server";
import type { HoldView } from "~/views/hold";

// What the hold panel and the tickets page show of a held reservation: the clock decides what is
// left of it, and the deployment's routing mode where its pages are.

export function holdView(context: AppLoadContext, reservation: Reservation): HoldView {
  const secondsLeft = Math.max(
    0,
    Math.floor((new Date(reservation.expiresAt).getTime() - context.clock.now().getTime()) / 1000),
  );
  return {
    performanceId: reservation.performanceId,
    showName: reservation.show.name,
    venueName: reservation.show.venueName,
    startsAt: reservation.startsAt,
    timeZone: reservation.show.timeZone,
    secondsLeft,
    expiresAt: reservation.expiresAt,
    expired: reservation.expired || secondsLeft === 0,
    canExtend: reservation.canExtend,
    places: reservation.seats.length + reservation.standing.reduce((sum, claim) => sum + claim.quantity, 0),
    ticketsHref: reservationPaths(context, reservation).tickets,
  };
}

/** Where a reservation's show, calendar and tickets pages are in this routing mode. */
export function reservationPaths(context: AppLoadContext, reservation: Reservation) {
  const mode = context.config.routingType;
  const { titleSlug, venueSlug } = reservation.show;
  return {
    show: showPath(mode, titleSlug, venueSlug),
    calendar: calendarPath(mode, titleSlug, venueSlug),
    tickets: ticketsPath(mode, titleSlug, venueSlug, reservation.performanceId),
  };
}
