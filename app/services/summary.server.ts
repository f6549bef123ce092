import type { Store } from "~/db/connection.server";
import type { Order } from "~/ticketing/orders.server";
import type { PricedBasket } from "~/ticketing/pricing";
import type { Reservation } from "~/ticketing/reservation-view.server";
import { summarise, type SummaryLabel, type SummaryView } from "~/views/summary";

// Names for the summary's lines, read from the catalogue: the seats of a reservation (before
// payment) or the issued tickets of an order (after), price options, extras and vouchers.

async function catalogueNames(db: Store["db"], priced: PricedBasket) {
  const optionIds = [...new Set(priced.lines.flatMap((line) => (line.kind === "ticket" ? [line.priceOptionId] : [])))];
  const extraIds = [...new Set(priced.lines.flatMap((line) => (line.kind === "extra" ? [line.id] : [])))];
  const voucherIds = priced.vouchers.map((voucher) => voucher.id);
  const [options, extras, vouchers] = await Promise.all([
    optionIds.length
      ? db.selectFrom("price_options").select(["id", "label"]).where("id", "in", optionIds).execute()
      : [],
    extraIds.length ? db.selectFrom("extras").select(["id", "name"]).where("id", "in", extraIds).execute() : [],
    voucherIds.length
      ? db.selectFrom("vouchers").select(["id", "number", "kind"]).where("id", "in", voucherIds).execute()
      : [],
  ]);
  return {
    priceOption: (id: string) => options.find((option) => option.id === id)?.label,
    extra: (id: string) => extras.find((extra) => extra.id === id)?.name,
    voucher: (id: string): SummaryLabel => {
      const voucher = vouchers.find((candidate) => candidate.id === id);
      return { key: "summary.voucher", values: { ending: voucher?.number.slice(-4) ?? "" } };
    },
  };
}

export function createSummaries(store: Store) {
  const { db } = store;
  return {
    /** A basket's summary before payment: its prices, named by the seats and places it holds. */
    basket: (reservation: Reservation | null, priced: PricedBasket) => basketSummary(db, reservation, priced),
    /** The order as it was paid for: its stored prices, named by the tickets issued for it. */
    order: (order: Order) => orderSummary(db, order),
  };
}

export type Summaries = ReturnType<typeof createSummaries>;

async function basketSummary(
  db: Store["db"],
  reservation: Reservation | null,
  priced: PricedBasket,
): Promise<SummaryView> {
  const seats = new Map(
    (reservation?.seats ?? []).map((seat) => [`seat:${reservation?.performanceId}:${seat.seatId}`, seat]),
  );
  const areas = new Map((reservation?.standing ?? []).map((claim) => [claim.claimId, claim.section]));
  return summarise(priced, {
    ...(await catalogueNames(db, priced)),
    ticket: (ref): SummaryLabel => {
      const seat = seats.get(ref);
      if (seat) return { key: "tickets.seatName", values: { section: seat.section, row: seat.row, seat: seat.label } };
      return { key: "tickets.standingName", values: { area: areas.get(ref.split(":")[1] ?? "") ?? "", count: 1 } };
    },
  });
}

async function orderSummary(db: Store["db"], order: Order): Promise<SummaryView> {
  const priced = JSON.parse(order.lines) as PricedBasket;
  const tickets = await db
    .selectFrom("order_tickets")
    .select(["ref", "label"])
    .where("order_id", "=", order.id)
    .orderBy("sort_order")
    .execute();
  const labels = new Map(tickets.map((ticket) => [ticket.ref, ticket.label]));
  return summarise(priced, {
    ...(await catalogueNames(db, priced)),
    ticket: (ref) => ({ key: "summary.plain", values: { text: labels.get(ref) ?? "" } }),
  });
}
