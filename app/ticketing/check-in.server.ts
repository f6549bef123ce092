import { sql } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { AccessService } from "~/views/access-services";
import {
  isAccessPlace,
  registeredNeedsOf,
  seatIdOfRef,
  servicesForSeat,
  type AccessPlace,
  type RegisteredNeeds,
} from "./access-places.server";
import { ticketCodeOf } from "./ticket-code";

// Door check-in (issue 55 item 2, decision 0060): a typed or scanned e-ticket code, at one door of
// one performance, admits its ticket once. Which of two doors scanning the same ticket at the same
// moment admits it is decided by the check-in table's key, in one insert, never by a read before
// it: a read says "not used yet" to both.

export type { AccessPlace } from "./access-places.server";

/**
 * What front-of-house needs to know when a ticket is admitted: where its holder sits if that is a
 * place kept for access, what else the booking holds of those (a companion's ticket scanned first
 * still says a wheelchair user is coming), the performance's access services (an audio-described
 * one means a headset to hand over), and what the buyer's access registration records.
 */
export interface AccessNeeds {
  /** This ticket's place, when it is a wheelchair space, a companion seat or an access-zone seat. */
  place: AccessPlace | null;
  /** The booking's places of each access kind that still admit someone, this ticket's among them. */
  booking: { wheelchairSpaces: number; companionSeats: number; accessSeats: number };
  /** The performance's services, each with whether this ticket's seat is one placed for it. */
  services: { service: AccessService; seatSuits: boolean }[];
  /** The booking's buyer's access registration (an access membership), when they have one. */
  registered: RegisteredNeeds | null;
}

export type CheckInOutcome =
  | {
      outcome: "admitted";
      /** The ticket's place as its e-ticket names it ("Stalls, row A, seat 1"). */
      label: string;
      name: string;
      orderNumber: string;
      access: AccessNeeds;
    }
  | { outcome: "alreadyUsed"; label: string; name: string; checkedInAt: string; door: string }
  | {
      outcome: "void";
      label: string;
      name: string;
      /** When its refund was settled; null while the refund that took it is under way. */
      voidedAt: string | null;
    }
  | {
      outcome: "otherPerformance";
      label: string;
      /** The performance the ticket is for. */
      performance: { id: string; title: string; startsAt: string; timeZone: string; venue: string };
    }
  | { outcome: "unknown" };

export interface CheckInRequest {
  performanceId: string;
  /** What was typed or scanned: the e-ticket's code, in any case, with spaces or hyphens. */
  code: string;
  /** The door as it names itself ("Stalls door"). */
  door: string;
  /** The staff account that scanned it. */
  staffId: string;
}

export function createCheckIn(store: Store, clock: Clock) {
  const { db } = store;

  /** The ticket with this code, its order, its performance and its check-in if it has one. */
  function ticketByCode(code: string) {
    return db
      .selectFrom("order_tickets")
      .innerJoin("orders", "orders.id", "order_tickets.order_id")
      .leftJoin("performances", "performances.id", "orders.performance_id")
      .leftJoin("runs", "runs.id", "performances.run_id")
      .leftJoin("titles", "titles.id", "runs.title_id")
      .leftJoin("venues", "venues.id", "runs.venue_id")
      .leftJoin("ticket_check_ins", "ticket_check_ins.ticket_id", "order_tickets.id")
      .select([
        "order_tickets.id",
        "order_tickets.ref",
        "order_tickets.label",
        "order_tickets.refund_id",
        "order_tickets.voided_at",
        "orders.id as order_id",
        "orders.number",
        "orders.status",
        "orders.refund_status",
        "orders.customer_name",
        "orders.customer_id",
        "orders.performance_id",
        "performances.starts_at",
        "performances.access_services",
        "titles.name as title",
        "venues.name as venue",
        "venues.time_zone",
        "ticket_check_ins.checked_in_at",
        "ticket_check_ins.door",
      ])
      .where("order_tickets.barcode", "=", code)
      .executeTakeFirst();
  }

  type Ticket = NonNullable<Awaited<ReturnType<typeof ticketByCode>>>;

  /**
   * Admits nobody: its refund is settled (or under way: the money is going back, so the ticket is
   * not used meanwhile; a refused refund frees it again), its order is refunded, or its order is
   * not paid (no such ticket is issued; said here so that none could ever admit).
   */
  const isVoid = (ticket: Pick<Ticket, "voided_at" | "refund_id" | "status" | "refund_status">) =>
    ticket.voided_at !== null ||
    ticket.refund_id !== null ||
    ticket.refund_status === "refunded" ||
    ticket.status !== "paid";

  const voided = (ticket: Ticket, voidedAt: string | null): CheckInOutcome => ({
    outcome: "void",
    label: ticket.label,
    name: ticket.customer_name,
    voidedAt,
  });

  /** What the booking this ticket is part of holds for access, and what its buyer registered. */
  async function accessNeeds(ticket: Ticket): Promise<AccessNeeds> {
    const [tickets, registrations] = await Promise.all([
      db
        .selectFrom("order_tickets")
        .select(["id", "ref"])
        .where("order_id", "=", ticket.order_id)
        .where("voided_at", "is", null)
        .where("refund_id", "is", null)
        .execute(),
      registeredNeedsOf(db, ticket.customer_id ? [ticket.customer_id] : []),
    ]);
    const seatIds = [...new Set([ticket.ref, ...tickets.map((other) => other.ref)].map(seatIdOfRef))].filter(
      (id): id is number => id !== null,
    );
    const seats = seatIds.length
      ? await db.selectFrom("seats").select(["id", "seat_type", "suits"]).where("id", "in", seatIds).execute()
      : [];
    const seatFor = (ref: string) => seats.find((seat) => seat.id === seatIdOfRef(ref));
    const kinds = tickets.map((other) => seatFor(other.ref)?.seat_type);
    const own = seatFor(ticket.ref);
    return {
      place: own && isAccessPlace(own.seat_type) ? own.seat_type : null,
      booking: {
        wheelchairSpaces: kinds.filter((kind) => kind === "wheelchair").length,
        companionSeats: kinds.filter((kind) => kind === "companion").length,
        accessSeats: kinds.filter((kind) => kind === "access").length,
      },
      services: servicesForSeat(ticket.access_services, own?.suits),
      registered: (ticket.customer_id && registrations.get(ticket.customer_id)) || null,
    };
  }

  return {
    async checkIn(request: CheckInRequest): Promise<CheckInOutcome> {
      const code = ticketCodeOf(request.code);
      if (!code) return { outcome: "unknown" };
      const ticket = await ticketByCode(code);
      if (!ticket || ticket.performance_id === null) return { outcome: "unknown" };
      if (isVoid(ticket)) return voided(ticket, ticket.voided_at);
      if (ticket.performance_id !== request.performanceId)
        return {
          outcome: "otherPerformance",
          label: ticket.label,
          performance: {
            id: ticket.performance_id,
            title: ticket.title ?? "",
            startsAt: ticket.starts_at ?? "",
            timeZone: ticket.time_zone ?? "UTC",
            venue: ticket.venue ?? "",
          },
        };
      if (ticket.checked_in_at !== null && ticket.door !== null)
        return {
          outcome: "alreadyUsed",
          label: ticket.label,
          name: ticket.customer_name,
          checkedInAt: ticket.checked_in_at,
          door: ticket.door,
        };

      const now = clock.now().toISOString();
      const text = (value: string) => sql<string>`cast(${value} as text)`;
      // The key decides: of two inserts for one ticket, one writes its row and the other does
      // nothing, whichever reads came first. The ticket's refund is checked again in the same
      // statement, so a refund settled since the read above is not admitted past.
      const [inserted, access] = await Promise.all([
        db
          .insertInto("ticket_check_ins")
          .columns(["ticket_id", "performance_id", "order_id", "checked_in_at", "door", "staff_id"])
          .expression(
            db
              .selectFrom("order_tickets")
              .select([
                text(ticket.id).as("ticket_id"),
                text(ticket.performance_id).as("performance_id"),
                text(ticket.order_id).as("order_id"),
                text(now).as("checked_in_at"),
                text(request.door.trim()).as("door"),
                text(request.staffId).as("staff_id"),
              ])
              .where("id", "=", ticket.id)
              .where("voided_at", "is", null)
              .where("refund_id", "is", null),
          )
          .onConflict((oc) => oc.column("ticket_id").doNothing())
          .returning("ticket_id")
          .executeTakeFirst(),
        accessNeeds(ticket),
      ]);
      if (inserted)
        return {
          outcome: "admitted",
          label: ticket.label,
          name: ticket.customer_name,
          orderNumber: ticket.number,
          access,
        };

      // Another door's insert won (or a refund took the ticket between the read and the insert):
      // say who won, from its row.
      const [winner, current] = await Promise.all([
        db
          .selectFrom("ticket_check_ins")
          .select(["checked_in_at", "door"])
          .where("ticket_id", "=", ticket.id)
          .executeTakeFirst(),
        db
          .selectFrom("order_tickets")
          .select(["voided_at", "refund_id"])
          .where("id", "=", ticket.id)
          .executeTakeFirstOrThrow(),
      ]);
      if (winner)
        return {
          outcome: "alreadyUsed",
          label: ticket.label,
          name: ticket.customer_name,
          checkedInAt: winner.checked_in_at,
          door: winner.door,
        };
      return voided(ticket, current.voided_at);
    },

    /**
     * The door's running count: tickets admitted to the performance, and tickets expected (those
     * of its paid orders that still admit someone: not refunded, nor being refunded).
     */
    async counts(performanceId: string): Promise<{ admitted: number; expected: number }> {
      const [admitted, expected] = await Promise.all([
        db
          .selectFrom("ticket_check_ins")
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .where("performance_id", "=", performanceId)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom("order_tickets")
          .innerJoin("orders", "orders.id", "order_tickets.order_id")
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .where("orders.performance_id", "=", performanceId)
          .where("orders.status", "=", "paid")
          .where((eb) => eb.or([eb("orders.refund_status", "is", null), eb("orders.refund_status", "!=", "refunded")]))
          .where("order_tickets.voided_at", "is", null)
          .where("order_tickets.refund_id", "is", null)
          .executeTakeFirstOrThrow(),
      ]);
      return { admitted: Number(admitted.count), expected: Number(expected.count) };
    },
  };
}

export type CheckIn = ReturnType<typeof createCheckIn>;
