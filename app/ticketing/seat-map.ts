import {
  ACCESS_SERVICES,
  type AccessService,
  type CatalogueVenue,
  type Restriction,
  type SeatType,
} from "./catalogue-file";

export interface ExpandedSeat {
  rowName: string;
  rowOrder: number;
  label: string;
  position: number;
  x: number;
  y: number;
  seatType: SeatType;
  restrictions: Restriction[];
  quality: number;
  viewNote: string | null;
  withheld: boolean;
  /** The access services the seat suits (the venue's `suitedSeats`), in ACCESS_SERVICES order. */
  suits: AccessService[];
}

export interface ExpandedSection {
  name: string;
  kind: "seated" | "standing";
  capacity: number;
  seats: ExpandedSeat[];
}

/** Space between sections, in seat widths, when they are drawn one behind the other. */
const SECTION_GAP = 2;

/**
 * Turns a venue's seat map, written as rows with a seat count, aisles and exceptions, into seats
 * with a position in their row (an aisle leaves a gap, so adjacent seats differ by exactly 1), a
 * place to be drawn (x, y in seat widths; curved rows bend towards the stage), and a quality score
 * (the row's quality, less up to 20 towards the ends of the row).
 */
export function expandSeatMap(
  sections: CatalogueVenue["seatMap"]["sections"],
  suitedSeats: CatalogueVenue["seatMap"]["suitedSeats"] = [],
): ExpandedSection[] {
  let top = 0;
  return sections.map((section) => {
    if (section.kind === "standing") {
      const expanded = { name: section.name, kind: "standing" as const, capacity: section.capacity, seats: [] };
      top += SECTION_GAP + 3;
      return expanded;
    }
    const seats: ExpandedSeat[] = [];
    section.rows.forEach((row, rowOrder) => {
      const aisles = new Set(row.aislesAfter);
      const numbers = Array.from({ length: row.seats }, (_, index) => row.firstNumber + index);
      const positions: number[] = [];
      let position = 0;
      for (const number of numbers) {
        positions.push(position);
        position += aisles.has(number) ? 2 : 1;
      }
      const width = positions.at(-1)!;
      const half = Math.max(width / 2, 1);
      const suitedHere = suitedSeats.filter(
        (entry) => entry.section === section.name && (entry.rows?.includes(row.name) ?? true),
      );
      numbers.forEach((number, index) => {
        const x = positions[index]! - width / 2 + row.offset;
        const exception = [...row.exceptions].reverse().find((candidate) => candidate.seats.includes(number));
        const reach = Math.min(Math.abs(x) / half, 1);
        seats.push({
          rowName: row.name,
          rowOrder,
          label: String(number),
          position: positions[index]!,
          x,
          y: top + rowOrder - section.curve * reach * reach * 2,
          seatType: exception?.type ?? "standard",
          restrictions: exception?.restrictions ?? [],
          quality: Math.max(0, Math.round(row.quality - 20 * reach)),
          viewNote: exception?.viewNote ?? null,
          withheld: exception?.withheld ?? false,
          suits: ACCESS_SERVICES.filter((service) =>
            suitedHere.some((entry) => entry.suits.includes(service) && (entry.seats?.includes(number) ?? true)),
          ),
        });
      });
    });
    top += section.rows.length + SECTION_GAP;
    return {
      name: section.name,
      kind: "seated" as const,
      capacity: seats.filter((seat) => !seat.withheld).length,
      seats,
    };
  });
}
