import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { AccessService } from "~/views/access-services";
import { fullName, parseContactDetails } from "~/views/contact-details";
import {
  isAccessPlace,
  registeredNeedsOf,
  seatIdOfRef,
  servicesForSeat,
  type RegisteredNeeds,
} from "./access-places.server";
import { loadPlanGroups } from "./availability.server";
import { activeClaim, activeStandingClaim } from "./inventory.server";
import type { PricedBasket } from "./pricing";

// What a performance has sold, who needs what for access, and its orders as a spreadsheet (issue
// 55 item 4): the read side the staff's performance pages and the CSV download show. Reads only.

/** Places of one price band or one part of the house. `sold + held + free = capacity`. */
export interface PlaceCounts {
  /** Places on sale: the band's or part's seats and standing places, less those withheld. */
  capacity: number;
  /** Claimed by a paid or placed order. */
  sold: number;
  /** Held by a basket whose hold has not lapsed. */
  held: number;
  free: number;
  /** Kept off sale by the catalogue (never for sale): outside capacity, shown for the record. */
  withheld: number;
}

export interface PerformanceReport {
  performanceId: string;
  /** The venue's currency, which every order of the performance is in. */
  currency: string;
  bands: ({ bandId: string; code: string; name: string } & PlaceCounts)[];
  sections: ({ sectionId: string; name: string } & PlaceCounts)[];
  total: PlaceCounts;
  /** What the paid orders cost their buyers (card and vouchers alike), minor units. */
  gross: number;
  /** Refunds the provider has settled, minor units. */
  refunded: number;
  net: number;
  /** Paid orders, refunded ones included. */
  orders: number;
  /** Tickets of paid orders that still admit someone (not refunded, nor being refunded). */
  tickets: number;
  /** Tickets of paid orders that a refund has taken. */
  voidTickets: number;
}

/** Which performance a report is of, as its pages head it and its CSV file is named. */
export interface ReportedPerformance {
  performanceId: string;
  show: string;
  /** The show's slug (letters, digits and ! . + & -). */
  showSlug: string;
  venue: string;
  /** The venue's country, which words its sign-language service (BSL or ASL). */
  country: string;
  startsAt: string;
  timeZone: string;
  currency: string;
}

export interface AccessListSeat {
  /** As the e-ticket names it ("Stalls, row A, seat 1"). */
  label: string;
  /** The seat map's seat type; null for a standing place. */
  seatType: string | null;
  /** The performance's services this seat is placed for (an audio-described headset's reception, say). */
  services: AccessService[];
}

export interface AccessListEntry {
  orderNumber: string;
  name: string;
  email: string;
  /** E.164, from the order's contact details; null when the order has none. */
  phone: string | null;
  seats: AccessListSeat[];
  /** The buyer's access registration, when they have one. */
  registered: RegisteredNeeds | null;
}

export interface AccessList {
  performanceId: string;
  /** The services the performance carries. */
  services: AccessService[];
  entries: AccessListEntry[];
}

export const ORDER_CSV_COLUMNS = [
  "orderNumber",
  "paidAt",
  "name",
  "email",
  "seat",
  "priceBand",
  "price",
  "refunded",
] as const;
export type OrderCsvColumn = (typeof ORDER_CSV_COLUMNS)[number];

/** The words the CSV is written in: the caller's locale's (its header and yes/no). */
export interface OrderCsvWording {
  header: Record<OrderCsvColumn, string>;
  yes: string;
  no: string;
}

const KEYS_AS_WORDING: OrderCsvWording = {
  header: Object.fromEntries(ORDER_CSV_COLUMNS.map((column) => [column, column])) as Record<OrderCsvColumn, string>,
  yes: "yes",
  no: "no",
};

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote, CR or LF, quotes doubled. A cell a
 * spreadsheet would read as a formula (= + - @, or a tab or CR before one) gets a leading single
 * quote first, so a buyer's name cannot run a formula on the manager's machine (OWASP CSV
 * injection). Numbers we write ourselves are never text a buyer typed, so they pass as they are.
 */
export function csvCell(value: string | number): string {
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** CSV lines end CRLF, as RFC 4180 has them. */
export const csvLine = (cells: readonly (string | number)[]) => `${cells.map(csvCell).join(",")}\r\n`;

interface TicketRow {
  id: string;
  ref: string;
  label: string;
  refund_id: string | null;
  voided_at: string | null;
  sort_order: number;
}

export function createPerformanceReports(store: Store, clock: Clock) {
  const { db } = store;

  const performanceOf = (performanceId: string) =>
    db
      .selectFrom("performances")
      .innerJoin("runs", "runs.id", "performances.run_id")
      .innerJoin("venues", "venues.id", "runs.venue_id")
      .select([
        "performances.id",
        "performances.price_plan_id",
        "performances.access_services",
        "runs.seat_map_id",
        "venues.currency",
      ])
      .where("performances.id", "=", performanceId)
      .executeTakeFirst();

  const paidOrders = (performanceId: string) =>
    db
      .selectFrom("orders")
      .select([
        "id",
        "number",
        "customer_name",
        "email",
        "contacts",
        "customer_id",
        "paid_at",
        "total",
        "lines",
        "refund_status",
      ])
      .where("performance_id", "=", performanceId)
      .where("status", "=", "paid")
      .orderBy("paid_at")
      .orderBy("number")
      .execute();

  /** The tickets of the performance's paid orders, by order, in each order's own order. */
  async function ticketsOf(performanceId: string): Promise<Map<string, TicketRow[]>> {
    const rows = await db
      .selectFrom("order_tickets")
      .innerJoin("orders", "orders.id", "order_tickets.order_id")
      .select([
        "order_tickets.id",
        "order_tickets.order_id",
        "order_tickets.ref",
        "order_tickets.label",
        "order_tickets.refund_id",
        "order_tickets.voided_at",
        "order_tickets.sort_order",
      ])
      .where("orders.performance_id", "=", performanceId)
      .where("orders.status", "=", "paid")
      .orderBy("order_tickets.sort_order")
      .execute();
    const byOrder = new Map<string, TicketRow[]>();
    for (const row of rows) {
      const tickets = byOrder.get(row.order_id);
      if (tickets) tickets.push(row);
      else byOrder.set(row.order_id, [row]);
    }
    return byOrder;
  }

  /** Where each seat sits, so lists sort as the house does: part, row, then place in the row. */
  async function seatsOf(seatIds: number[]) {
    if (seatIds.length === 0) return new Map<number, SeatFacts>();
    const rows = await db
      .selectFrom("seats")
      .innerJoin("sections", "sections.id", "seats.section_id")
      .select([
        "seats.id",
        "seats.seat_type",
        "seats.suits",
        "seats.row_order",
        "seats.position",
        "sections.sort_order",
      ])
      .where("seats.id", "in", [...new Set(seatIds)])
      .execute();
    return new Map(rows.map((row) => [row.id, row]));
  }
  type SeatFacts = {
    id: number;
    seat_type: string;
    suits: string;
    row_order: number;
    position: number;
    sort_order: number;
  };
  /** A standing place (no seat) sorts after every seat. */
  const seatOrder = (seat: SeatFacts | undefined): number[] =>
    seat ? [seat.sort_order, seat.row_order, seat.position] : [Number.MAX_SAFE_INTEGER, 0, 0];
  const compareOrder = (a: number[], b: number[]) => {
    for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return a[index]! - b[index]!;
    return 0;
  };

  /** The buyer as the order's contact details name them, else as the order recorded them. */
  const buyerOf = (order: { customer_name: string; email: string; contacts: string | null }) => {
    const contacts = parseContactDetails(order.contacts);
    return {
      name: (contacts && fullName(contacts)) || order.customer_name,
      email: contacts?.email || order.email,
      phone: contacts?.phone || null,
    };
  };

  /** A ticket that admits nobody: its refund is settled or under way (as the door has it). */
  const isVoid = (ticket: Pick<TicketRow, "refund_id" | "voided_at">, orderRefunded: boolean) =>
    orderRefunded || ticket.voided_at !== null || ticket.refund_id !== null;

  return {
    /** The performance's show, venue and time; null for no such performance. */
    async about(performanceId: string): Promise<ReportedPerformance | null> {
      const row = await db
        .selectFrom("performances")
        .innerJoin("runs", "runs.id", "performances.run_id")
        .innerJoin("titles", "titles.id", "runs.title_id")
        .innerJoin("venues", "venues.id", "runs.venue_id")
        .select([
          "performances.id",
          "performances.starts_at",
          "titles.name as show",
          "titles.slug as showSlug",
          "venues.name as venue",
          "venues.country",
          "venues.time_zone",
          "venues.currency",
        ])
        .where("performances.id", "=", performanceId)
        .executeTakeFirst();
      return row
        ? {
            performanceId: row.id,
            show: row.show,
            showSlug: row.showSlug,
            venue: row.venue,
            country: row.country,
            startsAt: row.starts_at,
            timeZone: row.time_zone,
            currency: row.currency,
          }
        : null;
    },

    /** Sold, held and free by price band and part of the house, takings and counts; null for no such performance. */
    async performanceReport(performanceId: string): Promise<PerformanceReport | null> {
      const performance = await performanceOf(performanceId);
      if (!performance) return null;
      const now = clock.now().toISOString();
      const [groups, bands, sections, seatClaims, standingClaims, orders, refunds] = await Promise.all([
        loadPlanGroups(store, [performance.price_plan_id]),
        db
          .selectFrom("price_bands")
          .select(["id", "code", "name", "sort_order"])
          .where("price_plan_id", "=", performance.price_plan_id)
          .orderBy("sort_order")
          .execute(),
        db
          .selectFrom("sections")
          .select(["id", "name", "sort_order"])
          .where("seat_map_id", "=", performance.seat_map_id)
          .orderBy("sort_order")
          .execute(),
        db
          .selectFrom("seat_claims")
          .innerJoin("price_plan_seats", "price_plan_seats.seat_id", "seat_claims.seat_id")
          .innerJoin("seats", "seats.id", "seat_claims.seat_id")
          .select((eb) => [
            "seats.section_id",
            "price_plan_seats.price_band_id",
            "seat_claims.status",
            eb.fn.countAll<number>().as("places"),
          ])
          .where("seat_claims.performance_id", "=", performanceId)
          .where("price_plan_seats.price_plan_id", "=", performance.price_plan_id)
          .where(activeClaim(now))
          .groupBy(["seats.section_id", "price_plan_seats.price_band_id", "seat_claims.status"])
          .execute(),
        db
          .selectFrom("standing_claims")
          .select((eb) => ["section_id", "status", eb.fn.sum<number>("quantity").as("places")])
          .where("performance_id", "=", performanceId)
          .where(activeStandingClaim(now))
          .groupBy(["section_id", "status"])
          .execute(),
        paidOrders(performanceId),
        db
          .selectFrom("refunds")
          .innerJoin("orders", "orders.id", "refunds.order_id")
          .select((eb) => eb.fn.sum<number>("refunds.amount").as("amount"))
          .where("orders.performance_id", "=", performanceId)
          .where("orders.status", "=", "paid")
          .where("refunds.status", "=", "succeeded")
          .executeTakeFirst(),
      ]);

      const empty = (): PlaceCounts => ({ capacity: 0, sold: 0, held: 0, free: 0, withheld: 0 });
      const byBand = new Map(bands.map((band) => [band.id, empty()]));
      const bySection = new Map(sections.map((section) => [section.id, empty()]));
      const total = empty();
      const add = (sectionId: string, bandId: string, key: keyof PlaceCounts, places: number) => {
        for (const counts of [byBand.get(bandId), bySection.get(sectionId), total]) if (counts) counts[key] += places;
      };
      for (const group of groups.filter((group) => group.planId === performance.price_plan_id))
        add(group.sectionId, group.bandId, "capacity", group.seats);
      for (const claim of seatClaims) {
        const places = Number(claim.places);
        add(claim.section_id, claim.price_band_id, claim.status, places);
        // Withheld seats were never for sale: they count against no capacity.
        if (claim.status === "withheld") add(claim.section_id, claim.price_band_id, "capacity", -places);
      }
      const areaBand = new Map(
        groups.filter((group) => group.standing).map((group) => [group.sectionId, group.bandId] as const),
      );
      for (const claim of standingClaims) {
        const bandId = areaBand.get(claim.section_id);
        if (bandId) add(claim.section_id, bandId, claim.status, Number(claim.places));
      }
      for (const counts of [...byBand.values(), ...bySection.values(), total])
        counts.free = Math.max(counts.capacity - counts.sold - counts.held, 0);

      const ticketsByOrder = await ticketsOf(performanceId);
      const tickets = orders.flatMap((order) =>
        (ticketsByOrder.get(order.id) ?? []).map((ticket) => isVoid(ticket, order.refund_status === "refunded")),
      );
      const gross = orders.reduce((sum, order) => sum + Number(order.total), 0);
      const refunded = Number(refunds?.amount ?? 0);
      return {
        performanceId,
        currency: performance.currency,
        bands: bands.map((band) => ({ bandId: band.id, code: band.code, name: band.name, ...byBand.get(band.id)! })),
        sections: sections.map((section) => ({
          sectionId: section.id,
          name: section.name,
          ...bySection.get(section.id)!,
        })),
        total,
        gross,
        refunded,
        net: gross - refunded,
        orders: orders.length,
        tickets: tickets.filter((isVoid) => !isVoid).length,
        voidTickets: tickets.filter((isVoid) => isVoid).length,
      };
    },

    /**
     * Every paid order of the performance, not wholly refunded, that holds a place kept for access
     * (a wheelchair space, a companion seat, an access-zone seat) or whose buyer registered access
     * needs: who, how to reach them, their places and the services each place suits, sorted by
     * the first of their places as the house runs. Tickets a refund has taken are left out.
     */
    async accessList(performanceId: string): Promise<AccessList | null> {
      const performance = await performanceOf(performanceId);
      if (!performance) return null;
      const orders = (await paidOrders(performanceId)).filter((order) => order.refund_status !== "refunded");
      const [ticketsByOrder, registrations] = await Promise.all([
        ticketsOf(performanceId),
        registeredNeedsOf(
          db,
          orders.flatMap((order) => (order.customer_id ? [order.customer_id] : [])),
        ),
      ]);
      const live = (orderId: string) => (ticketsByOrder.get(orderId) ?? []).filter((ticket) => !isVoid(ticket, false));
      const seats = await seatsOf(
        orders.flatMap((order) => live(order.id).flatMap((ticket) => seatIdOfRef(ticket.ref) ?? [])),
      );
      const seatFor = (ref: string) => {
        const id = seatIdOfRef(ref);
        return id === null ? undefined : seats.get(id);
      };

      const entries: { entry: AccessListEntry; order: number[] }[] = [];
      for (const order of orders) {
        const tickets = live(order.id).sort((a, b) =>
          compareOrder(seatOrder(seatFor(a.ref)), seatOrder(seatFor(b.ref))),
        );
        if (tickets.length === 0) continue;
        const registered = (order.customer_id && registrations.get(order.customer_id)) || null;
        const accessPlace = tickets.some((ticket) => isAccessPlace(seatFor(ticket.ref)?.seat_type ?? ""));
        if (!accessPlace && !registered) continue;
        entries.push({
          order: seatOrder(seatFor(tickets[0]!.ref)),
          entry: {
            orderNumber: order.number,
            ...buyerOf(order),
            seats: tickets.map((ticket) => {
              const seat = seatFor(ticket.ref);
              return {
                label: ticket.label,
                seatType: seat?.seat_type ?? null,
                services: servicesForSeat(performance.access_services, seat?.suits)
                  .filter((service) => service.seatSuits)
                  .map(({ service }) => service),
              };
            }),
            registered,
          },
        });
      }
      entries.sort((a, b) => compareOrder(a.order, b.order) || a.entry.orderNumber.localeCompare(b.entry.orderNumber));
      return {
        performanceId,
        services: servicesForSeat(performance.access_services, "").map(({ service }) => service),
        entries: entries.map(({ entry }) => entry),
      };
    },

    /**
     * The performance's paid orders as CSV, one line per ticket under a header: order number,
     * when paid, buyer, email, seat, price band, the ticket's all-in price (minor units, before
     * any order-wide promo discount) and whether a refund has taken it. Null for no such performance.
     */
    async ordersCsv(performanceId: string, wording: OrderCsvWording = KEYS_AS_WORDING): Promise<string | null> {
      const performance = await performanceOf(performanceId);
      if (!performance) return null;
      const [orders, ticketsByOrder] = await Promise.all([paidOrders(performanceId), ticketsOf(performanceId)]);
      // Each ticket's line as the buyer agreed to it: its price and the price option (so the band).
      const ticketLines = new Map(
        orders.map((order) => [
          order.id,
          (JSON.parse(order.lines) as PricedBasket).lines.flatMap((line) => (line.kind === "ticket" ? [line] : [])),
        ]),
      );
      const optionIds = [...ticketLines.values()].flat().map((line) => line.priceOptionId);
      const bandOfOption = new Map(
        optionIds.length
          ? (
              await db
                .selectFrom("price_options")
                .innerJoin("price_bands", "price_bands.id", "price_options.price_band_id")
                .select(["price_options.id", "price_bands.name"])
                .where("price_options.id", "in", [...new Set(optionIds)])
                .execute()
            ).map((row) => [row.id, row.name] as const)
          : [],
      );
      let csv = csvLine(ORDER_CSV_COLUMNS.map((column) => wording.header[column]));
      for (const order of orders) {
        const buyer = buyerOf(order);
        const lines = ticketLines.get(order.id) ?? [];
        for (const ticket of ticketsByOrder.get(order.id) ?? []) {
          const line = lines.find((candidate) => candidate.ref === ticket.ref);
          const refunded = order.refund_status === "refunded" || ticket.voided_at !== null;
          csv += csvLine([
            order.number,
            order.paid_at ?? "",
            buyer.name,
            buyer.email,
            ticket.label,
            (line && bandOfOption.get(line.priceOptionId)) ?? "",
            line?.amount ?? "",
            refunded ? wording.yes : wording.no,
          ]);
        }
      }
      return csv;
    },
  };
}

export type PerformanceReports = ReturnType<typeof createPerformanceReports>;
