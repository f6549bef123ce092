import { data, redirect, type AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import { parseWithZod } from "~/forms/schemas.server";
import {
  answersOf,
  type BasketAnswers,
  type BasketChange,
  type BasketPrice,
  type BasketSnapshot,
  type MemberBenefits,
} from "~/ticketing/baskets.server";
import type { VenueOffer, VenueQuestion } from "~/ticketing/catalogue.server";
import type { Order } from "~/ticketing/orders.server";
import type { Reservation } from "~/ticketing/reservation-view.server";
import { benefitsFor, readBasket, readBuyer, type Buyer } from "./buyer.server";
import { basketOrder, paidOrder, toConfirmation } from "./order-pages.server";
import type { StepFrame } from "~/views/checkout-step";
import type { ContactDetails } from "~/views/contact-details";
import {
  nextStep,
  pageForOrder,
  stepsFor,
  stepToShow,
  LAST_STEP,
  WAITING_PAGE,
  type CheckoutFacts,
  type StepName,
} from "~/ticketing/checkout-steps";
import { checkoutPath } from "~/urls/paths";

// The checkout's HTTP side: reading the basket for a request, and answering a step's loader or
// action with the page the domain's state machine (ticketing/checkout-steps.ts) says the buyer
// belongs on. Remix runs the layout's loader beside a step's, so the layout cannot guard for them:
// every step's loader and action calls the guard below.

export type { StepName, VenueQuestion };

export interface CheckoutState extends CheckoutFacts {
  buyer: Buyer;
  basketId: string;
  /** The basket as this request read it, once: everything below is derived from it. */
  basket: BasketSnapshot;
  /** The held seats and places; null when the basket carries only the membership. */
  reservation: Reservation | null;
  /** The venue of the reservation; null with it. */
  venue: Pick<VenueOffer["venue"], "id" | "slug" | "name" | "protectionFee"> | null;
  /** Where the basket is sold: the venue's country and currency, or the deployment's. */
  seller: Pick<VenueOffer["venue"], "country" | "currency">;
  extras: VenueOffer["extras"];
  deliveryMethods: VenueOffer["deliveryMethods"];
  questions: VenueQuestion[];
  answers: Omit<BasketAnswers, "membershipProductId" | "pricesSeen">;
  benefits: MemberBenefits;
  price: BasketPrice;
  /** The basket's order, once the buyer has pressed Pay. */
  order: Order | undefined;
}

/**
 * Everything a step needs, or null when the buyer has nothing (no seats, no membership) to check
 * out. The first checkout page the buyer sees sets what later prices are compared with; a step's
 * answer does so in its own write (`acknowledgeFirstPrices` false).
 */
export async function loadCheckout(
  request: Request,
  context: AppLoadContext,
  { acknowledgeFirstPrices = true } = {},
): Promise<CheckoutState | null> {
  const buyer = await readBuyer(request, context);
  if (!buyer.basketId) return null;
  const basketId = buyer.basketId;
  const basket = await readBasket(context, basketId);
  if (!basket) return null;
  const answers = answersOf(basket);
  const reservation = await context.reservations.reservationOf(basket);
  if (!reservation && !answers.membershipProductId) return null;
  const [offer, benefits] = await Promise.all([
    reservation ? context.catalogue.venueOffer(reservation.show.venueSlug) : undefined,
    benefitsFor(context, buyer),
  ]);
  let price = await context.baskets.priceOf(basket, benefits);
  if (!answers.pricesSeen) {
    if (acknowledgeFirstPrices) await context.baskets.acknowledgePrices(basketId, price.fingerprint);
    price = { ...price, changed: false };
  }
  return {
    buyer,
    basketId,
    basket,
    reservation,
    venue: offer
      ? { id: offer.venue.id, slug: offer.venue.slug, name: offer.venue.name, protectionFee: offer.venue.protectionFee }
      : null,
    seller: offer
      ? { country: offer.venue.country, currency: offer.venue.currency }
      : { country: context.config.market.country, currency: context.config.market.currency },
    extras: offer?.extras ?? [],
    deliveryMethods: offer?.deliveryMethods ?? [],
    questions: offer?.questions ?? [],
    answers: {
      extrasDone: answers.extrasDone,
      quantities: answers.quantities,
      protection: answers.protection,
      deliveryMethodId: answers.deliveryMethodId,
      contacts: answers.contacts,
    },
    benefits,
    price,
    order: basket.order ?? undefined,
  };
}

/** The page a buyer with nothing to check out sees on any step (the step's ErrorBoundary). */
export function emptyCheckout() {
  return data({ reason: "empty" as const }, { status: 404 });
}

/**
 * The guard every step's loader and action calls first: the checkout state, or a redirect to the
 * step the buyer should be on, or the empty-basket page.
 */
export async function guardStep(
  request: Request,
  context: AppLoadContext,
  step: StepName,
  options?: { acknowledgeFirstPrices?: boolean },
): Promise<CheckoutState> {
  const state = await loadCheckout(request, context, options);
  // A paid order is finished (its seats are sold, so there is no reservation): its page is the
  // confirmation. Pay reloaded, or gone Back to, after paying finds no basket (it was finished):
  // the order just paid is where the buyer is, not an empty basket inviting the same seats again.
  const order = state
    ? state.order
    : ((await basketOrder(request, context)) ?? (step === LAST_STEP ? await paidOrder(request, context) : undefined));
  if (order && pageForOrder(order) === "confirmation") throw await toConfirmation(context, order);
  if (!state) throw emptyCheckout();
  const target = stepToShow(state, step);
  if (target !== step) throw redirect(checkoutPath(target));
  return state;
}

/**
 * The contact details a signed-in customer's profile gives, to start the contact step from. The
 * saved address only where it can be posted to (the deployment's country).
 */
export async function profileContacts(context: AppLoadContext, state: CheckoutState): Promise<ContactDetails | null> {
  if (!state.buyer.customerId) return null;
  const profile = await context.customers.profile(state.buyer.customerId);
  if (!profile) return null;
  return {
    firstName: profile.firstName,
    lastName: profile.lastName,
    email: profile.email,
    phone: profile.phone ?? "",
    address: profile.address?.country === state.seller.country ? profile.address : null,
    answers: {},
    contactConsent: profile.contactConsent,
  };
}

/**
 * A signed-in customer's phone and delivery address, kept with their account where it has none
 * yet, so the next checkout starts with them. What the account already holds is changed only on
 * Manage details. Never a reason to fail the step.
 */
export async function rememberForNextTime(
  context: AppLoadContext,
  state: CheckoutState,
  contacts: ContactDetails,
): Promise<void> {
  if (!state.buyer.customerId) return;
  try {
    const profile = await context.customers.profile(state.buyer.customerId);
    if (!profile) return;
    const changes = {
      ...(!profile.phone && contacts.phone && { phone: contacts.phone }),
      ...(!profile.address && contacts.address && { address: contacts.address }),
    };
    if (Object.keys(changes).length) await context.customers.updateProfile(profile.customerId, changes);
  } catch (error) {
    context.logger.warn({ err: error }, "contact details not kept with the account");
  }
}

/**
 * Every step's action, the one way: guard the step, check the form with the step's schema (a
 * refusal answers 400 with what was typed), unlock an order waiting at Pay, save the answer in
 * one write that accepts the prices the buyer's own change leads to, and go on to the next step
 * that applies. `answer` says what the step changes in the basket (and does what else the step
 * does beside it).
 */
export async function answerStep<Schema extends z.ZodTypeAny>(
  request: Request,
  context: AppLoadContext,
  step: StepName,
  schemaFor: (state: CheckoutState) => Schema,
  answer: (state: CheckoutState, value: z.output<Schema>, headers: Headers) => Promise<BasketChange> | BasketChange,
) {
  // The answer's write records the prices as seen; a refused form leaves that to the page shown.
  const state = await guardStep(request, context, step, { acknowledgeFirstPrices: false });
  const submission = parseWithZod(await request.formData(), { schema: schemaFor(state) });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await unlockForChange(context, state.order);
  const headers = new Headers();
  const change = await answer(state, submission.value, headers);
  // A change the buyer had not yet acknowledged stays unacknowledged.
  await context.baskets.answer(state.basket, change, { benefits: state.benefits, acknowledge: !state.price.changed });
  return redirect(checkoutPath(nextStep(state, step)), { headers });
}

/** What tracked events name the basket by: its performance (a membership has none). */
export const trackedPerformance = (state: CheckoutState) => state.reservation?.performanceId ?? "";

/** What every step page shows around its own content: progress, summary, alerts. */
export async function stepFrame(context: AppLoadContext, state: CheckoutState): Promise<StepFrame> {
  return {
    steps: stepsFor(state),
    summary: await context.summaries.basket(state.reservation, state.price.priced),
    // Seats lost to an expired hold change the total, but that is the expiry's news, not a price change.
    priceChanged: state.price.changed && !state.reservation?.expired,
    holdExpired: state.reservation?.expired ?? false,
  };
}

/**
 * Before a step changes the basket: an order placed for it (the buyer pressed Pay and came back)
 * is given up, so it is placed again at the new prices. While the gateway is still answering,
 * nothing may change: the buyer goes to the page that waits for it.
 */
export async function unlockForChange(context: AppLoadContext, order: Order | undefined): Promise<void> {
  if (order?.status === "pending_payment" && !(await context.payments.abandon(order))) {
    throw redirect(checkoutPath(WAITING_PAGE));
  }
}

/**
 * After the buyer's own change (an extra, protection, delivery, a code or a voucher) the new
 * prices are the ones they have seen. A change they had not yet acknowledged stays unacknowledged.
 */
export async function acceptOwnChange(context: AppLoadContext, state: CheckoutState): Promise<void> {
  if (state.price.changed) return;
  const price = await context.baskets.price(state.basketId, state.benefits);
  if (price) await context.baskets.acknowledgePrices(state.basketId, price.fingerprint);
}

// The accepted cards' names are worked out in the payment and failed pages' loaders. Imported from
// here (a .server module) rather than from forms/checkout/card-types, the browser's build of those
// pages carries no chunk for them: the compiler keeps a route's plain imports even when only its
// loader used them (see docs/development.md, "Dependencies").
export { cardTypeNames } from "~/forms/checkout/card-types";
