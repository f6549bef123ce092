import type { AppLoadContext } from "@remix-run/node";
import { NO_BENEFITS, type BasketPrice, type MemberBenefits } from "~/ticketing/baskets.server";
import { allInTicketPrice, mayChoosePriceOption, ticketsAmount, ticketsWithFee } from "~/ticketing/pricing";
import type { Reservation } from "~/ticketing/reservation-view.server";
import type { ClientEvent } from "~/views/events";
import { track } from "~/use-cases/tracker.server";
import type { FieldErrors, TicketLine, TicketsView } from "~/views/ticket-choices";

// The buyer's tickets between choosing seats and the checkout: one line per seat or standing
// area with its price option (Full Price unless the buyer picks a concession or child price), the
// engine's prices, and the acknowledgements a performance asks for before continuing.

const MARKED_TYPES = new Set(["wheelchair", "companion", "access", "package", "promotional"]);

export function ticketsView(
  reservation: Reservation,
  price: BasketPrice | undefined,
  benefits: MemberBenefits = NO_BENEFITS,
): TicketsView {
  const lineOf = new Map(
    (price?.priced.lines ?? []).flatMap((line) => (line.kind === "ticket" ? [[line.ref, line] as const] : [])),
  );
  const amountOf = (ref: string) => (price ? ticketsAmount(price.priced, ref) : 0);
  const optionsOf = (bandId: string) =>
    reservation.priceOptions
      .filter((option) => option.priceBandId === bandId && mayChoosePriceOption(option.kind, benefits))
      .map((option) => ({
        id: option.id,
        label: option.label,
        kind: option.kind,
        amount: allInTicketPrice(option),
      }));
  const seats: TicketLine[] = reservation.seats.map((seat) => {
    const ref = `seat:${reservation.performanceId}:${seat.seatId}`;
    const priced = lineOf.get(ref);
    return {
      field: `price-seat-${seat.seatId}`,
      section: seat.section,
      row: seat.row,
      seat: seat.label,
      quantity: 1,
      marks: [
        ...(MARKED_TYPES.has(seat.seatType) ? [seat.seatType] : []),
        ...seat.restrictions.filter((key) => key === "amex"),
      ],
      viewNote: seat.viewNote,
      priceOptionId: priced?.priceOptionId ?? seat.priceOptionId ?? "",
      options: optionsOf(seat.priceBandId),
      amount: amountOf(ref),
    };
  });
  const standing: TicketLine[] = reservation.standing.map((claim) => {
    const priced = lineOf.get(`standing:${claim.claimId}:0`);
    return {
      field: `price-standing-${claim.claimId}`,
      section: claim.section,
      row: null,
      seat: null,
      quantity: claim.quantity,
      marks: [],
      viewNote: null,
      priceOptionId: priced?.priceOptionId ?? claim.priceOptionId ?? "",
      options: optionsOf(claim.priceBandId),
      amount: amountOf(`standing:${claim.claimId}`),
    };
  });
  const lines = [...seats, ...standing];
  const fee = price?.priced.lines.find((line) => line.kind === "transactionFee");
  const transactionFee = fee ? { amount: fee.amount, waived: fee.waived } : null;
  return {
    currency: reservation.show.currency,
    lines,
    transactionFee,
    total: price ? ticketsWithFee(price.priced) : 0,
    notice: reservation.notice,
    admissionMessage: reservation.admissionMessage,
  };
}

/**
 * Saves each ticket's price option from the form and checks the performance notice and admission
 * message were acknowledged. Returns field errors (nothing is lost: saved choices stay saved).
 */
export async function saveTicketChoices(
  context: AppLoadContext,
  reservation: Reservation,
  form: FormData,
  benefits: MemberBenefits = NO_BENEFITS,
): Promise<{ errors: FieldErrors; events: ClientEvent[] }> {
  const errors: FieldErrors = {};
  const events: ClientEvent[] = [];
  const performanceId = reservation.performanceId;
  const tickets = [
    ...reservation.seats.map((seat) => ({
      field: `price-seat-${seat.seatId}`,
      ref: { seatId: seat.seatId } as const,
      current: seat.priceOptionId,
    })),
    ...reservation.standing.map((claim) => ({
      field: `price-standing-${claim.claimId}`,
      ref: { standingClaimId: claim.claimId } as const,
      current: claim.priceOptionId,
    })),
  ];
  for (const ticket of tickets) {
    const chosen = form.get(ticket.field);
    if (typeof chosen !== "string" || !chosen || chosen === ticket.current) continue;
    events.push(track(context, "updateTicketPrice.request", { performanceId }));
    const result = await context.baskets.choosePriceOption(reservation.basketId, ticket.ref, chosen, benefits);
    if (result.ok) {
      events.push(track(context, "updateTicketPrice.success", { performanceId }));
    } else {
      events.push(track(context, "updateTicketPrice.failure", { performanceId, reason: result.reason }));
      errors[ticket.field] = { key: "tickets.priceOptionInvalid" };
    }
  }
  if (reservation.notice) {
    if (form.get("ackNotice") === "yes")
      events.push(track(context, "performanceNoticeAcknowledged", { performanceId }));
    else errors.ackNotice = { key: "tickets.noticeRequired" };
  }
  if (reservation.admissionMessage) {
    if (form.get("ackAdmission") === "yes")
      events.push(track(context, "admissionMessageAcknowledged", { performanceId }));
    else errors.ackAdmission = { key: "tickets.admissionRequired" };
  }
  return { errors, events };
}
