import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findBestAvailable, type SearchRequest, type SearchSeat } from "~/ticketing/best-available";
import type { AccessService, Restriction } from "~/ticketing/catalogue-file";

const GUEST = new Set<Restriction>(["amex"]);

/** A row from a compact picture: "." free, "x" taken, "|" an aisle; quality falls from the centre. */
function row(picture: string, rowOrder = 0, sectionId = "stalls", base = 90): SearchSeat[] {
  const seats: SearchSeat[] = [];
  let position = 0;
  for (const char of picture) {
    if (char === "|") {
      position += 1;
      continue;
    }
    seats.push({
      id: rowOrder * 1000 + position,
      sectionId,
      rowOrder,
      position,
      quality: base - Math.abs(position - picture.length / 2),
      seatType: char === "w" ? "wheelchair" : char === "c" ? "companion" : "standard",
      restrictions: char === "w" ? ["wheelchair"] : char === "a" ? ["amex"] : char === "p" ? ["promo"] : [],
      price: 5000,
      free: char !== "x",
    });
    position += 1;
  }
  return seats;
}

const positionsOf = (seats: SearchSeat[], ids: number[] | undefined) =>
  (ids ?? []).map((id) => seats.find((seat) => seat.id === id)!.position);

describe("best available", () => {
  it("takes the best block of adjacent seats in one row", () => {
    const seats = [...row("..........", 0, "stalls", 90), ...row("..........", 1, "stalls", 80)];
    const result = findBestAvailable(seats, { quantity: 2 }, GUEST);
    expect(positionsOf(seats, result?.seatIds)).toEqual([4, 5]);
  });

  it("leaves no single empty seat beside the block while a block that strands none fits", () => {
    // Two seats: [1,2] fills its gap exactly; [6,7] would strand 8 and [7,8] would strand 6.
    const seats = row("x..x.x...");
    expect(positionsOf(seats, findBestAvailable(seats, { quantity: 2 }, GUEST)?.seatIds)).toEqual([1, 2]);
    // Three: the front row's better seats would strand one; the row behind fits exactly.
    const front = row("x....x", 0, "stalls", 95);
    const behind = row("x...x", 1, "stalls", 60);
    expect(findBestAvailable([...front, ...behind], { quantity: 3 }, GUEST)?.seatIds).toEqual([1001, 1002, 1003]);
  });

  it("strands a seat rather than say there are none, when every block that fits would", () => {
    // [1,2,3] strands 4 and [2,3,4] strands 1: the better of the two, not "no seats".
    const seats = row("x....x");
    const three = findBestAvailable(seats, { quantity: 3 }, GUEST);
    expect(three?.seatIds).toHaveLength(3);
    expect([
      [1, 2, 3],
      [2, 3, 4],
    ]).toContainEqual(positionsOf(seats, three?.seatIds));
  });

  it("does not join seats across an aisle", () => {
    const seats = row("x..|..x");
    expect(findBestAvailable(seats, { quantity: 4 }, GUEST)).toBeNull();
    expect(positionsOf(seats, findBestAvailable(seats, { quantity: 2 }, GUEST)?.seatIds)).toHaveLength(2);
  });

  it("honours the price range and the part of the house", () => {
    const cheap = row("....", 0, "gallery").map((seat) => ({ ...seat, price: 2000 }));
    const dear = row("....", 1, "stalls").map((seat) => ({ ...seat, price: 9000 }));
    const seats = [...cheap, ...dear];
    expect(findBestAvailable(seats, { quantity: 2, maxPrice: 5000 }, GUEST)?.seatIds.every((id) => id < 1000)).toBe(
      true,
    );
    expect(
      findBestAvailable(seats, { quantity: 2, sectionId: "stalls" }, GUEST)?.seatIds.every((id) => id >= 1000),
    ).toBe(true);
    expect(findBestAvailable(seats, { quantity: 2, minPrice: 9500 }, GUEST)).toBeNull();
  });

  it("keeps restricted seats for those entitled to them, and wheelchair spaces come with companion seats", () => {
    const seats = row("wc......cw");
    const guest = findBestAvailable(seats, { quantity: 2 }, GUEST);
    expect(positionsOf(seats, guest?.seatIds).every((position) => position >= 2 && position <= 7)).toBe(true);
    const access = new Set<Restriction>(["amex", "wheelchair", "accessZone"]);
    const pair = findBestAvailable(seats, { quantity: 2, wheelchairSpaces: 1 }, access);
    expect(pair?.seatIds.map((id) => seats.find((seat) => seat.id === id)!.seatType).sort()).toEqual([
      "companion",
      "wheelchair",
    ]);
    expect(findBestAvailable(seats, { quantity: 2, wheelchairSpaces: 1 }, GUEST)).toBeNull();
    expect(findBestAvailable(row("pppp"), { quantity: 2 }, GUEST)).toBeNull();
  });

  it("never offers sponsored seats unasked: they tie the buyer to one card brand", () => {
    const seats = row("..aa..");
    const chosen = positionsOf(seats, findBestAvailable(seats, { quantity: 2 }, GUEST)?.seatIds);
    expect(chosen).toHaveLength(2);
    expect(chosen.filter((position) => position === 2 || position === 3)).toEqual([]);
    expect(findBestAvailable(row("aaaa"), { quantity: 2 }, GUEST)).toBeNull();
  });

  it("says so when nothing fits, rather than splitting the group", () => {
    expect(findBestAvailable(row("..x..x.."), { quantity: 3 }, GUEST)).toBeNull();
    expect(findBestAvailable(row("...."), { quantity: 0 }, GUEST)).toBeNull();
  });

  // Properties over random houses: whatever it returns is always a valid block, and when it
  // returns nothing, no valid block exists.
  const house = fc
    .array(
      fc.array(fc.constantFrom(".", ".", ".", "x", "x", "|", "a", "p", "w", "c"), { minLength: 1, maxLength: 24 }),
      {
        minLength: 1,
        maxLength: 6,
      },
    )
    .map((rows) => rows.flatMap((cells, index) => row(cells.join("").replace(/^\|+/, ""), index)));
  const request = fc.record<SearchRequest>({
    quantity: fc.integer({ min: 1, max: 8 }),
    maxPrice: fc.option(fc.constant(6000), { nil: undefined }),
  });

  function valid(seats: SearchSeat[], ids: number[], wanted: SearchRequest): boolean {
    const chosen = ids.map((id) => seats.find((seat) => seat.id === id)!);
    if (chosen.length !== wanted.quantity || new Set(ids).size !== ids.length) return false;
    const sameRow = chosen.every(
      (seat) => seat.rowOrder === chosen[0]!.rowOrder && seat.sectionId === chosen[0]!.sectionId,
    );
    const sorted = [...chosen].sort((a, b) => a.position - b.position);
    const adjacent = sorted.every((seat, index) => index === 0 || seat.position === sorted[index - 1]!.position + 1);
    const allowed = chosen.every(
      (seat) =>
        seat.free &&
        seat.restrictions.every((key) => GUEST.has(key) && key !== "amex") &&
        seat.seatType !== "wheelchair" &&
        seat.seatType !== "companion",
    );
    return sameRow && adjacent && allowed;
  }

  /** Whether taking the block would leave a lone free seat beside it. */
  function strands(seats: SearchSeat[], ids: number[]): boolean {
    const sorted = ids.map((id) => seats.find((seat) => seat.id === id)!).sort((a, b) => a.position - b.position);
    const rowSeats = seats.filter((seat) => seat.rowOrder === sorted[0]!.rowOrder);
    const at = (position: number) => rowSeats.find((seat) => seat.position === position);
    const orphan = (side: number, beyond: number) => at(side)?.free === true && !(at(beyond)?.free === true);
    const first = sorted[0]!.position;
    const last = sorted.at(-1)!.position;
    return orphan(first - 1, first - 2) || orphan(last + 1, last + 2);
  }

  /** Every block of adjacent seats the request could have, stranding a seat or not. */
  function blocks(seats: SearchSeat[], wanted: SearchRequest): number[][] {
    const eligible = seats.filter((seat) => wanted.maxPrice === undefined || seat.price <= wanted.maxPrice);
    const found: number[][] = [];
    for (const seat of eligible) {
      const ids = Array.from(
        { length: wanted.quantity },
        (_, offset) =>
          eligible.find((other) => other.rowOrder === seat.rowOrder && other.position === seat.position + offset)?.id,
      );
      if (ids.every((id) => id !== undefined) && valid(seats, ids as number[], wanted)) found.push(ids as number[]);
    }
    return found;
  }

  it("property: never a taken or restricted seat, never more than asked, always adjacent, an orphan only when every block leaves one", () => {
    fc.assert(
      fc.property(house, request, (seats, wanted) => {
        const result = findBestAvailable(seats, wanted, GUEST);
        if (result === null) return true;
        if (!valid(seats, result.seatIds, wanted)) return false;
        return !strands(seats, result.seatIds) || blocks(seats, wanted).every((ids) => strands(seats, ids));
      }),
      { numRuns: 500 },
    );
  });

  it("property: when it finds nothing, there is nothing to find", () => {
    fc.assert(
      fc.property(house, request, (seats, wanted) => {
        return findBestAvailable(seats, wanted, GUEST) !== null || blocks(seats, wanted).length === 0;
      }),
      { numRuns: 500 },
    );
  });
});

describe("best available, preferring seats suited to an access service (issue 43)", () => {
  /** A row whose seats at these positions suit the services. */
  const suitedRow = (picture: string, rowOrder: number, base: number, suited: Record<number, AccessService[]>) =>
    row(picture, rowOrder, "stalls", base).map((seat) => ({ ...seat, suits: suited[seat.position] ?? [] }));
  const captioned = (positions: number[]): Record<number, AccessService[]> =>
    Object.fromEntries(positions.map((position) => [position, ["captioned" as const]]));

  // The front row is the better; only the row behind suits captioned performances, at 2 to 5.
  const front = suitedRow("........", 0, 95, {});
  const behind = suitedRow("........", 1, 70, captioned([2, 3, 4, 5]));
  const house = [...front, ...behind];

  it("takes the best suited block over better seats that do not suit, and says they suit", () => {
    const result = findBestAvailable(house, { quantity: 2, prefer: ["captioned"] }, GUEST);
    expect(result?.suited).toBe(true);
    expect(result?.seatIds.every((id) => id >= 1000)).toBe(true);
    expect(positionsOf(house, result?.seatIds)).toEqual([3, 4]);
  });

  it("without the preference, takes the best seats and says nothing of suiting", () => {
    const result = findBestAvailable(house, { quantity: 2 }, GUEST);
    expect(result?.seatIds.every((id) => id < 1000)).toBe(true);
    expect(result).not.toHaveProperty("suited");
  });

  it("falls back to the best other block when no suited block fits, and says so", () => {
    // Five together: the suited stretch holds four.
    const five = findBestAvailable(house, { quantity: 5, prefer: ["captioned"] }, GUEST);
    expect(five?.suited).toBe(false);
    expect(five?.seatIds.every((id) => id < 1000)).toBe(true);
    // Suited seats taken: the same.
    const taken = [...front, ...behind.map((seat) => (seat.suits.length ? { ...seat, free: false } : seat))];
    expect(findBestAvailable(taken, { quantity: 2, prefer: ["captioned"] }, GUEST)?.suited).toBe(false);
    // A service no seat suits: the best seats, not suited.
    expect(findBestAvailable(house, { quantity: 2, prefer: ["signed"] }, GUEST)?.suited).toBe(false);
  });

  it("wants every seat of the block to suit every service asked for", () => {
    // Positions 2 and 3 suit both; 4 and 5 only captions.
    const both = suitedRow("........", 1, 70, {
      ...captioned([4, 5]),
      2: ["captioned", "signed"],
      3: ["captioned", "signed"],
    });
    const seats = [...front, ...both];
    const two = findBestAvailable(seats, { quantity: 2, prefer: ["captioned", "signed"] }, GUEST);
    expect(two?.suited).toBe(true);
    expect(positionsOf(seats, two?.seatIds)).toEqual([2, 3]);
    expect(findBestAvailable(seats, { quantity: 3, prefer: ["captioned", "signed"] }, GUEST)?.suited).toBe(false);
  });

  it("keeps the house's rules among suited seats: no lone seat stranded while a suited block strands none", () => {
    // Every seat suits: [6,7] is better placed but strands 8, [1,2] fills its gap exactly.
    const seats = suitedRow("x..x.x...", 0, 90, captioned([1, 2, 4, 6, 7, 8]));
    const result = findBestAvailable(seats, { quantity: 2, prefer: ["captioned"] }, GUEST);
    expect(result?.suited).toBe(true);
    expect(positionsOf(seats, result?.seatIds)).toEqual([1, 2]);
  });
});
