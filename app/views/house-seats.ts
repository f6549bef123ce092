// What the staff's house-seat and comp pages show of a performance's seats (issue 55 item 5), as
// the domain gives it and the pages render it.

/** A house seat's or a comp's reason is a note for the box office: a line, not an essay. */
export const HOUSE_REASON_MAX_LENGTH = 200;
export const COMP_REASON_MAX_LENGTH = 200;
/** Seat names typed on the comp page: a line of them at most. */
export const TYPED_SEATS_MAX_LENGTH = 200;

/** One seat of a performance, as the staff's seat lists show it. */
export interface SeatChoice {
  seatId: number;
  seat: string;
  /** "taken": sold, held by a buyer or withheld; "house": a house seat. */
  state: "free" | "taken" | "house";
  /**
   * What the buyer's side asks before selling it: its restrictions but "amex" (open to anyone),
   * and "wheelchair" for a companion seat (kept for a wheelchair user's companion).
   */
  restrictions: string[];
  seatType: string;
}

export interface SeatChoices {
  performanceId: string;
  seatLimit: number;
  sections: { sectionId: string; name: string; rows: { row: string; seats: SeatChoice[] }[] }[];
}

/** What a seat is called, as its e-ticket calls it: part of the house, row and seat. */
export interface SeatName {
  seatId: number;
  section: string;
  row: string;
  seat: string;
}

/** Where a seat stands now, for a refusal: its claim, or "free" for none. */
export type SeatState = "sold" | "held" | "withheld" | "house" | "free";

export interface SeatRefused extends SeatName {
  state: SeatState;
}
