import type { Catalogue } from "~/ticketing/catalogue.server";
import type { IssuedTicket, Order } from "~/ticketing/orders.server";
import type { PricedBasket } from "~/ticketing/pricing";
import type { Reservation } from "~/ticketing/reservation-view.server";
import type { Vouchers } from "~/ticketing/vouchers.server";
import { summarise, type SummaryLabel, type SummaryView } from "~/views/summary";

// Names for the summary's lines, read from the catalogue: the seats of a reservation (before
// payment) or the issued tickets of an order (after), price options, extras and vouchers.

/** The domain's reads a summary names its lines with. */
interface SummaryReads {
  catalogue: Pick<Catalogue, "names">;
  vouchers: Pick<Vouchers, "numbers">;
}

async function catalogueNames(reads: SummaryReads, priced: PricedBasket) {
  const priceOptions = [
    ...new Set(priced.lines.flatMap((line) => (line.kind === "ticket" ? [line.priceOptionId] : []))),
  ];
  const extras = [...new Set(priced.lines.flatMap((line) => (line.kind === "extra" ? [line.id] : [])))];
  const [names, numbers] = await Promise.all([
    reads.catalogue.names({ priceOptions, extras }),
    reads.vouchers.numbers(priced.vouchers.map((voucher) => voucher.id)),
  ]);
  return {
    ...names,
    voucher: (id: string): SummaryLabel => ({
      key: "summary.voucher",
      values: { ending: numbers.get(id)?.slice(-4) ?? "" },
    }),
  };
}

export function createSummaries(reads: SummaryReads) {
  return {
    /** A basket's summary before payment: its prices, named by the seats and places it holds. */
    basket: (reservation: Reservation | null, priced: PricedBasket) => basketSummary(reads, reservation, priced),
    /** The order as it was paid for: its stored prices, named by the tickets issued for it. */
    order: (order: Order, tickets: readonly IssuedTicket[]) => orderSummary(reads, order, tickets),
  };
}

export type Summaries = ReturnType<typeof createSummaries>;

async function basketSummary(
  reads: SummaryReads,
  reservation: Reservation | null,
  priced: PricedBasket,
): Promise<SummaryView> {
  const seats = new Map(
    (reservation?.seats ?? []).map((seat) => [`seat:${reservation?.performanceId}:${seat.seatId}`, seat]),
  );
  const areas = new Map((reservation?.standing ?? []).map((claim) => [claim.claimId, claim.section]));
  return summarise(priced, {
    ...(await catalogueNames(reads, priced)),
    ticket: (ref): SummaryLabel => {
      const seat = seats.get(ref);
      if (seat) return { key: "tickets.seatName", values: { section: seat.section, row: seat.row, seat: seat.label } };
      return { key: "tickets.standingName", values: { area: areas.get(ref.split(":")[1] ?? "") ?? "", count: 1 } };
    },
  });
}

async function orderSummary(reads: SummaryReads, order: Order, tickets: readonly IssuedTicket[]): Promise<SummaryView> {
  const priced = JSON.parse(order.lines) as PricedBasket;
  const labels = new Map(tickets.map((ticket) => [ticket.ref, ticket.label]));
  return summarise(priced, {
    ...(await catalogueNames(reads, priced)),
    ticket: (ref) => ({ key: "summary.plain", values: { text: labels.get(ref) ?? "" } }),
  });
}
