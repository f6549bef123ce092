// Seat map views for the seat map's tests: a small house, and one with everything a seat can be;
// and i18next instances to word them.
import { createInstance, type i18n as I18n, type Resource } from "i18next";
import { initReactI18next } from "react-i18next";
import { sharedI18nextOptions, type Language } from "~/i18n/languages";
import {
  COMPANION,
  encodeSeats,
  FREE,
  LOCKED,
  MINE,
  SPONSORED,
  TAKEN,
  WHEELCHAIR,
  ACCESS,
  PACKAGE,
  PROMOTIONAL,
  FILTERED,
  type SeatedSection,
  type SeatMapView,
  type SeatTuple,
} from "~/views/seat-map";

const option = (id: string, faceValue: number) => ({
  id,
  kind: "full" as const,
  label: "Full Price",
  faceValue,
  bookingFee: 300,
});

// Stalls: row A seats 1–6 (an aisle after 3), row B seats 1–4 set back by half a seat; Circle:
// row A seats 1–3. Seat ids are 100 + row × 10 + number; the Circle's are 200 + number.
export const seat = (id: number, label: number, x: number, y: number, band: number, flags = FREE, note?: number) => {
  const tuple: SeatTuple = [id, String(label), x, y, band, flags];
  if (note !== undefined) tuple.push(note);
  return tuple;
};

export function makeView(changes: Partial<Record<number, number>> = {}): SeatMapView {
  const flag = (id: number, base = FREE) => changes[id] ?? base;
  return {
    currency: "GBP",
    bands: [
      // A band's price is its Full Price face value plus the £3 booking fee: the seat map shows that.
      { id: "band-a", code: "A", name: "Band A", price: 6800, style: 0, options: [option("a-full", 6500)] },
      { id: "band-b", code: "B", name: "Band B", price: 4800, style: 1, options: [option("b-full", 4500)] },
      { id: "band-s", code: "S", name: "Standing", price: 2800, style: 2, options: [option("s-full", 2500)] },
    ],
    sections: [
      {
        id: "stalls",
        name: "Stalls",
        kind: "seated",
        top: 0,
        height: 10,
        rows: [
          [
            "A",
            encodeSeats([
              seat(111, 1, -30, 0, 0, flag(111, WHEELCHAIR | LOCKED)),
              seat(112, 2, -20, 0, 0, flag(112, COMPANION)),
              seat(113, 3, -10, 0, 0, flag(113)),
              seat(114, 4, 10, 0, 0, flag(114, TAKEN)),
              seat(115, 5, 20, 0, 0, flag(115), 0),
              seat(116, 6, 30, 0, 0, flag(116, SPONSORED)),
            ]),
          ],
          [
            "B",
            encodeSeats([
              seat(121, 1, -25, 10, 1, flag(121)),
              seat(122, 2, -15, 10, 1, flag(122)),
              seat(123, 3, 15, 10, 1, flag(123, MINE)),
              seat(124, 4, 28, 10, 1, flag(124)),
            ]),
          ],
        ],
      },
      { id: "standing", name: "Standing", kind: "standing", capacity: 50, left: 20, band: 2, inFilter: true },
      {
        id: "circle",
        name: "Circle",
        kind: "seated",
        top: 40,
        height: 0,
        rows: [
          [
            "A",
            encodeSeats([
              seat(201, 1, -10, 40, 1, flag(201)),
              seat(202, 2, 0, 40, 1, flag(202)),
              seat(203, 3, 10, 40, 1, flag(203)),
            ]),
          ],
        ],
      },
    ],
    notes: ["Pillar on the left"],
    minX: -30,
    maxX: 30,
    priceRange: { min: 2800, max: 6800 },
    filterSections: [
      { id: "stalls", name: "Stalls" },
      { id: "standing", name: "Standing" },
      { id: "circle", name: "Circle" },
    ],
    filter: {},
    legend: { bands: [0, 1, 2], marks: ["wheelchair", "companion", "sponsored"], restrictedView: true },
    suited: [],
  };
}

/** A house with everything a seat can be, and words that need escaping. */
export function unusualView(changes: Partial<Record<number, number>> = {}, top = 60): SeatMapView {
  const base = makeView(changes);
  const flag = (id: number, base = FREE) => changes[id] ?? base;
  const boxes: SeatedSection = {
    id: "boxes",
    name: 'Dress & "Upper" <Circle>',
    kind: "seated",
    top,
    height: 20,
    rows: [
      [
        "Box A",
        encodeSeats([
          seat(301, 1, -5, 60, 0, flag(301, ACCESS | PACKAGE), 1),
          seat(302, 2, 5, 61, 1, flag(302, PROMOTIONAL | MINE)),
          [303, "3A", 15, 61, -1, flag(303, TAKEN)],
          seat(304, 4, 25, 62, 1, flag(304, SPONSORED | COMPANION | FILTERED)),
          seat(305, 5, 35, 62, 1, flag(305, WHEELCHAIR | LOCKED), 0),
        ]),
      ],
      ["B'2", encodeSeats([seat(311, 1, 0, 70, 0, flag(311))])],
      ["C", ""],
    ],
  };
  return {
    ...base,
    sections: [...base.sections, boxes],
    notes: ["Pillar on the left", "Rail & <bar> in 'view'"],
  };
}

/** A React i18next instance of the common wording set in `language`, over `resources`. */
export async function commonWords(language: Language, resources: Resource): Promise<I18n> {
  const instance = createInstance();
  await instance.use(initReactI18next).init({
    ...sharedI18nextOptions(language, "common"),
    resources,
    initImmediate: false,
  });
  return instance;
}
