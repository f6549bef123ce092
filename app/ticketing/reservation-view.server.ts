import { addMinutes } from "date-fns";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import { createCatalogueFacts, type CatalogueFacts } from "./catalogue-facts.server";
import { DEFAULT_HOLD_POLICY, type HoldPolicy } from "./inventory.server";
import { basketSnapshots, type BasketSnapshot } from "./basket-snapshot.server";
import { accessServicesOf, type AccessService } from "~/views/access-services";

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
  /** The access services the seat suits (a view of the caption screen…), whatever the performance. */
  suits: AccessService[];
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
  /** The performance's access services (captioned, audio-described…) and its notes about them. */
  access: { services: AccessService[]; notes: string | null };
  show: {
    titleSlug: string;
    name: string;
    venueSlug: string;
    venueName: string;
    /** The venue's own support number, for the buyer to phone (spec section 8). */
    venuePhone: string;
    timeZone: string;
    currency: string;
    /** The venue's: a signed performance is BSL in the UK, ASL in the US. */
    country: string;
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
  const snapshot = basketSnapshots(store);

  /** The reservation a basket's snapshot shows (see `current`). */
  async function reservationOf(basket: BasketSnapshot): Promise<Reservation | null> {
    const { hold } = basket;
    if (!hold) return null;
    const expired = hold.expires_at <= clock.now().toISOString();
    const seats = basket.seats
      .filter((seat) => seat.hold_id === hold.id)
      .sort((a, b) => a.section_order - b.section_order || a.row_order - b.row_order || a.position - b.position);
    const standing = basket.standing
      .filter((claim) => claim.hold_id === hold.id)
      .sort((a, b) => a.section_order - b.section_order);
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
      basketId: basket.basket.id,
      performanceId: hold.performance_id,
      startsAt: hold.starts_at,
      seatLimit: hold.seat_limit,
      notice: hold.notice,
      admissionMessage: hold.admission_message,
      access: { services: accessServicesOf(hold.access_services), notes: hold.access_notes },
      show: {
        titleSlug: hold.title_slug,
        name: hold.title_name,
        venueSlug: hold.venue_slug,
        venueName: hold.venue_name,
        venuePhone: hold.support_phone,
        timeZone: hold.time_zone,
        currency: hold.currency,
        country: hold.country,
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
        suits: accessServicesOf(seat.suits),
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
  }

  return {
    /**
     * The basket's latest hold with what it still holds, or null when there is nothing: no hold,
     * or a live hold whose seats were all given back. An expired hold is returned (with `expired`)
     * so the buyer can be told and offered to reselect.
     */
    async current(basketId: string): Promise<Reservation | null> {
      const found = await snapshot(basketId);
      return found ? reservationOf(found) : null;
    },

    reservationOf,
  };
}

export type Reservations = ReturnType<typeof createReservations>;

/**
 * For each access service the buyer asked best available to prefer (and the performance carries),
 * whether every seat held suits it: the offer's page says so either way (decision 0049).
 */
export function suitedAnswers(
  reservation: { access: Pick<Reservation["access"], "services">; seats: readonly Pick<ReservedSeat, "suits">[] },
  asked: readonly AccessService[],
): { service: AccessService; suited: boolean }[] {
  return [...new Set(asked)]
    .filter((service) => reservation.access.services.includes(service))
    .map((service) => ({
      service,
      suited: reservation.seats.length > 0 && reservation.seats.every((seat) => seat.suits.includes(service)),
    }));
}
