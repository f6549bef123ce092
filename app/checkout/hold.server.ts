import type { AppLoadContext } from "@remix-run/node";
import { calendarPath, showPath, ticketsPath } from "~/routing/paths";
import type { Reservation } from "~/ticketing/reservations.server";

/** What the hold panel shows: the clock as the server sees it (true even without script). */
export interface HoldView {
  performanceId: string;
  showName: string;
  venueName: string;
  startsAt: string;
  timeZone: string;
  secondsLeft: number;
  /** When the hold ends: a clock time a buyer without script (whose countdown stands still) can plan by. */
  expiresAt: string;
  expired: boolean;
  canExtend: boolean;
  places: number;
  ticketsHref: string;
}

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
