// The hold panel's view of a reservation.

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
