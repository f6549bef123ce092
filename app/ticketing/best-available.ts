import type { AccessService, Restriction, SeatType } from "./catalogue-file";

// Best available ("ticket search"): the best block of adjacent free seats in one row, by quality,
// that fits the buyer's filters and entitlements and leaves no single empty seat stranded beside
// it, or, only where every block that fits would strand one, the best of those: a buyer is never
// told there are no seats while seats together are free (docs/decisions/0032). A buyer who asks
// for seats suited to the performance's access services (issue 43) gets the best block of seats
// that suit them, and only when none fits the best block of any seats, told so (decision 0049).
// Pure: the store gives it the seats and which are free.

export interface SearchSeat {
  id: number;
  sectionId: string;
  rowOrder: number;
  position: number;
  quality: number;
  seatType: SeatType;
  restrictions: readonly Restriction[];
  /** The seat's band price, booking fee included (pricing.ts bandPrice), in minor units. */
  price: number;
  /** The access services the seat suits (a view of the caption screen…); none when left out. */
  suits?: readonly AccessService[];
  free: boolean;
}

export interface SearchRequest {
  quantity: number;
  minPrice?: number;
  maxPrice?: number;
  sectionId?: string;
  /** How many of the seats are wheelchair spaces; the rest sit beside them (companion seats first). */
  wheelchairSpaces?: number;
  /**
   * Prefer seats suited to these access services: a block whose every seat suits every one of
   * them, if one fits; otherwise the best block as without. Only the performance's own services
   * (the seat search drops the others).
   */
  prefer?: readonly AccessService[];
}

export interface SearchResult {
  seatIds: number[];
  quality: number;
  /** When seats suited to `prefer` were asked for: whether these are. */
  suited?: boolean;
}

/** A seat as the catalogue has it: everything but whether it is free now. */
export type PlannedSeat = Omit<SearchSeat, "free">;
type IsFree = (seat: PlannedSeat) => boolean;

function eligible(
  seat: PlannedSeat,
  isFree: IsFree,
  request: SearchRequest,
  allowed: ReadonlySet<Restriction>,
): boolean {
  if (!isFree(seat)) return false;
  if (request.sectionId && seat.sectionId !== request.sectionId) return false;
  if (request.minPrice !== undefined && seat.price < request.minPrice) return false;
  if (request.maxPrice !== undefined && seat.price > request.maxPrice) return false;
  const wantsWheelchair = (request.wheelchairSpaces ?? 0) > 0;
  // Wheelchair spaces and companion seats are kept for the people who need them.
  if (!wantsWheelchair && (seat.seatType === "wheelchair" || seat.seatType === "companion")) return false;
  // Sponsored seats (for one card's holders) are chosen on the seat map, where they are explained:
  // offered unasked, they would tie the buyer to that card brand at payment.
  if (seat.restrictions.includes("amex")) return false;
  return seat.restrictions.every((restriction) => allowed.has(restriction));
}

/**
 * The seats by row, each row in seat order (an aisle shows as a gap in positions). A house's rows
 * never change, so best available against the store groups them once per price plan.
 */
export function rowsOf<Seat extends PlannedSeat>(seats: readonly Seat[]): Seat[][] {
  const rows = new Map<string, Seat[]>();
  for (const seat of seats) {
    const key = `${seat.sectionId}\u0000${seat.rowOrder}`;
    const row = rows.get(key);
    if (row) row.push(seat);
    else rows.set(key, [seat]);
  }
  return [...rows.values()].map((row) => row.sort((a, b) => a.position - b.position));
}

// strandsASeat's helpers, at module level: it runs for every candidate block of a large house,
// and three closures made on each call were most of a best-available search's time.
const seatAt = (row: readonly PlannedSeat[], index: number) =>
  index >= 0 && index < row.length ? row[index]! : undefined;
const freeSeat = (isFree: IsFree, seat: PlannedSeat | undefined): seat is PlannedSeat =>
  seat !== undefined && isFree(seat);
const adjacent = (a: PlannedSeat | undefined, b: PlannedSeat | undefined) =>
  a !== undefined && b !== undefined && Math.abs(a.position - b.position) === 1;

/**
 * True when taking row[start..end] would leave a lone free seat next to it: a free seat on either
 * side whose other neighbour is taken, missing, or across an aisle.
 */
function strandsASeat(row: readonly PlannedSeat[], isFree: IsFree, start: number, end: number): boolean {
  const left = seatAt(row, start - 1);
  if (freeSeat(isFree, left) && adjacent(left, row[start])) {
    const beyond = seatAt(row, start - 2);
    if (!(freeSeat(isFree, beyond) && adjacent(beyond, left))) return true;
  }
  const right = seatAt(row, end + 1);
  if (freeSeat(isFree, right) && adjacent(right, row[end])) {
    const beyond = seatAt(row, end + 2);
    if (!(freeSeat(isFree, beyond) && adjacent(beyond, right))) return true;
  }
  return false;
}

export function findBestAvailable(
  seats: readonly SearchSeat[],
  request: SearchRequest,
  allowed: ReadonlySet<Restriction>,
): SearchResult | null {
  return bestBlock(rowsOf(seats), (seat) => (seat as SearchSeat).free, request, allowed);
}

/** findBestAvailable over rows grouped once (rowsOf), with which seats are free asked of `isFree`. */
export function bestBlock(
  rows: readonly (readonly PlannedSeat[])[],
  isFree: IsFree,
  request: SearchRequest,
  allowed: ReadonlySet<Restriction>,
): SearchResult | null {
  const prefer = request.prefer ?? [];
  if (prefer.length === 0) return blockOf(rows, isFree, request, allowed, () => true);
  // Suited seats first, judged by the same rules among themselves (a lone seat is stranded only
  // where every suited block would strand one); the rest of the house only when none fits.
  const suited = blockOf(rows, isFree, request, allowed, (seat) =>
    prefer.every((service) => seat.suits?.includes(service) ?? false),
  );
  if (suited) return { ...suited, suited: true };
  const other = blockOf(rows, isFree, request, allowed, () => true);
  return other ? { ...other, suited: false } : null;
}

function blockOf(
  rows: readonly (readonly PlannedSeat[])[],
  isFree: IsFree,
  request: SearchRequest,
  allowed: ReadonlySet<Restriction>,
  wanted: (seat: PlannedSeat) => boolean,
): SearchResult | null {
  const { quantity } = request;
  const wheelchairSpaces = request.wheelchairSpaces ?? 0;
  if (!Number.isInteger(quantity) || quantity < 1 || wheelchairSpaces > quantity) return null;
  type Block = { row: readonly PlannedSeat[]; start: number; quality: number; rowOrder: number };
  // The best block leaving no lone seat, and the best of those that would leave one.
  let best: Block | null = null;
  let bestStranding: Block | null = null;
  // Best quality; on a tie, the row nearer the stage, then the first found (stable).
  const better = (block: Block, than: Block | null) =>
    !than || block.quality > than.quality || (block.quality === than.quality && block.rowOrder < than.rowOrder);

  for (const row of rows) {
    for (let start = 0; start + quantity <= row.length; start += 1) {
      const end = start + quantity - 1;
      let ok = true;
      let quality = 0;
      let spaces = 0;
      for (let index = start; index <= end; index += 1) {
        const seat = row[index]!;
        if (
          !eligible(seat, isFree, request, allowed) ||
          !wanted(seat) ||
          (index > start && seat.position !== row[index - 1]!.position + 1)
        ) {
          ok = false;
          break;
        }
        quality += seat.quality;
        if (seat.seatType === "wheelchair") spaces += 1;
      }
      if (!ok || spaces !== wheelchairSpaces) continue;
      const block = { row, start, quality: quality / quantity, rowOrder: row[0]!.rowOrder };
      if (!strandsASeat(row, isFree, start, end)) {
        if (better(block, best)) best = block;
      } else if (!best && better(block, bestStranding)) bestStranding = block;
    }
  }
  const chosen = best ?? bestStranding;
  return chosen
    ? {
        seatIds: chosen.row.slice(chosen.start, chosen.start + quantity).map((seat) => seat.id),
        quality: chosen.quality,
      }
    : null;
}
