// The seat map as the tickets page draws it: what app/ticketing/seat-map.server.ts builds and
// app/components/seat-map.tsx renders. It is serialised into the page for hydration, so a house
// of 2,500 seats must stay small. A seat is a tuple of numbers with an index into the bands table
// and bit flags; each row's seats travel as one short string (encodeSeats), because Remix's
// single-fetch encoding (turbo-stream) gives every array element its own index and entry, which
// for 2,500 tuples costs more than the seat map's HTML. Plain TypeScript, safe for the browser.

import { emptyOr, isCanonicalWholeNumber, type KeptQuery } from "~/urls/page-query";
import type { AccessService } from "./access-services";

export type Currency = "GBP" | "USD";

export interface SeatMapFilter {
  /** Lowest band price (all-in) to show, in minor units. */
  minPrice?: number;
  /** Highest band price (all-in) to show, in minor units. */
  maxPrice?: number;
  sectionId?: string;
}

/** The query parameters the filter form sends; prices are in minor units. */
export const FILTER_PARAMS = { minPrice: "minPrice", maxPrice: "maxPrice", sectionId: "section" } as const;

export interface SeatMapPriceOption {
  id: string;
  kind: "full" | "concession" | "child" | "member" | "promo";
  label: string;
  faceValue: number;
  bookingFee: number;
}

export interface SeatMapBand {
  id: string;
  code: string;
  name: string;
  /**
   * What a place of the band costs before another option is chosen, booking fee included
   * (pricing.ts bandPrice): what the seat labels, the key and the price filter show.
   */
  price: number;
  /** Which colour and symbol draw this band (0–7); see BAND_SYMBOLS. */
  style: number;
  options: SeatMapPriceOption[];
}

/** A seat: [id, label, x, y, band, flags] with an optional 7th element, an index into `notes`. */
export type SeatTuple = [id: number, label: string, x: number, y: number, band: number, flags: number, note?: number];

/** A row: its name and its seats, left to right, encoded by encodeSeats. */
export type SeatMapRow = [name: string, seats: string];

export interface SeatedSection {
  id: string;
  name: string;
  kind: "seated";
  rows: SeatMapRow[];
  /** Where the section's seats start and end, in the same units as x and y (for drawing). */
  top: number;
  height: number;
}

export interface StandingSection {
  id: string;
  name: string;
  kind: "standing";
  capacity: number;
  left: number;
  /** Index into `bands`. */
  band: number;
  /** Whether the area's price and part of the house fit the buyer's filter. */
  inFilter: boolean;
}

export type SeatMapSection = SeatedSection | StandingSection;

export interface SeatMapView {
  currency: Currency;
  bands: SeatMapBand[];
  sections: SeatMapSection[];
  /** Restricted-view notes, referred to by index from the seats. */
  notes: string[];
  /** x and y are in tenths of a seat width; the map spans [minX, maxX] across. */
  minX: number;
  maxX: number;
  /** Lowest and highest band price (all-in) of the performance, whatever the filter. */
  priceRange: { min: number; max: number } | null;
  /** Parts of the house that sell places, for the filter. */
  filterSections: { id: string; name: string }[];
  /** The filter the view was built with, with anything that did not apply dropped. */
  filter: SeatMapFilter;
  /** What the key explains: facts of the price plan, the same whoever looks and whatever is sold. */
  legend: SeatMapLegendFacts;
  /**
   * The performance's access services that some seat suits (issue 43), each with its seats' flag
   * and the locale key stem that words it (`…seat` in a seat's name, `…key` in the key): the
   * server words them, so the sign language is the venue's and no wording is decided here.
   * Empty on a performance without such a service: nothing is marked.
   */
  suited: SuitedMark[];
}

export interface SuitedMark {
  service: AccessService;
  flag: number;
  key: string;
}

export interface SeatMapLegendFacts {
  /** Indexes into `bands` of the bands some place is sold in, in band order. */
  bands: number[];
  /** The seat marks some seat has, in SEAT_MARKS order. */
  marks: SeatMark[];
  /** Whether some seat has a restricted view. */
  restrictedView: boolean;
}

/** x and y are stored in tenths of a seat width, as integers: short in JSON, exact enough to draw. */
export const POSITION_SCALE = 10;

// Seat flags. The low two bits are the state; the rest say what kind of seat it is.
export const STATE_MASK = 0b11;
export const FREE = 0;
export const TAKEN = 1;
export const MINE = 2;
export const LOCKED = 3;
/** Free, but outside the buyer's price or part-of-house filter: drawn, not selectable. */
export const FILTERED = 1 << 2;
export const WHEELCHAIR = 1 << 3;
export const COMPANION = 1 << 4;
export const ACCESS = 1 << 5;
export const PACKAGE = 1 << 6;
export const PROMOTIONAL = 1 << 7;
/** A sponsored-partner seat, for American Express cardholders. */
export const SPONSORED = 1 << 8;
/**
 * Suited to one of the performance's access services: the flag of the Nth service of
 * ACCESS_SERVICES is 1 << (SUITS_SHIFT + N). Set only where the performance carries it.
 */
export const SUITS_SHIFT = 9;

export type SeatState = "free" | "taken" | "mine" | "locked";
const STATES: SeatState[] = ["free", "taken", "mine", "locked"];

export const seatState = (flags: number): SeatState => STATES[flags & STATE_MASK]!;

/** The buyer can tick or untick it: free and inside the filter, or already theirs. */
export function isSelectable(flags: number): boolean {
  const state = flags & STATE_MASK;
  return state === MINE || (state === FREE && (flags & FILTERED) === 0);
}

/** Seat types and marks, in the order the accessible name and the key list them. */
export const SEAT_MARKS = [
  ["wheelchair", WHEELCHAIR],
  ["companion", COMPANION],
  ["access", ACCESS],
  ["package", PACKAGE],
  ["promotional", PROMOTIONAL],
  ["sponsored", SPONSORED],
] as const;

export type SeatMark = (typeof SEAT_MARKS)[number][0];

/** A price band is told apart by colour and by one of these symbols (for buyers who cannot tell the colours). */
export const BAND_SYMBOLS = ["●", "■", "▲", "◆", "★", "▼", "✚", "♥"] as const;

const SECTION_ID = /^[0-9A-Za-z-]{1,64}$/;

const MAX_PRICE = 999_999_999;

function price(value: string | null): number | undefined {
  if (value === null || !/^\d{1,9}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/**
 * The filter's values that may key a kept seat map: as the filter form writes them, or none
 * chosen. Made by a call, so that only the server, which makes them, carries them: an object with
 * computed keys at the top of this module would be kept in the seat map's script.
 */
export function seatMapFilterValues(): KeptQuery {
  return {
    [FILTER_PARAMS.minPrice]: (value) => emptyOr(value, (price) => isCanonicalWholeNumber(price, MAX_PRICE)),
    [FILTER_PARAMS.maxPrice]: (value) => emptyOr(value, (price) => isCanonicalWholeNumber(price, MAX_PRICE)),
    [FILTER_PARAMS.sectionId]: (value) => emptyOr(value, (id) => SECTION_ID.test(id)),
  };
}

/** Reads the filter form's query; anything malformed is ignored, never an error. */
export function parseSeatMapFilter(searchParams: URLSearchParams): SeatMapFilter {
  const filter: SeatMapFilter = {};
  let minPrice = price(searchParams.get(FILTER_PARAMS.minPrice));
  let maxPrice = price(searchParams.get(FILTER_PARAMS.maxPrice));
  // "From £60 to £30" is read the way the buyer meant it.
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice)
    [minPrice, maxPrice] = [maxPrice, minPrice];
  if (minPrice !== undefined) filter.minPrice = minPrice;
  if (maxPrice !== undefined) filter.maxPrice = maxPrice;
  const sectionId = searchParams.get(FILTER_PARAMS.sectionId)?.trim();
  if (sectionId && SECTION_ID.test(sectionId)) filter.sectionId = sectionId;
  return filter;
}

/**
 * A row's seats as one string: seats separated by ";", fields by ",", each field left empty when
 * it is what the previous seat predicts (the next id, the next number, one seat width to the right,
 * the same height, band and flags), and trailing empty fields dropped. A plain row of 40 seats is
 * its first seat and 39 semicolons.
 */
export function encodeSeats(seats: readonly SeatTuple[]): string {
  let id = NaN;
  let label = "0";
  let x = 0;
  let y = 0;
  let band = 0;
  let flags = 0;
  const parts: string[] = [];
  for (const seat of seats) {
    const fields = [
      seat[0] === id + 1 ? "" : String(seat[0]),
      seat[1] === nextLabel(label) ? "" : encodeURIComponent(seat[1]),
      seat[2] - x === POSITION_SCALE ? "" : String(seat[2] - x),
      seat[3] === y ? "" : String(seat[3] - y),
      seat[4] === band ? "" : String(seat[4]),
      seat[5] === flags ? "" : String(seat[5]),
      seat[6] === undefined ? "" : String(seat[6]),
    ];
    while (fields.length && fields.at(-1) === "") fields.pop();
    parts.push(fields.join(","));
    [id, label, x, y, band, flags] = seat;
  }
  return parts.join(";");
}

/** A seat as encodeSeats writes it, but for its flags: worked out once per price plan (prepareSeats). */
export interface PreparedSeat {
  /** The id, number, x, y and band fields, each empty when the seat before predicts it. */
  head: string;
  /** The same without its trailing empty fields: the whole seat when its flags and note add nothing. */
  bare: string;
  /** The note field, empty for none. */
  note: string;
}

/**
 * A row's seats prepared for encoding, whatever their flags: what never changes for a price plan is
 * worked out once, and each view adds only the seats' states (encodePreparedSeat), writing the same
 * string as encodeSeats.
 */
export function prepareSeats(seats: readonly SeatTuple[]): PreparedSeat[] {
  let id = NaN;
  let label = "0";
  let x = 0;
  let y = 0;
  let band = 0;
  return seats.map((seat) => {
    const fields = [
      seat[0] === id + 1 ? "" : String(seat[0]),
      seat[1] === nextLabel(label) ? "" : encodeURIComponent(seat[1]),
      seat[2] - x === POSITION_SCALE ? "" : String(seat[2] - x),
      seat[3] === y ? "" : String(seat[3] - y),
      seat[4] === band ? "" : String(seat[4]),
    ];
    const head = fields.join(",");
    while (fields.length && fields.at(-1) === "") fields.pop();
    [id, label, x, y, band] = seat;
    return { head, bare: fields.join(","), note: seat[6] === undefined ? "" : String(seat[6]) };
  });
}

/** One prepared seat of a row with its flags, after a seat with `previousFlags` (0 before the first): join with ";". */
export function encodePreparedSeat(seat: PreparedSeat, flags: number, previousFlags: number): string {
  const flagsField = flags === previousFlags ? "" : String(flags);
  if (seat.note !== "") return `${seat.head},${flagsField},${seat.note}`;
  return flagsField === "" ? seat.bare : `${seat.head},${flagsField}`;
}

export function decodeSeats(encoded: string): SeatTuple[] {
  if (encoded === "") return [];
  let id = NaN;
  let label = "0";
  let x = 0;
  let y = 0;
  let band = 0;
  let flags = 0;
  return encoded.split(";").map((part) => {
    const [f0 = "", f1 = "", f2 = "", f3 = "", f4 = "", f5 = "", f6 = ""] = part.split(",");
    id = f0 === "" ? id + 1 : Number(f0);
    label = f1 === "" ? nextLabel(label) : decodeURIComponent(f1);
    x += f2 === "" ? POSITION_SCALE : Number(f2);
    y += f3 === "" ? 0 : Number(f3);
    band = f4 === "" ? band : Number(f4);
    flags = f5 === "" ? flags : Number(f5);
    const seat: SeatTuple = [id, label, x, y, band, flags];
    if (f6 !== "") seat.push(Number(f6));
    return seat;
  });
}

function nextLabel(label: string): string {
  return /^\d{1,6}$/.test(label) ? String(Number(label) + 1) : "";
}

/** A seated part of the house with its rows' seats decoded. */
export interface DecodedSection {
  id: string;
  name: string;
  top: number;
  height: number;
  rows: [name: string, seats: SeatTuple[]][];
}

const decoded = new WeakMap<SeatMapView, DecodedSection[]>();

/** The view's seated parts of the house with their seats decoded, once per view. */
export function seatedSections(view: SeatMapView): DecodedSection[] {
  let sections = decoded.get(view);
  if (!sections) {
    sections = view.sections
      .filter((section): section is SeatedSection => section.kind === "seated")
      .map(({ id, name, top, height, rows }) => ({
        id,
        name,
        top,
        height,
        rows: rows.map(([row, seats]): [string, SeatTuple[]] => [row, decodeSeats(seats)]),
      }));
    decoded.set(view, sections);
  }
  return sections;
}
