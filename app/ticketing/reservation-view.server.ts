import { addMinutes } from "date-fns";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import { createCatalogueFacts, type CatalogueFacts } from "./catalogue-facts.server";
import { DEFAULT_HOLD_POLICY, type HoldPolicy } from "./inventory.server";
import { heldSeats, heldStanding } from "./held-places.server";

// What a basket has reserved, as the pages show it: the performance, each held seat and standing
// place with the price options the buyer may choose between, and the hold's clock. The engine's
// rules live in inventory.server.ts; this only reads.

export interface ReservedSeat {
  seatId: number;
  section: string;
  row: string;
  label: string;
  seatType: string;
  restrictions: string[];
  viewNote: string | null;
  priceBandId: string;
  priceOptionId: string | null;
}

export interface ReservedStanding {
  claimId: string;
  sectionId: string;
  section: string;
  quantity: number;
  priceBandId: string;
  priceOptionId: string | null;
}

export interface PriceOptionSummary {
  id: string;
  priceBandId: string;
  kind: string;
  label: string;
  faceValue: number;
  bookingFee: number;
}

export interface Reservation {
  holdId: string;
  basketId: string;
  performanceId: string;
  startsAt: string;
  seatLimit: number;
  notice: string | null;
  admissionMessage: string | null;
  show: {
    titleSlug: string;
    name: string;
    venueSlug: string;
    venueName: string;
    /** The venue's own support number, for the buyer to phone (spec section 8). */
    venuePhone: string;
    timeZone: string;
    currency: string;
  };
  createdAt: string;
  expiresAt: string;
  /** The hold ran out: its seats may already be someone else's. */
  expired: boolean;
  /** Whether asking for more time would give any. */
  canExtend: boolean;
  seats: ReservedSeat[];
  standing: ReservedStanding[];
  priceOptions: PriceOptionSummary[];
}

export function createReservations(
  store: Store,
  clock: Clock,
  policy: HoldPolicy = DEFAULT_HOLD_POLICY,
  facts: CatalogueFacts = createCatalogueFacts(store, clock),
) {
  const { db } = store;
  return {
    /** A performance of a run, with what the tickets page needs to sell it, or undefined. */
    async performance(runId: string, performanceId: string) {
      return db
        .selectFrom("performances")
        .select([
          "id",
          "starts_at",
          "seat_limit",
          "status",
          "on_sale_from",
          "on_sale_until",
          "presale_from",
          "presale_until",
          "presale_audience",
          "notice",
          "admission_message",
          "timed_entry",
        ])
        .where("run_id", "=", runId)
        .where("id", "=", performanceId.toUpperCase())
        .executeTakeFirst();
    },

    /**
     * The basket's latest hold with what it still holds, or null when there is nothing: no hold,
     * or a live hold whose seats were all given back. An expired hold is returned (with `expired`)
     * so the buyer can be told and offered to reselect.
     */
    async current(basketId: string): Promise<Reservation | null> {
      const hold = await db
        .selectFrom("holds")
        .innerJoin("performances", "performances.id", "holds.performance_id")
        .innerJoin("runs", "runs.id", "performances.run_id")
        .innerJoin("titles", "titles.id", "runs.title_id")
        .innerJoin("venues", "venues.id", "runs.venue_id")
        .select([
          "holds.id",
          "holds.created_at",
          "holds.expires_at",
          "holds.performance_id",
          "performances.starts_at",
          "performances.seat_limit",
          "performances.notice",
          "performances.admission_message",
          "performances.price_plan_id",
          "titles.slug as title_slug",
          "titles.name as title_name",
          "venues.slug as venue_slug",
          "venues.name as venue_name",
          "venues.support_phone",
          "venues.time_zone",
          "venues.currency",
        ])
        .where("holds.basket_id", "=", basketId)
        .orderBy("holds.created_at", "desc")
        .executeTakeFirst();
      if (!hold) return null;
      const now = clock.now().toISOString();
      const expired = hold.expires_at <= now;
      const [seats, standing] = await Promise.all([
        heldSeats(db, { holdId: hold.id })
          .innerJoin("seats", "seats.id", "seat_claims.seat_id")
          .innerJoin("sections", "sections.id", "seats.section_id")
          .select([
            "sections.name as section",
            "seats.row_name",
            "seats.label",
            "seats.seat_type",
            "seats.restrictions",
            "seats.view_note",
          ])
          .orderBy("sections.sort_order")
          .orderBy("seats.row_order")
          .orderBy("seats.position")
          .execute(),
        heldStanding(db, { holdId: hold.id })
          .innerJoin("sections", "sections.id", "standing_claims.section_id")
          .select("sections.name as section")
          .orderBy("sections.sort_order")
          .execute(),
      ]);
      if (!expired && seats.length === 0 && standing.length === 0) return null;
      const priceOptions = (
        await facts.priceOptionsOfBands([...seats, ...standing].map((ticket) => ticket.price_band_id))
      ).map((option) => ({
        id: option.id,
        priceBandId: option.price_band_id,
        kind: option.kind,
        label: option.label,
        faceValue: option.face_value,
        bookingFee: option.booking_fee,
      }));
      const ceiling = addMinutes(new Date(hold.created_at), policy.maxHoldMinutes).toISOString();
      return {
        holdId: hold.id,
        basketId,
        performanceId: hold.performance_id,
        startsAt: hold.starts_at,
        seatLimit: hold.seat_limit,
        notice: hold.notice,
        admissionMessage: hold.admission_message,
        show: {
          titleSlug: hold.title_slug,
          name: hold.title_name,
          venueSlug: hold.venue_slug,
          venueName: hold.venue_name,
          venuePhone: hold.support_phone,
          timeZone: hold.time_zone,
          currency: hold.currency,
        },
        createdAt: hold.created_at,
        expiresAt: hold.expires_at,
        expired,
        canExtend: !expired && hold.expires_at < ceiling,
        seats: seats.map((seat) => ({
          seatId: seat.seat_id,
          section: seat.section,
          row: seat.row_name,
          label: seat.label,
          seatType: seat.seat_type,
          restrictions: seat.restrictions.split(",").filter(Boolean),
          viewNote: seat.view_note,
          priceBandId: seat.price_band_id,
          priceOptionId: seat.price_option_id,
        })),
        standing: standing.map((claim) => ({
          claimId: claim.id,
          sectionId: claim.section_id,
          section: claim.section,
          quantity: claim.quantity,
          priceBandId: claim.price_band_id,
          priceOptionId: claim.price_option_id,
        })),
        priceOptions,
      };
    },
  };
}

export type Reservations = ReturnType<typeof createReservations>;
