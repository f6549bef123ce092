import type { Selectable } from "kysely";
import type { PerformanceTable } from "~/db/schema";
// The states are a view's words (app/views/sale-state.ts), which the calendar's components read;
// this module decides which one a performance is in.
import type { SaleState } from "~/views/sale-state";

// When a performance may be booked, and by whom: one rule, read by the calendar and the show page
// (what to offer) and by the hold (what to refuse), so neither offers what the other would refuse.

export type { SaleState };

export interface SaleWindow {
  status: "on_sale" | "cancelled";
  onSaleFrom: string;
  onSaleUntil: string;
  presaleFrom: string | null;
  presaleUntil: string | null;
  /** Comma-separated presale audiences ("plus-member", "promo"). */
  presaleAudience: string;
  /** A scheduled on-sale's waiting room opens then, before onSaleFrom; null without one. */
  queueOpensAt: string | null;
}

/** Before the on-sale date only a presale audience inside the presale window may book. */
export function saleState(window: SaleWindow, now: Date, presaleAudiences: ReadonlySet<string>): SaleState {
  const at = now.toISOString();
  if (window.status !== "on_sale") return "cancelled";
  if (at >= window.onSaleUntil) return "closed";
  if (at >= window.onSaleFrom) return "onSale";
  if (window.queueOpensAt !== null && at >= window.queueOpensAt) return "queueOpen";
  const inPresale = window.presaleFrom !== null && at >= window.presaleFrom && at < (window.presaleUntil ?? "");
  if (!inPresale) return "notYetOnSale";
  const audience = window.presaleAudience.split(",").filter(Boolean);
  return audience.some((group) => presaleAudiences.has(group)) ? "presaleUnlocked" : "presale";
}

/**
 * What each state offers a buyer browsing the calendar. `places`: places are on sale, to everyone
 * or, in presale, to its audience (its tickets page tells anyone else who can book), so a page says
 * how many are left. `queue`: not on sale yet, but its waiting room is open, and the tickets page
 * sends the buyer there. Null: nothing to offer.
 */
const OFFERS: Record<SaleState, "places" | "queue" | null> = {
  onSale: "places",
  presale: "places",
  presaleUnlocked: "places",
  queueOpen: "queue",
  notYetOnSale: null,
  closed: null,
  cancelled: null,
};

/** Whether places are on sale in this state (to this buyer, or in presale to its audience). */
export function bookable(state: SaleState): boolean {
  return OFFERS[state] === "places";
}

/** Whether a performance in this state links to its tickets page: places or a queue, while places are left. */
export function offersTickets(state: SaleState, soldOut: boolean): boolean {
  return OFFERS[state] !== null && !soldOut;
}

const NO_AUDIENCE: ReadonlySet<string> = new Set();

/**
 * Whether a performance's sale, queue or presale is open at `now` for anyone at all: where the
 * calendar opens, on the first month with something to offer.
 */
export function saleBegun(window: SaleWindow, now: Date): boolean {
  return OFFERS[saleState(window, now, NO_AUDIENCE)] !== null;
}

export type SaleRefusal = "not-found" | "sales-closed" | "not-on-sale" | "presale";

const REFUSALS: Record<SaleState, SaleRefusal | null> = {
  onSale: null,
  presaleUnlocked: null,
  presale: "presale",
  // Nobody holds seats before the sale opens; the waiting room keeps their place until then.
  queueOpen: "not-on-sale",
  notYetOnSale: "not-on-sale",
  closed: "sales-closed",
  cancelled: "not-found",
};

/** Why this buyer may not hold seats now, or null when they may. */
export function saleRefusal(window: SaleWindow, now: Date, presaleAudiences: ReadonlySet<string>) {
  return REFUSALS[saleState(window, now, presaleAudiences)];
}

/** A stored performance's sale window. */
export function saleWindowOf(
  row: Pick<
    Selectable<PerformanceTable>,
    | "status"
    | "on_sale_from"
    | "on_sale_until"
    | "presale_from"
    | "presale_until"
    | "presale_audience"
    | "queue_opens_at"
  >,
): SaleWindow {
  return {
    status: row.status,
    onSaleFrom: row.on_sale_from,
    onSaleUntil: row.on_sale_until,
    presaleFrom: row.presale_from,
    presaleUntil: row.presale_until,
    presaleAudience: row.presale_audience,
    queueOpensAt: row.queue_opens_at,
  };
}
