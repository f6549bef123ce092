// @vitest-environment jsdom
import { join } from "node:path";
import { createRemixStub } from "@remix-run/testing";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { i18n as I18n } from "i18next";
import type { ReactNode } from "react";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  SeatMap,
  SeatMapFilters,
  SeatMapLegend,
  seatRowElements,
  seatRowsHtml,
  seatWords,
} from "~/components/seat-map";
import { readLocaleFiles } from "~/i18n/i18n.server";
import { commonWords, makeView, seat, unusualView } from "../support/seat-map-views";
import type { Language } from "~/i18n/languages";
import {
  decodeSeats,
  encodePreparedSeat,
  encodeSeats,
  prepareSeats,
  FILTERED,
  FREE,
  LOCKED,
  MINE,
  parseSeatMapFilter,
  seatedSections,
  SPONSORED,
  SUITS_SHIFT,
  TAKEN,
  WHEELCHAIR,
  COMPANION,
  type SeatedSection,
  type SeatTuple,
} from "~/views/seat-map";

// vitest runs from the project root.
const files = readLocaleFiles(join(process.cwd(), "locales"));
const instances = new Map<Language, I18n>();
/** en-GB with a venue's own words for a seat, and for a row. */
const reworded: I18n[] = [];

beforeAll(async () => {
  for (const words of [{ seat: "{{section}}: row {{row}}, number {{seat}}" }, { row: "Row {{row}} of the house" }]) {
    const resources = structuredClone(files.resources) as Record<string, Record<string, Record<string, unknown>>>;
    Object.assign(resources["en-GB"]!.common!.seatMap as object, words);
    reworded.push(await commonWords("en-GB", resources));
  }
  for (const language of ["en-GB", "en-US"] as const)
    instances.set(language, await commonWords(language, files.resources));
});

afterEach(cleanup);

const withI18n = (children: ReactNode, language: Language = "en-GB") => (
  <I18nextProvider i18n={instances.get(language)!}>{children}</I18nextProvider>
);

/** What the server writes: without a document, the seat map writes its seats as strings. */
function serverRender(node: ReactNode) {
  vi.stubGlobal("document", undefined);
  try {
    return renderToString(node);
  } finally {
    vi.unstubAllGlobals();
  }
}

const seatBox = (name: string | RegExp) => screen.getByRole("checkbox", { name });

describe("the seat map", () => {
  it("names every seat by part of the house, row, number, price and what kind of seat it is", () => {
    render(withI18n(<SeatMap view={makeView()} />));
    expect(seatBox("Stalls, row A, seat 3, £68.00")).toHaveProperty("disabled", false);
    expect(seatBox("Stalls, row A, seat 2, £68.00, companion seat")).toHaveProperty("disabled", false);
    expect(seatBox("Stalls, row A, seat 5, £68.00, restricted view (Pillar on the left)")).toHaveProperty(
      "disabled",
      false,
    );
    expect(seatBox("Stalls, row A, seat 6, £68.00, for American Express cardholders")).toHaveProperty(
      "disabled",
      false,
    );
    expect(seatBox("Stalls, row B, seat 1, £48.00")).toHaveProperty("value", "121");
    expect(seatBox("Circle, row A, seat 2, £48.00")).toHaveProperty("name", "seat");
    expect(screen.getAllByRole("checkbox")).toHaveLength(11);
  });

  it("names each seat by a real label, the text a text browser shows beside its box", () => {
    render(withI18n(<SeatMap view={makeView()} />));
    for (const box of screen.getAllByRole("checkbox") as HTMLInputElement[]) {
      expect(box.hasAttribute("aria-label")).toBe(false);
      expect(box.labels).toHaveLength(1);
      expect(box.labels![0]!.contains(box)).toBe(true);
    }
    expect((seatBox("Stalls, row A, seat 3, £68.00") as HTMLInputElement).labels![0]!.textContent).toBe(
      "Stalls, row A, seat 3, £68.00",
    );
  });

  it("draws taken, locked and filtered-out seats but offers them as no control", () => {
    const { container } = render(withI18n(<SeatMap view={makeView({ 121: FILTERED, 201: FILTERED })} />));
    for (const name of [
      /^Stalls, row A, seat 4,/,
      /^Stalls, row A, seat 1,/,
      /^Stalls, row B, seat 1,/,
      /^Circle, row A, seat 1,/,
    ]) {
      expect(screen.queryByRole("checkbox", { name })).toBeNull();
    }
    const drawn = [...container.querySelectorAll<HTMLElement>(".seat-map__plan span.s")];
    expect(drawn.map((seat) => seat.className)).toEqual(["s b0 w l", "s b0 t", "s b1 f", "s b1 f"]);
    for (const seat of drawn) expect(seat.getAttribute("aria-hidden")).toBe("true");
    // Drawn where the seat is, so the map keeps its shape.
    expect(drawn[1]!.style.getPropertyValue("--x")).toBe("10");
  });

  it("ticks the buyer's own seats, and keeps them selectable even outside the filter", () => {
    render(withI18n(<SeatMap view={makeView({ 123: MINE | FILTERED })} />));
    const mine = seatBox("Stalls, row B, seat 3, £48.00");
    expect(mine).toHaveProperty("checked", true);
    expect(mine).toHaveProperty("disabled", false);
    expect(seatBox("Stalls, row B, seat 4, £48.00")).toHaveProperty("checked", false);
  });

  it("groups seats in a fieldset per part of the house and a group per row", () => {
    render(withI18n(<SeatMap view={makeView()} />));
    const stalls = screen.getByRole("group", { name: "Stalls" });
    expect(stalls.tagName).toBe("FIELDSET");
    const rowB = within(stalls).getByRole("group", { name: "Row B" });
    expect(within(rowB).getAllByRole("checkbox")).toHaveLength(4);
    const circle = screen.getByRole("group", { name: "Circle" });
    expect(within(circle).getAllByRole("checkbox")).toHaveLength(3);
    // Standing areas are booked by number of places, not drawn as seats.
    expect(screen.queryByRole("group", { name: "Standing" })).toBeNull();
    expect(screen.getByRole("region", { name: "Seat map" }).contains(stalls)).toBe(true);
  });

  it("places each seat from its position, in tenths of a seat width", () => {
    render(withI18n(<SeatMap view={makeView()} />));
    const b1 = seatBox("Stalls, row B, seat 1, £48.00");
    expect(b1.style.getPropertyValue("--x")).toBe("-25");
    expect(b1.style.getPropertyValue("--y")).toBe("10");
    // y is drawn from the top of its part of the house.
    expect(seatBox("Circle, row A, seat 1, £48.00").style.getPropertyValue("--y")).toBe("0");
    expect(b1.className).toMatch(/\bb1\b/);
  });

  it("links past each part of the house to the next, and past the map after the last", () => {
    render(withI18n(<SeatMap view={makeView()} />));
    const skip = screen.getByRole("link", { name: "Skip to Circle" });
    const target = document.querySelector(skip.getAttribute("href")!);
    expect(target).toBe(screen.getByRole("group", { name: "Circle" }));
    const past = screen.getByRole("link", { name: "Skip past the seat map" });
    expect(document.querySelector(past.getAttribute("href")!)).not.toBeNull();
    const parts = screen.getByRole("navigation", { name: "Parts of the house" });
    expect(
      within(parts)
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["Stalls", "Circle"]);
  });

  it("renders on the server without script: every seat a tab stop, no zoom", () => {
    const html = serverRender(withI18n(<SeatMap view={makeView()} />));
    const container = document.createElement("div");
    container.innerHTML = html;
    expect(container.querySelectorAll('input[type="checkbox"][name="seat"]')).toHaveLength(11);
    expect(container.querySelector("[tabindex]")).toBeNull();
    expect(container.querySelector("button")).toBeNull();
    expect(container.querySelector('input[value="123"]')).toHaveProperty("checked", true);
  });
});

describe("the seat map as the server writes it", () => {
  // The server writes the seats as strings, the browser hydrates and updates them as React elements
  // (decision 0026): the two must be the same markup, byte for byte.

  it("writes the markup React writes, in both languages and currencies", () => {
    for (const language of ["en-GB", "en-US"] as const) {
      for (const currency of ["GBP", "USD"] as const) {
        const view = { ...unusualView(), currency };
        const server = serverRender(withI18n(<SeatMap view={view} />, language));
        expect(server).toBe(renderToString(withI18n(<SeatMap view={view} />, language)));
        expect(server).toContain("<span>Dress &amp; &quot;Upper&quot; &lt;Circle&gt;, Box A, seat 1, ");
        expect(server).toContain(", restricted view (Rail &amp; &lt;bar&gt; in &#x27;view&#x27;)</span>");
      }
    }
  });

  it("writes each row as React would, seat for seat", () => {
    const view = unusualView({ 113: MINE, 121: FILTERED, 201: TAKEN });
    const words = seatWords(view, instances.get("en-GB")!.getFixedT("en-GB"), instances.get("en-GB")!);
    const decoded = seatedSections(view);
    const seated = view.sections.filter((section): section is SeatedSection => section.kind === "seated");
    expect(seated).toHaveLength(decoded.length);
    seated.forEach((section, index) => {
      const react = renderToStaticMarkup(<>{seatRowElements(decoded[index]!, words)}</>);
      expect(seatRowsHtml(section, words)).toBe(react);
      // Kept rows are the same again.
      expect(seatRowsHtml(section, words)).toBe(react);
    });
  });

  it("draws a row again when anything in it changes, not what it drew before", () => {
    const renders = [
      unusualView(),
      unusualView({ 113: TAKEN, 302: FREE }),
      unusualView({ 113: MINE, 302: FREE, 311: FILTERED }),
      // The same seats drawn from another top of their part of the house, and in the other currency.
      unusualView({}, 50),
      { ...unusualView(), currency: "USD" as const },
      // Other notes under the same indexes, and other prices and styles for the same bands.
      { ...unusualView(), notes: ["Low ceiling", "Side view"] },
      {
        ...unusualView(),
        bands: unusualView().bands.map((band, index) => ({ ...band, price: band.price + 100, style: (index + 1) % 8 })),
      },
      unusualView(),
    ];
    const wordings = [...instances.values(), ...reworded];
    for (const view of renders) {
      for (const i18n of wordings) {
        const page = <I18nextProvider i18n={i18n}>{<SeatMap view={view} />}</I18nextProvider>;
        expect(serverRender(page)).toBe(renderToString(page));
      }
    }
    const [seatWorded, rowWorded] = reworded.map((i18n) =>
      serverRender(
        <I18nextProvider i18n={i18n}>
          <SeatMap view={unusualView()} />
        </I18nextProvider>,
      ),
    );
    expect(seatWorded).toContain("<span>Stalls: row B, number 3, £48.00</span>");
    expect(rowWorded).toContain("<span>Stalls, row B, seat 3, £48.00</span>");
    expect(rowWorded).toContain('aria-label="Row B of the house"');
  });
});

describe("the seat map with script", () => {
  const focused = () => document.activeElement as HTMLInputElement;
  const press = (key: string) => fireEvent.keyDown(focused(), { key });

  it("moves focus between seats with the arrow keys, skipping seats that cannot be chosen", () => {
    render(withI18n(<SeatMap view={makeView()} />));
    seatBox("Stalls, row A, seat 3, £68.00").focus();
    press("ArrowRight");
    // A4 is taken: focus jumps the aisle and the taken seat to A5.
    expect(focused().value).toBe("115");
    press("ArrowRight");
    expect(focused().value).toBe("116");
    press("ArrowRight");
    expect(focused().value).toBe("116");
    press("Home");
    // A1 is locked; A2 is the first seat that can be chosen.
    expect(focused().value).toBe("112");
    press("End");
    expect(focused().value).toBe("116");
    press("ArrowLeft");
    expect(focused().value).toBe("115");
  });

  it("moves up and down to the nearest seat in the next row, across parts of the house", () => {
    render(withI18n(<SeatMap view={makeView()} />));
    seatBox("Stalls, row A, seat 5, £68.00, restricted view (Pillar on the left)").focus();
    press("ArrowDown");
    // A5 is at x 20: B3 (x 15) is nearer than B4 (x 28).
    expect(focused().value).toBe("123");
    press("ArrowDown");
    // Into the Circle: C3 (x 10) is nearest to B3.
    expect(focused().value).toBe("203");
    press("ArrowDown");
    expect(focused().value).toBe("203");
    press("ArrowUp");
    expect(focused().value).toBe("123");
    press("ArrowUp");
    // From B3 (x 15): A5 (x 20), not the taken A4 (x 10).
    expect(focused().value).toBe("115");
    seatBox("Stalls, row B, seat 1, £48.00").focus();
    press("ArrowUp");
    // B1 is at x -25: A2 (x -20) is nearest; A1 (x -30) is locked anyway.
    expect(focused().value).toBe("112");
  });

  it("keeps the page still when an arrow key has nowhere to go, and ignores other keys", () => {
    render(withI18n(<SeatMap view={makeView()} />));
    seatBox("Circle, row A, seat 1, £48.00").focus();
    const edge = new KeyboardEvent("keydown", { key: "ArrowDown", bubbles: true, cancelable: true });
    focused().dispatchEvent(edge);
    expect(edge.defaultPrevented).toBe(true);
    const letter = new KeyboardEvent("keydown", { key: "a", bubbles: true, cancelable: true });
    focused().dispatchEvent(letter);
    expect(letter.defaultPrevented).toBe(false);
    expect(focused().value).toBe("201");
  });

  it("leaves one tab stop per part of the house: the buyer's seat, else the first they can choose", () => {
    render(withI18n(<SeatMap view={makeView()} />));
    const stops = screen.getAllByRole("checkbox").filter((box) => box.tabIndex === 0);
    expect(stops.map((box) => (box as HTMLInputElement).value)).toEqual(["123", "201"]);
    seatBox("Circle, row A, seat 3, £48.00").focus();
    const after = screen.getAllByRole("checkbox").filter((box) => box.tabIndex === 0);
    expect(after.map((box) => (box as HTMLInputElement).value)).toEqual(["123", "203"]);
  });

  it("tells the page when a seat is ticked or unticked, and whether it is sponsored", () => {
    const onToggle = vi.fn();
    render(withI18n(<SeatMap view={makeView()} onToggle={onToggle} />));
    fireEvent.click(seatBox("Stalls, row A, seat 6, £68.00, for American Express cardholders"));
    expect(onToggle).toHaveBeenLastCalledWith(116, true, true);
    fireEvent.click(seatBox("Stalls, row B, seat 3, £48.00"));
    expect(onToggle).toHaveBeenLastCalledWith(123, false, false);
    fireEvent.click(document.querySelector(".seat-map__plan .s.t")!);
    expect(onToggle).toHaveBeenCalledTimes(2);
  });

  it("shows the server's word on the buyer's seats when the view changes", () => {
    const { rerender } = render(withI18n(<SeatMap view={makeView()} />));
    fireEvent.click(seatBox("Stalls, row B, seat 4, £48.00"));
    expect(seatBox("Stalls, row B, seat 4, £48.00")).toHaveProperty("checked", true);
    // The hold failed: B4 went to someone else, and B3 is still the buyer's.
    rerender(withI18n(<SeatMap view={makeView({ 124: TAKEN })} />));
    expect(screen.queryByRole("checkbox", { name: /^Stalls, row B, seat 4,/ })).toBeNull();
    expect(within(screen.getByRole("group", { name: "Row B" })).getAllByRole("checkbox")).toHaveLength(3);
    expect(seatBox("Stalls, row B, seat 3, £48.00")).toHaveProperty("checked", true);
  });

  it("offers zoom buttons that do not submit the form", () => {
    render(withI18n(<SeatMap view={makeView()} />));
    const region = screen.getByRole("region", { name: "Seat map" });
    const zoomOut = screen.getByRole("button", { name: "Zoom out" });
    expect(zoomOut).toHaveProperty("type", "button");
    expect(region.style.getPropertyValue("--zoom")).toBe("");
    act(() => zoomOut.click());
    expect(region.style.getPropertyValue("--zoom")).toBe("0.85");
    act(() => screen.getByRole("button", { name: "Zoom in" }).click());
    act(() => screen.getByRole("button", { name: "Zoom in" }).click());
    expect(region.style.getPropertyValue("--zoom")).toBe("1.25");
    for (let step = 0; step < 10; step += 1) act(() => screen.getByRole("button", { name: "Zoom in" }).click());
    expect(screen.getByRole("button", { name: "Zoom in" })).toHaveProperty("disabled", true);
  });
});

describe("seats suited to the performance's access services (issue 43)", () => {
  const CAPTIONED = 1 << SUITS_SHIFT;
  const SIGNED = 1 << (SUITS_SHIFT + 2);
  // A captioned and signed performance at a UK venue: B1 faces the caption screen, B2 the
  // interpreter too, the restricted-view A5 the interpreter only.
  const suitedView = () => ({
    ...makeView({ 121: CAPTIONED, 122: CAPTIONED | SIGNED, 115: SIGNED }),
    suited: [
      { service: "captioned" as const, flag: CAPTIONED, key: "access.seats.captioned" },
      { service: "signed" as const, flag: SIGNED, key: "access.seats.signedIn.GB" },
    ],
  });

  it("says in each suited seat's name which service it suits and why, and outlines it (class u)", () => {
    render(withI18n(<SeatMap view={suitedView()} />));
    expect(
      seatBox("Stalls, row B, seat 1, £48.00, suits captioned performances: view of the caption screen"),
    ).toHaveProperty("className", "s b1 u");
    seatBox(
      "Stalls, row B, seat 2, £48.00, suits captioned performances: view of the caption screen, suits BSL-interpreted performances: clear view of the interpreter",
    );
    seatBox(
      "Stalls, row A, seat 5, £68.00, suits BSL-interpreted performances: clear view of the interpreter, restricted view (Pillar on the left)",
    );
    expect(seatBox("Stalls, row B, seat 4, £48.00")).toHaveProperty("className", "s b1");
  });

  it("words them in the buyer's language, and writes on the server what React writes", () => {
    for (const language of ["en-GB", "en-US"] as const) {
      const page = withI18n(<SeatMap view={suitedView()} />, language);
      const server = serverRender(page);
      expect(server).toBe(renderToString(page));
      expect(server).toContain(
        language === "en-GB"
          ? "seat 1, £48.00, suits captioned performances: view of the caption screen</span>"
          : "seat 1, £48.00, suits open-captioned performances: view of the caption screen</span>",
      );
    }
  });

  it("explains the outline in the key, once per service; and marks nothing on a performance without one", () => {
    render(withI18n(<SeatMapLegend view={suitedView()} />));
    const seats = within(screen.getByRole("list", { name: "Seats" }))
      .getAllByRole("listitem")
      .map((item) => item.textContent);
    expect(seats.slice(-2)).toEqual([
      "Suits captioned performances: view of the caption screen",
      "Suits BSL-interpreted performances: clear view of the interpreter",
    ]);
    cleanup();
    render(withI18n(<SeatMap view={makeView()} />));
    expect(screen.queryByText(/Suits|suits/)).toBeNull();
    expect(document.querySelector(".u")).toBeNull();
  });
});

describe("the seat map key", () => {
  it("gives each band's price, and explains only the marks the map uses", () => {
    render(withI18n(<SeatMapLegend view={makeView()} />));
    const prices = screen.getByRole("list", { name: "Prices" });
    expect(
      within(prices)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Band A: £68.00", "Band B: £48.00", "Standing: £28.00"]);
    const seats = within(screen.getByRole("list", { name: "Seats" }))
      .getAllByRole("listitem")
      .map((item) => item.textContent);
    expect(seats).toEqual([
      "Your seats",
      "Taken",
      "Not available to choose",
      "Restricted view",
      "Wheelchair space",
      "Companion seat",
      "For American Express cardholders",
    ]);
  });

  it("prices in the venue's currency, in the buyer's language", () => {
    render(withI18n(<SeatMapLegend view={{ ...makeView(), currency: "USD" }} />, "en-US"));
    expect(screen.getByText("Band A: $68.00").tagName).toBe("LI");
  });
});

describe("the seat map filters", () => {
  function renderFilters(url: string, view = makeView()) {
    const filter = parseSeatMapFilter(new URL(url, "http://localhost").searchParams);
    const Stub = createRemixStub([
      {
        path: "/tickets",
        // The root's and the tickets page's declarations: the parameters their pages read.
        handle: { query: ["lng", "cfg", "minPrice", "maxPrice", "section"] },
        Component: () => withI18n(<SeatMapFilters view={view} filter={filter} />),
      },
    ]);
    render(<Stub initialEntries={[url]} />);
  }

  it("is a GET form with price and part-of-house choices and a submit button", async () => {
    renderFilters("/tickets");
    const from = await screen.findByRole("combobox", { name: "Price from" });
    const form = from.closest("form")!;
    expect(form.getAttribute("method")).toBe("get");
    expect(
      within(from)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["Any price", "£28.00", "£48.00", "£68.00"]);
    expect(within(from).getByRole("option", { name: "£48.00" })).toHaveProperty("value", "4800");
    expect(screen.getByRole("combobox", { name: "Price to" })).toHaveProperty("name", "maxPrice");
    const part = screen.getByRole("combobox", { name: "Part of the house" });
    expect(
      within(part)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["All parts of the house", "Stalls", "Standing", "Circle"]);
    expect(screen.getByRole("button", { name: "Show seats" })).toHaveProperty("type", "submit");
    expect(screen.queryByRole("link", { name: "Clear filters" })).toBeNull();
  });

  it("shows the filter in force, keeps the page's other declared parameters (no others), and offers to clear it", async () => {
    renderFilters("/tickets?lng=en-GB&maxPrice=4800&section=circle&minPrice=oops&evil=%3Cscript%3E");
    expect(await screen.findByRole("combobox", { name: "Price to" })).toHaveProperty("value", "4800");
    expect(screen.getByRole("combobox", { name: "Price from" })).toHaveProperty("value", "");
    expect(screen.getByRole("combobox", { name: "Part of the house" })).toHaveProperty("value", "circle");
    const kept = document.querySelector<HTMLInputElement>('input[type="hidden"][name="lng"]');
    expect(kept?.value).toBe("en-GB");
    expect(document.querySelector('input[type="hidden"][name="maxPrice"]')).toBeNull();
    expect(document.querySelector('input[type="hidden"][name="evil"]')).toBeNull();
    expect(screen.getByRole("link", { name: "Clear filters" }).getAttribute("href")).toBe("/tickets?lng=en-GB");
  });
});

describe("reading the filter from the query", () => {
  const parse = (query: string) => parseSeatMapFilter(new URLSearchParams(query));

  it("reads prices in minor units and a part of the house", () => {
    expect(parse("minPrice=2500&maxPrice=6500&section=abc-123")).toEqual({
      minPrice: 2500,
      maxPrice: 6500,
      sectionId: "abc-123",
    });
  });

  it("ignores what it cannot read, and puts prices the right way round", () => {
    expect(parse("minPrice=-5&maxPrice=12.50&section=%3Cscript%3E")).toEqual({});
    expect(parse("minPrice=abc&maxPrice=99999999999")).toEqual({});
    expect(parse("minPrice=6500&maxPrice=2500")).toEqual({ minPrice: 2500, maxPrice: 6500 });
    expect(parse("minPrice=&section=")).toEqual({});
  });
});

describe("encoding a row prepared with its price plan", () => {
  const rows: SeatTuple[][] = [
    [],
    [seat(1, 1, 0, 0, 0)],
    [seat(7, 1, -30, 5, 2, TAKEN), seat(8, 2, -20, 5, 2, TAKEN), seat(9, 3, -10, 5, 2, FREE)],
    [
      seat(40, 1, 0, 0, 0, WHEELCHAIR, 1),
      seat(41, 2, 10, 0, 0, WHEELCHAIR | MINE),
      seat(43, 4, 30, 1, 1, COMPANION | FILTERED, 0),
      [44, "4A", 40, 1, -1, TAKEN],
      [45, "Box 1, left", 55, -2, 1, SPONSORED | LOCKED, 3],
      [46, "12", 65, -2, 1, SPONSORED | LOCKED],
      seat(47, 13, 75, -2, 1, 0),
      seat(48, 14, 85, -2, 1, 0, 2),
    ],
  ];

  it("writes what encodeSeats writes, whatever the seats' flags", () => {
    for (const row of rows) {
      const prepared = prepareSeats(
        row.map(([id, label, x, y, band, , note]) => {
          const plain: SeatTuple = [id, label, x, y, band, 0];
          if (note !== undefined) plain.push(note);
          return plain;
        }),
      );
      const encoded = row
        .map((tuple, index) => encodePreparedSeat(prepared[index]!, tuple[5], index > 0 ? row[index - 1]![5] : 0))
        .join(";");
      expect(encoded).toBe(encodeSeats(row));
      expect(decodeSeats(encoded)).toEqual(row);
    }
  });
});
