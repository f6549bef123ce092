import type { Catalogue } from "~/ticketing/catalogue.server";
import type { IssuedTicket, Order } from "~/ticketing/orders.server";
import type { PricedBasket } from "~/ticketing/pricing";
import type { Reservation } from "~/ticketing/reservation-view.server";
import type { Vouchers } from "~/ticketing/vouchers.server";
import type { SummaryLabel, SummaryLine, SummaryView } from "~/views/summary";

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

interface SummaryNames {
  /** A ticket's name by its priced ref ("seat:perf:12", "standing:claim:0"). */
  ticket(ref: string): SummaryLabel;
  priceOption(id: string): string | undefined;
  extra(id: string): string | undefined;
  voucher(id: string): SummaryLabel;
}

function summarise(priced: PricedBasket, names: SummaryNames): SummaryView {
  const lines: SummaryLine[] = priced.lines.map((line, index): SummaryLine => {
    const id = `${line.kind}-${index}`;
    switch (line.kind) {
      case "ticket": {
        const option = names.priceOption(line.priceOptionId);
        return {
          id,
          label: names.ticket(line.ref),
          note: option ? { key: "summary.priceOption", values: { option } } : undefined,
          amount: line.amount,
        };
      }
      case "extra":
        return {
          id,
          label: { key: "summary.extra", values: { name: names.extra(line.id) ?? "", count: line.quantity } },
          amount: line.amount,
        };
      case "protection":
        return {
          id,
          label: { key: "summary.protection", values: { count: line.tickets } },
          note: line.included ? { key: "summary.includedWithMembership" } : undefined,
          amount: line.amount,
        };
      case "membership":
        return {
          id,
          label: { key: "summary.membership", values: { name: line.name, count: line.months } },
          amount: line.amount,
        };
      case "delivery":
        return { id, label: { key: `delivery.${line.method}` }, amount: line.amount };
      case "transactionFee":
        return {
          id,
          label: { key: "summary.transactionFee" },
          note: line.waived ? { key: "summary.waivedForMembers" } : undefined,
          amount: line.amount,
        };
      case "discount":
        return { id, label: { key: "summary.discount", values: { code: line.code } }, amount: line.amount };
    }
  });
  return {
    currency: priced.currency,
    lines,
    total: priced.total,
    vouchers: priced.vouchers.map((voucher) => ({ ...voucher, label: names.voucher(voucher.id) })),
    toPay: priced.toPay,
  };
}
