import { message } from "~/forms/checkout/messages";
import type { SeatName, SeatRefused } from "~/views/house-seats";

// What the house-seat and comp pages share (issue 55 item 5): how a refusal of seats is worded in
// the error summary, and the seats an answer names. The performance they choose is
// ~/web/staff-performances.server's.

const seatValues = (seat: SeatName) => ({ section: seat.section, row: seat.row, seat: seat.seat });

/** One line per seat refused, saying where it stands now. */
export const refusedSeatMessages = (seats: SeatRefused[]) =>
  seats.map((seat) => message(`staff.houseSeats.refused.${seat.state}`, seatValues(seat)));

/** The seats, for the page to name (tickets.seatName) in its answer. */
export const seatNames = (seats: SeatName[]) => seats.map(seatValues);
