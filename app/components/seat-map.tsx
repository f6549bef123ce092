import { Form, Link, useLocation, useMatches } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type CSSProperties } from "react";
import type { i18n as I18n, TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { useHydrated } from "remix-utils/use-hydrated";
import { formatMoney } from "~/i18n/format";
import { declaredParams } from "~/urls/page-query";
import { PriceAndSectionFields } from "./select-field";
import {
  FILTER_PARAMS,
  isSelectable,
  LOCKED,
  MINE,
  SEAT_MARKS,
  SPONSORED,
  STATE_MASK,
  TAKEN,
  seatedSections,
  decodeSeats,
  type DecodedSection,
  type SeatedSection,
  type SeatMapFilter,
  type SeatMapView,
  type SeatMark,
  type SeatTuple,
} from "~/views/seat-map";

// The seat map: one real checkbox per seat the buyer can choose (name="seat", value = seat id),
// named by a real <label>, inside the page's form, so choosing seats works without script and in
// text browsers. Script adds arrow-key movement, one tab stop per part of
// the house, zoom, and a line naming the seat under the pointer. The view is compact (see
// app/views/seat-map.ts), so the big houses stay small in the page; so is the markup: a seat is a
// single <input> (or <span>, when nobody can choose it) drawn by CSS from its class and its --x/--y
// position, and its name.

const MARK_CLASS: Record<SeatMark, string> = {
  wheelchair: "w",
  companion: "c",
  access: "a",
  package: "p",
  promotional: "r",
  sponsored: "m",
};

const ROW_CODE = /^[A-Za-z0-9]{1,3}$/;
const MOVES = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"]);
const ZOOM_LEVELS = [0.35, 0.5, 0.7, 0.85, 1, 1.25, 1.5];
const DEFAULT_ZOOM = ZOOM_LEVELS.indexOf(1);

const sectionAnchor = (id: string) => `seat-map-${id}`;
const END_ANCHOR = "seat-map-end";

type Style = CSSProperties & Record<`--${string}`, string | number>;

export interface SeatMapProps {
  view: SeatMapView;
  /**
   * Called when the buyer ticks or unticks a seat (with script only): the page may submit its
   * form at once. The checkbox has already changed; nothing is submitted here.
   */
  onToggle?: (seatId: number, checked: boolean, sponsored: boolean) => void;
  /** Draw the key above the map (default); false when the page places <SeatMapLegend> itself. */
  legend?: boolean;
  /**
   * Ticks the buyer made that the page has not sent yet (one submission is on its way): shown as
   * the buyer left them when the server's word on the seats arrives, not undone by it.
   */
  waiting?: { readonly current: ReadonlyMap<number, { checked: boolean }> };
}

interface NavRow {
  section: number;
  seats: { id: number; x: number }[];
}

/** Rows from front to back, part of the house by part of the house: what arrow keys move through. */
function navigationRows(view: SeatMapView): NavRow[] {
  return seatedSections(view).flatMap((section, index) =>
    section.rows.map(([, seats]) => ({ section: index, seats: seats.map(([id, , x]) => ({ id, x })) })),
  );
}

/** The seat an arrow key (or Home/End) moves to from `fromId`, among seats that can take focus. */
function seatTowards(rows: NavRow[], fromId: number, key: string, usable: (id: number) => boolean): number | undefined {
  const rowIndex = rows.findIndex((row) => row.seats.some((seat) => seat.id === fromId));
  if (rowIndex < 0) return undefined;
  const row = rows[rowIndex]!;
  const at = row.seats.findIndex((seat) => seat.id === fromId);
  const x = row.seats[at]!.x;
  const inRow = (from: number, step: number) => {
    for (let index = from; index >= 0 && index < row.seats.length; index += step) {
      if (usable(row.seats[index]!.id)) return row.seats[index]!.id;
    }
    return undefined;
  };
  switch (key) {
    case "ArrowLeft":
      return inRow(at - 1, -1);
    case "ArrowRight":
      return inRow(at + 1, 1);
    case "Home":
      return inRow(0, 1);
    case "End":
      return inRow(row.seats.length - 1, -1);
    case "ArrowUp":
    case "ArrowDown": {
      const step = key === "ArrowUp" ? -1 : 1;
      for (let index = rowIndex + step; index >= 0 && index < rows.length; index += step) {
        let best: { id: number; distance: number } | undefined;
        for (const seat of rows[index]!.seats) {
          if (!usable(seat.id)) continue;
          const distance = Math.abs(seat.x - x);
          if (!best || distance < best.distance) best = { id: seat.id, distance };
        }
        if (best) return best.id;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** What seats' names and classes are made of, worked out once per view and language rather than per seat. */
export interface SeatWords {
  /** ", £68.00", per band. */
  bandPrice: string[];
  /** "s b3", per band. */
  bandClass: string[];
  /** Per seat mark: its flag, what it adds to the seat's name, and to its class. */
  marks: (readonly [flag: number, text: string, className: string])[];
  /** ", restricted view (…)", per note. */
  notes: string[];
  /** A row's name for its group, and the words a seat's number goes between. */
  row: (section: { name: string }, rowName: string) => RowWords;
}

interface RowWords {
  label: string;
  before: string;
  after: string;
}

function useSeatWords(view: SeatMapView): SeatWords {
  const { t, i18n } = useTranslation();
  return seatWords(view, t, i18n);
}

/** The words of a view's seats in an i18next instance's language and wording set (`t` is the instance's). */
export function seatWords(view: SeatMapView, t: TFunction, i18n: I18n): SeatWords {
  // A seat's name is its row's words around its number: no translation per seat.
  const SEAT = "\u0000";
  const bandPrice = view.bands.map((band) => `, ${formatMoney(band.price, view.currency, i18n.language)}`);
  const bandClass = view.bands.map((band) => `s b${band.style}`);
  const marks = [
    ...SEAT_MARKS.map(([mark, flag]) => [flag, `, ${t(`seatMap.marks.${mark}`)}`, ` ${MARK_CLASS[mark]}`] as const),
    // Suited to the performance's access services: the server names the words (issue 43).
    ...view.suited.map(({ flag, key }) => [flag, `, ${t(`${key}.seat`)}`, " u"] as const),
  ];
  const notes = view.notes.map((note) => `, ${t("seatMap.restrictedViewNote", { note })}`);
  return {
    bandPrice,
    bandClass,
    marks,
    notes,
    row(section, rowName) {
      // "Row F", but a row with a name of its own ("Box A") is called by it.
      const coded = ROW_CODE.test(rowName);
      const template = t(coded ? "seatMap.seat" : "seatMap.seatInNamedRow", {
        section: section.name,
        row: rowName,
        seat: SEAT,
      });
      const [before = "", after = ""] = template.split(SEAT);
      const label = coded ? t("seatMap.row", { row: rowName }) : rowName;
      return { label, before, after };
    },
  };
}

/** A seat as drawn: its accessible name and class, whether the buyer can choose it, and whether it is theirs. */
function drawSeat(
  [, label, , , band, flags, note]: SeatTuple,
  words: SeatWords,
  row: RowWords,
): { name: string; className: string; selectable: boolean; checked: boolean } {
  const state = flags & STATE_MASK;
  const selectable = isSelectable(flags);
  let name = row.before + label + row.after + (band >= 0 ? words.bandPrice[band] : "");
  let className = band >= 0 ? words.bandClass[band]! : "s";
  for (const [flag, text, mark] of words.marks) {
    if (flags & flag) {
      name += text;
      className += mark;
    }
  }
  if (note !== undefined) {
    name += words.notes[note];
    className += " v";
  }
  // A seat nobody can choose now (taken, outside the filter, restricted) is drawn but is no
  // control: a text browser or screen reader meets only the seats on offer, not 2,000 taken ones
  // in a nearly sold-out house (decision 0018).
  if (!selectable) className += state === TAKEN ? " t" : state === LOCKED ? " l" : " f";
  return { name, className, selectable, checked: state === MINE };
}

/**
 * A part of the house's rows as React elements: what the browser hydrates and then updates seat by
 * seat. A row's name is drawn beside its first seat and stays in sight (CSS position: sticky)
 * while the map scrolls sideways (styles/_seat-map.scss).
 */
export function seatRowElements(section: DecodedSection, words: SeatWords) {
  return section.rows.map(([rowName, seats]) => {
    const [first] = seats;
    const row = words.row(section, rowName);
    const rowStyle: Style = first ? { "--x": first[2], "--y": first[3] - section.top } : {};
    return (
      <div key={rowName} role="group" aria-label={row.label}>
        <span className="seat-map__row-name" style={rowStyle} aria-hidden="true">
          {rowName}
        </span>
        {seats.map((seat) => {
          const { name, className, selectable, checked } = drawSeat(seat, words, row);
          const style: Style = { "--x": seat[2], "--y": seat[3] - section.top };
          if (!selectable) return <span key={seat[0]} className={className} style={style} aria-hidden="true" />;
          // A real <label>, not aria-label: text browsers show it, screen readers read it, and CSS
          // keeps it out of sight beside the drawn seat.
          return (
            <label key={seat[0]}>
              <input
                type="checkbox"
                name="seat"
                value={seat[0]}
                className={className}
                style={style}
                defaultChecked={checked}
              />
              <span>{name}</span>
            </label>
          );
        })}
      </div>
    );
  });
}

const HTML_ESCAPES: Record<string, string> = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };
/** Text and attribute values escaped as React's server renderer escapes them. */
const escapeHtml = (text: string) =>
  /["&'<>]/.test(text) ? text.replace(/["&'<>]/g, (char) => HTML_ESCAPES[char]!) : text;

/** One row as HTML: byte for byte what React writes for the same row in seatRowElements. */
function rowHtml(top: number, rowName: string, seats: readonly SeatTuple[], words: SeatWords, row: RowWords) {
  const [first] = seats;
  let html = `<div role="group" aria-label="${escapeHtml(row.label)}"><span class="seat-map__row-name"`;
  if (first) html += ` style="--x:${first[2]};--y:${first[3] - top}"`;
  html += ` aria-hidden="true">${escapeHtml(rowName)}</span>`;
  for (const seat of seats) {
    const { name, className, selectable, checked } = drawSeat(seat, words, row);
    const style = `style="--x:${seat[2]};--y:${seat[3] - top}"`;
    html += selectable
      ? `<label><input type="checkbox" name="seat" class="${className}" ${style}${checked ? ' checked=""' : ""} value="${seat[0]}"/><span>${escapeHtml(name)}</span></label>`
      : `<span class="${className}" ${style} aria-hidden="true"></span>`;
  }
  return `${html}</div>`;
}

/** A part of the house's rows as one string of HTML, for the server's render (decision 0026). */
export function seatRowsHtml(section: SeatedSection, words: SeatWords): string {
  let html = "";
  for (const [rowName, encoded] of section.rows)
    html += rowHtml(section.top, rowName, decodeSeats(encoded), words, words.row(section, rowName));
  return html;
}

function SeatMapSections({ view }: { view: SeatMapView }) {
  const { t } = useTranslation();
  const words = useSeatWords(view);
  const seated = view.sections.filter((section): section is SeatedSection => section.kind === "seated");
  // The server writes the seats as strings (seatRowsHtml); the browser hydrates the same markup as
  // React elements, which it then keeps up to date seat by seat (decision 0026).
  const decoded = typeof document === "undefined" ? undefined : seatedSections(view);

  return (
    <>
      {seated.map((section, sectionIndex) => {
        const next = seated[sectionIndex + 1];
        const planStyle: Style = { "--h": section.height };
        return (
          <fieldset key={section.id} id={sectionAnchor(section.id)} className="seat-map__section">
            <legend className="seat-map__section-name">{section.name}</legend>
            <a className="seat-map__skip" href={`#${next ? sectionAnchor(next.id) : END_ANCHOR}`}>
              {next ? t("seatMap.skipTo", { section: next.name }) : t("seatMap.skipPast")}
            </a>
            {decoded ? (
              <div className="seat-map__plan" style={planStyle}>
                {seatRowElements(decoded[sectionIndex]!, words)}
              </div>
            ) : (
              <div
                className="seat-map__plan"
                style={planStyle}
                dangerouslySetInnerHTML={{
                  __html: seatRowsHtml(section, words),
                }}
              />
            )}
          </fieldset>
        );
      })}
    </>
  );
}

/** The key: each price band's colour, symbol and price (booking fee included), and what the seat marks mean. */
export function SeatMapLegend({ view }: { view: SeatMapView }) {
  const { t, i18n } = useTranslation();
  const { marks, restrictedView } = view.legend;
  const bandsShown = view.legend.bands.map((index) => view.bands[index]!);
  const swatch = (className: string) => <span className={`seat-map-key__swatch s ${className}`} aria-hidden="true" />;
  return (
    <div className="seat-map-key">
      <p className="seat-map-key__title">{t("seatMap.key.title")}</p>
      <ul className="seat-map-key__list" aria-label={t("seatMap.key.prices")}>
        {bandsShown.map((band) => (
          <li key={band.id}>
            {swatch(`b${band.style}`)}
            {t("seatMap.key.band", { name: band.name, price: formatMoney(band.price, view.currency, i18n.language) })}
          </li>
        ))}
      </ul>
      <ul className="seat-map-key__list" aria-label={t("seatMap.key.seats")}>
        <li>
          {swatch("n k")}
          {t("seatMap.key.yours")}
        </li>
        <li>
          {swatch("t")}
          {t("seatMap.key.taken")}
        </li>
        <li>
          {swatch("n f")}
          {t("seatMap.key.unavailable")}
        </li>
        {restrictedView && (
          <li>
            {swatch("n v")}
            {t("seatMap.key.restrictedView")}
          </li>
        )}
        {marks.map((mark) => (
          <li key={mark}>
            {swatch(`n ${MARK_CLASS[mark]}`)}
            {t(`seatMap.key.${mark}`)}
          </li>
        ))}
        {view.suited.map(({ key }) => (
          <li key={key}>
            {swatch("n u")}
            {t(`${key}.key`)}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SeatMap({ view, onToggle, legend = true, waiting }: SeatMapProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const rootRef = useRef<HTMLDivElement>(null);
  const viewportRef = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(DEFAULT_ZOOM);
  /** The point of the map in the middle of the viewport, as a share of its width, kept across zooms. */
  const centre = useRef(0.5);
  const [pointed, setPointed] = useState("");
  const onToggleRef = useRef(onToggle);
  onToggleRef.current = onToggle;

  // Thousands of inputs: drawn again only when the view changes, not on zoom or pointer moves.
  const sections = useMemo(() => <SeatMapSections view={view} />, [view]);

  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    // Worked out here, in the browser only: the server has no keys to move nor boxes to tick.
    const rows = navigationRows(view);
    const sponsored = new Set<number>();
    for (const section of seatedSections(view)) {
      for (const [, seats] of section.rows) for (const seat of seats) if (seat[5] & SPONSORED) sponsored.add(seat[0]);
    }
    const inputs = new Map<number, HTMLInputElement>();
    for (const input of root.querySelectorAll<HTMLInputElement>('input[name="seat"]'))
      inputs.set(Number(input.value), input);
    const usable = (id: number) => inputs.get(id)?.disabled === false;
    const sectionOf = new Map<number, number>();
    for (const row of rows) for (const seat of row.seats) sectionOf.set(seat.id, row.section);

    // The server's word on which seats are the buyer's wins over a box left ticked by a failed submit.
    const checked = new Set<number>();
    for (const section of seatedSections(view)) {
      for (const [, seats] of section.rows) {
        for (const seat of seats) if ((seat[5] & STATE_MASK) === MINE) checked.add(seat[0]);
      }
    }
    for (const [id, input] of inputs) input.checked = waiting?.current.get(id)?.checked ?? checked.has(id);

    // One tab stop per part of the house (Tab leaves the map; arrow keys move within it): the
    // buyer's seat if they have one, else the seat that had the stop, else the first they can choose.
    const stops = new Map<number, number>();
    for (const row of rows) {
      for (const seat of row.seats) {
        if (!usable(seat.id)) continue;
        const current = stops.get(row.section);
        const input = inputs.get(seat.id)!;
        const better =
          current === undefined ||
          (input.checked && !inputs.get(current)!.checked) ||
          (input.tabIndex === 0 && !inputs.get(current)!.checked && inputs.get(current)!.tabIndex !== 0);
        if (better) stops.set(row.section, seat.id);
      }
    }
    for (const [id, input] of inputs) input.tabIndex = stops.get(sectionOf.get(id)!) === id ? 0 : -1;

    const seatFrom = (target: EventTarget | null) =>
      target instanceof HTMLInputElement && target.name === "seat" && inputs.get(Number(target.value)) === target
        ? target
        : undefined;
    const makeStop = (input: HTMLInputElement) => {
      const section = sectionOf.get(Number(input.value));
      for (const row of rows) {
        if (row.section !== section) continue;
        for (const seat of row.seats) {
          const box = inputs.get(seat.id);
          if (box) box.tabIndex = seat.id === Number(input.value) ? 0 : -1;
        }
      }
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const input = seatFrom(event.target);
      if (!input || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (!MOVES.has(event.key)) return;
      // At an edge the key does nothing, rather than scroll the page under the buyer.
      event.preventDefault();
      const to = seatTowards(rows, Number(input.value), event.key, usable);
      if (to === undefined) return;
      const target = inputs.get(to)!;
      makeStop(target);
      target.focus();
    };
    const onFocusIn = (event: FocusEvent) => {
      const input = seatFrom(event.target);
      if (!input) return;
      makeStop(input);
      setPointed(input.labels?.[0]?.textContent ?? "");
    };
    const onPointerOver = (event: MouseEvent) => {
      const input = seatFrom(event.target);
      if (input) setPointed(input.labels?.[0]?.textContent ?? "");
    };
    const onChange = (event: Event) => {
      const input = seatFrom(event.target);
      if (input && !input.disabled) {
        onToggleRef.current?.(Number(input.value), input.checked, sponsored.has(Number(input.value)));
      }
    };
    root.addEventListener("keydown", onKeyDown);
    root.addEventListener("focusin", onFocusIn);
    root.addEventListener("mouseover", onPointerOver);
    root.addEventListener("change", onChange);
    return () => {
      root.removeEventListener("keydown", onKeyDown);
      root.removeEventListener("focusin", onFocusIn);
      root.removeEventListener("mouseover", onPointerOver);
      root.removeEventListener("change", onChange);
    };
  }, [view, waiting]);

  // The stage's centre is the middle of the map: start there, and zoom about what is in view.
  useEffect(() => {
    const viewport = viewportRef.current;
    if (viewport) viewport.scrollLeft = centre.current * viewport.scrollWidth - viewport.clientWidth / 2;
  }, [zoom]);
  const zoomBy = (step: number) => {
    const viewport = viewportRef.current;
    if (viewport?.scrollWidth) centre.current = (viewport.scrollLeft + viewport.clientWidth / 2) / viewport.scrollWidth;
    setZoom((level) => Math.min(ZOOM_LEVELS.length - 1, Math.max(0, level + step)));
  };

  // A parts-of-the-house link takes the page down to the part (an in-page anchor, with or without
  // script); with script the map also scrolls sideways to the part's first seat the buyer can
  // choose, just right of the row names' column: a narrow view may be far from it (the boxes sit
  // at the sides of the house).
  const showPart = (id: string) => {
    const viewport = viewportRef.current;
    const part = document.getElementById(sectionAnchor(id));
    const seat =
      part?.querySelector<HTMLElement>('input[name="seat"]:enabled') ?? part?.querySelector<HTMLElement>(".s");
    if (!viewport || !seat) return;
    const edge =
      viewport.getBoundingClientRect().left +
      viewport.clientLeft +
      (parseFloat(getComputedStyle(viewport).scrollPaddingLeft) || 0);
    viewport.scrollLeft += seat.getBoundingClientRect().left - edge;
  };

  // The parts of the house by name only: nothing here needs the seats decoded.
  const seated = view.sections.filter((section): section is SeatedSection => section.kind === "seated");
  const viewportStyle: Style = { "--x0": view.minX, "--w": view.maxX - view.minX };
  if (zoom !== DEFAULT_ZOOM) viewportStyle["--zoom"] = ZOOM_LEVELS[zoom]!;

  return (
    <div className="seat-map" ref={rootRef}>
      {legend && <SeatMapLegend view={view} />}
      {seated.length > 1 && (
        <nav className="seat-map__parts" aria-label={t("seatMap.partsOfHouse")}>
          <ul>
            {seated.map((section) => (
              <li key={section.id}>
                <a href={`#${sectionAnchor(section.id)}`} onClick={() => showPart(section.id)}>
                  {section.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {hydrated && (
        <div className="seat-map__tools">
          <div className="seat-map__zoom" role="group" aria-label={t("seatMap.zoom.label")}>
            <button type="button" onClick={() => zoomBy(-1)} disabled={zoom === 0}>
              {t("seatMap.zoom.out")}
            </button>
            <button type="button" onClick={() => zoomBy(1)} disabled={zoom === ZOOM_LEVELS.length - 1}>
              {t("seatMap.zoom.in")}
            </button>
          </div>
          {/* The seat under the pointer or focus, for sighted buyers; a screen reader has its name already. */}
          <p className="seat-map__pointed" aria-hidden="true">
            {pointed}
          </p>
        </div>
      )}
      <div
        ref={viewportRef}
        className="seat-map__viewport"
        role="region"
        aria-label={t("seatMap.region")}
        style={viewportStyle}
      >
        <div className="seat-map__house">
          <p className="seat-map__stage">{t("seatMap.stage")}</p>
          {sections}
          <span id={END_ANCHOR} />
        </div>
      </div>
    </div>
  );
}

/** The price and part-of-house filter: a GET form, so it works without script and can be bookmarked. */
export function SeatMapFilters({ view, filter }: { view: SeatMapView; filter: SeatMapFilter }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const prices = [...new Set(view.bands.map((band) => band.price))];
  for (const price of [filter.minPrice, filter.maxPrice])
    if (price !== undefined && !prices.includes(price)) prices.push(price);
  prices.sort((a, b) => a - b);
  const priceOptions = prices.map((price) => ({
    value: price,
    label: formatMoney(price, view.currency, i18n.language),
  }));
  const filtered = filter.minPrice !== undefined || filter.maxPrice !== undefined || filter.sectionId !== undefined;
  // The page's other parameters (its language, its theme) go with the filter, and nothing else.
  const rest = declaredParams(location.search, useMatches(), Object.values(FILTER_PARAMS));
  const restQuery = rest.toString();
  const clearHref = restQuery ? `${location.pathname}?${restQuery}` : location.pathname;

  return (
    <Form method="get" className="seat-map-filters" preventScrollReset>
      {[...rest].map(([name, value], index) => (
        <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
      ))}
      <fieldset>
        <legend>{t("seatMap.filters.title")}</legend>
        <PriceAndSectionFields
          idPrefix="seat-filter"
          className="seat-map-filters__field"
          names={{
            minPrice: FILTER_PARAMS.minPrice,
            maxPrice: FILTER_PARAMS.maxPrice,
            section: FILTER_PARAMS.sectionId,
          }}
          labels={{
            from: t("seatMap.filters.priceFrom"),
            to: t("seatMap.filters.priceTo"),
            anyPrice: t("seatMap.filters.anyPrice"),
            section: t("seatMap.filters.section"),
            anySection: t("seatMap.filters.allSections"),
          }}
          prices={priceOptions}
          sections={view.filterSections}
          values={filter}
        />
        <div className="seat-map-filters__actions">
          <button type="submit">{t("seatMap.filters.apply")}</button>
          {filtered && (
            <Link to={clearHref} preventScrollReset>
              {t("seatMap.filters.clear")}
            </Link>
          )}
        </div>
      </fieldset>
    </Form>
  );
}
