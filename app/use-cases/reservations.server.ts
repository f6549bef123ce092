import type { AppLoadContext } from "@remix-run/node";
import type { SearchRequest } from "~/ticketing/best-available";
import { isStoreUnreachable, type Refusal } from "~/ticketing/errors";
import type { Entitlements, Held } from "~/ticketing/inventory.server";
import type { Reservation } from "~/ticketing/reservation-view.server";
import type { ClientEvent, EventProperties } from "~/views/events";
import { track } from "~/use-cases/tracker.server";

// The buyer's reservation, as the pages change it: choose seats on the map, take what best
// available offers, choose standing places, give seats back, ask for more time. Each call goes to
// the engine once, records the spec's tracked events, and turns a refusal into the words to show.

/** A message to show, as a translation key and its values. */
export interface Message {
  key: string;
  values?: Record<string, string | number>;
}

export type ReserveOutcome =
  | { ok: true; events: ClientEvent[] }
  | { ok: false; events: ClientEvent[]; error: Message; seatIds?: number[] };

/** The words for an engine refusal: the spec's seat-limit and reserve errors where it has them. */
export function refusalMessage(refusal: Refusal): Message {
  if (refusal.reason === "seat-limit")
    return { key: "engine.seat-limit", values: { seatSelectionLimit: refusal.seatSelectionLimit ?? 0 } };
  if (refusal.reason === "companion-limit")
    return { key: "engine.companion-limit", values: { companionLimit: refusal.companionLimit ?? 0 } };
  if (refusal.reason === "busy") return { key: "reserve.connectionError" };
  if (refusal.reason === "no-block") return { key: "reserve.noOptions" };
  return { key: `engine.${refusal.reason}` };
}

async function reserve(
  context: AppLoadContext,
  performanceId: string,
  events: ClientEvent[],
  work: () => Promise<Held | Refusal>,
): Promise<ReserveOutcome> {
  events.push(track(context, "reserveSeats.request", { performanceId }));
  let result: Held | Refusal;
  try {
    result = await work();
  } catch (error) {
    events.push(track(context, "reserveSeats.failure", { performanceId, reason: "error" }));
    // Not the seats' fault, nor the buyer's: the page as a whole answers 503 (build.server.ts).
    if (isStoreUnreachable(error)) throw error;
    context.logger.error({ err: error, performanceId }, "reserving seats failed");
    return { ok: false, events, error: { key: "reserve.genericError" } };
  }
  if (result.ok) {
    events.push(track(context, "reserveSeats.success", { performanceId }));
    return { ok: true, events };
  }
  events.push(
    track(context, "reserveSeats.failure", {
      performanceId,
      reason: result.reason === "no-block" ? "noOptions" : result.reason,
    }),
  );
  if (result.reason === "seat-limit")
    events.push(track(context, "cappingError", { performanceId, limit: result.seatSelectionLimit ?? 0 }));
  return { ok: false, events, error: refusalMessage(result), seatIds: result.seatIds };
}

/**
 * Makes the basket hold exactly `wanted` of this performance's seats: new ones are held and
 * unticked ones given back in one transaction, so a swap at the seat limit works and a refusal
 * leaves the basket as it was.
 */
export async function chooseSeats(
  context: AppLoadContext,
  input: {
    basketId: string;
    performanceId: string;
    wanted: number[];
    current: Reservation | null;
    entitlements: Entitlements;
    /** Seats in `wanted` that are sponsored-partner seats (for the toggle event). */
    sponsored: ReadonlySet<number>;
  },
): Promise<ReserveOutcome> {
  const held = new Set(
    input.current && !input.current.expired && input.current.performanceId === input.performanceId
      ? input.current.seats.map((seat) => seat.seatId)
      : [],
  );
  const wanted = new Set(input.wanted);
  const add = [...wanted].filter((id) => !held.has(id));
  const remove = [...held].filter((id) => !wanted.has(id));
  const events: ClientEvent[] = [];
  for (const seatId of [...add, ...remove]) {
    events.push(
      track(context, input.sponsored.has(seatId) ? "toggleSponsoredSeat" : "toggleSeat", {
        performanceId: input.performanceId,
        selected: add.includes(seatId),
      }),
    );
  }
  if (add.length === 0) {
    if (remove.length === 0) return { ok: true, events };
    events.push(track(context, "removeTickets.request", { performanceId: input.performanceId, count: remove.length }));
    await context.inventory.releasePart({
      basketId: input.basketId,
      performanceId: input.performanceId,
      seatIds: remove,
    });
    events.push(track(context, "removeTickets.success", { performanceId: input.performanceId, count: remove.length }));
    return { ok: true, events };
  }
  events.push(track(context, "selectTickets.request", { performanceId: input.performanceId, count: add.length }));
  const outcome = await reserve(context, input.performanceId, events, () =>
    context.inventory.holdSeats({
      basketId: input.basketId,
      performanceId: input.performanceId,
      seatIds: add,
      releaseSeatIds: remove,
      entitlements: input.entitlements,
    }),
  );
  events.push(
    track(context, outcome.ok ? "selectTickets.success" : "selectTickets.failure", {
      performanceId: input.performanceId,
      count: add.length,
    }),
  );
  return outcome;
}

/**
 * Best available: holds the best block free for the request in place of whatever the basket held
 * for this performance. The engine chooses the block inside the transaction that claims it, so
 * buyers searching at once never collide; a seat taken on the map in that instant can still win,
 * and then the block is chosen again. The buyer is told there are no seats only when no block
 * that fits is free.
 */
export async function reserveBestAvailable(
  context: AppLoadContext,
  input: {
    basketId: string;
    performanceId: string;
    request: SearchRequest;
    current: Reservation | null;
    entitlements: Entitlements;
  },
): Promise<ReserveOutcome> {
  const events = [
    track(context, "seatFinderEngaged", { performanceId: input.performanceId, quantity: input.request.quantity }),
  ];
  const found = await context.seatSearch.chooser(input.performanceId, input.request, input.entitlements);
  if (!found) {
    events.push(track(context, "reserveSeats.failure", { performanceId: input.performanceId, reason: "noOptions" }));
    return { ok: false, events, error: { key: "reserve.noOptions" } };
  }
  if ("ok" in found) return reserve(context, input.performanceId, events, async () => found);
  const previous =
    input.current && !input.current.expired && input.current.performanceId === input.performanceId
      ? input.current.seats.map((seat) => seat.seatId)
      : [];
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await reserve(context, input.performanceId, events, () =>
      context.inventory.holdBest({
        basketId: input.basketId,
        performanceId: input.performanceId,
        choose: found.choose,
        releaseSeatIds: previous,
        entitlements: input.entitlements,
      }),
    );
    const lost = !outcome.ok && outcome.error.key === refusalMessage({ ok: false, reason: "unavailable" }).key;
    if (!lost || attempt === BEST_AVAILABLE_ATTEMPTS) return outcome;
  }
}

/** A block lost to a seat taken on the map in the same instant is chosen again, this many times in all. */
const BEST_AVAILABLE_ATTEMPTS = 3;

/** Sets how many standing places the basket holds in one area (0 gives them back). */
export async function chooseStanding(
  context: AppLoadContext,
  input: { basketId: string; performanceId: string; sectionId: string; quantity: number; entitlements: Entitlements },
): Promise<ReserveOutcome> {
  const events: ClientEvent[] = [];
  if (input.quantity === 0) {
    await context.inventory.releasePart({
      basketId: input.basketId,
      performanceId: input.performanceId,
      standingSectionId: input.sectionId,
    });
    events.push(track(context, "removeTickets.success", { performanceId: input.performanceId, area: input.sectionId }));
    return { ok: true, events };
  }
  return reserve(context, input.performanceId, events, () =>
    context.inventory.holdStanding({ ...input, replace: true }),
  );
}

/** Gives back everything the basket holds (the buyer confirmed they want to leave, or to start again). */
export async function releaseReservation(
  context: AppLoadContext,
  basketId: string,
  performanceId: string | undefined,
): Promise<ClientEvent[]> {
  const properties: EventProperties = performanceId ? { performanceId } : {};
  const events = [track(context, "releaseSeats.request", properties)];
  try {
    await context.orderLifecycle.releaseBasket(basketId);
  } catch (error) {
    context.logger.error({ err: error }, "releasing seats failed");
    events.push(track(context, "releaseSeats.failure", properties));
    throw error;
  }
  events.push(track(context, "releaseSeats.success", properties));
  return events;
}
