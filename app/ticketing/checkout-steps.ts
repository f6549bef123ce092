import type { PaymentState } from "~/payments/payment-state";
import type { BasketAnswers, MemberBenefits } from "./baskets.server";
import type { VenueOffer, VenueQuestion } from "./catalogue.server";
import type { Order } from "./orders.server";
import type { Reservation } from "./reservation-view.server";

// The checkout as a state machine (design.md section 5), and the one place that says which page
// a buyer belongs on. Before Pay, pretix's checkout flow: the steps are data, each with "applies?"
// and "done?", and a buyer asking for a step is sent to the first one not yet done. After Pay,
// GOV.UK Pay's state enforcer: one table gives each state of the payment its page, and a buyer on
// any other is sent there. The web layer reads the request and answers with redirects; routes
// name pages only through what this module returns.

/** What the rules read of a basket at checkout (the web layer's CheckoutState is this and more). */
export interface CheckoutFacts {
  /** The held seats and places; null when the basket carries only the membership. */
  reservation: Reservation | null;
  venue: Pick<VenueOffer["venue"], "protectionFee"> | null;
  extras: VenueOffer["extras"];
  deliveryMethods: VenueOffer["deliveryMethods"];
  questions: Pick<VenueQuestion, "id">[];
  answers: Pick<BasketAnswers, "extrasDone" | "protection" | "deliveryMethodId" | "contacts">;
  benefits: Pick<MemberBenefits, "protectionIncluded">;
}

export function deliveryKind(facts: CheckoutFacts) {
  return facts.deliveryMethods.find((method) => method.id === facts.answers.deliveryMethodId)?.kind ?? null;
}

/** Post (mail in the US) needs an address; e-tickets and collection do not. */
export function needsAddress(facts: CheckoutFacts): boolean {
  return deliveryKind(facts) === "post";
}

function contactsComplete(facts: CheckoutFacts): boolean {
  const contacts = facts.answers.contacts;
  if (!contacts) return false;
  if (needsAddress(facts) && !contacts.address) return false;
  return facts.questions.every((question) => Boolean(contacts.answers[question.id]));
}

interface Page {
  name: string;
  /**
   * How a buyer comes to the page. "review": best available's seats, already held, to accept
   * before the steps (the search sends the buyer there, not the guard). "step": a question the
   * buyer answers, in order, guarded by `applies` and `done`. "payment": a page after Pay, which
   * the payment's state decides (pageForPayment).
   */
  part: "review" | "step" | "payment";
  applies(facts: CheckoutFacts): boolean;
  done(facts: CheckoutFacts): boolean;
}

// Pages outside the steps are never sent to by the guard, so they neither apply nor get done.
const outsideSteps = { applies: () => false, done: () => false };

/** Every page of the checkout, in the order a buyer meets them: the one list. */
const PAGES = [
  { name: "reservations", part: "review", ...outsideSteps },
  {
    name: "extras",
    part: "step",
    applies: (facts) => facts.extras.length > 0,
    done: (facts) => facts.answers.extrasDone,
  },
  {
    name: "ticket-protection",
    part: "step",
    // A member has it included: there is nothing to ask (the summary says so).
    applies: (facts) =>
      facts.reservation !== null && (facts.venue?.protectionFee ?? 0) > 0 && !facts.benefits.protectionIncluded,
    done: (facts) => facts.answers.protection !== null,
  },
  {
    name: "collection",
    part: "step",
    applies: (facts) => facts.deliveryMethods.length > 0,
    done: (facts) => facts.deliveryMethods.some((method) => method.id === facts.answers.deliveryMethodId),
  },
  { name: "contacts", part: "step", applies: () => true, done: contactsComplete },
  // Done only by paying, and then the payment's state says where the buyer is.
  { name: "payment", part: "step", applies: () => true, done: () => false },
  { name: "verify", part: "payment", ...outsideSteps },
  { name: "confirmation", part: "payment", ...outsideSteps },
  { name: "failed", part: "payment", ...outsideSteps },
] as const satisfies readonly Page[];

type AnyPage = (typeof PAGES)[number];
type StepPage = Extract<AnyPage, { part: "step" }>;

/** A page of the checkout, by name. */
export type CheckoutPage = AnyPage["name"];

/** A step the guard sends buyers through, by name. */
export type StepName = StepPage["name"];

/** The pages after Pay, each the one place a buyer belongs for a state of their order's payment. */
export type PaymentPage = "payment" | Extract<AnyPage, { part: "payment" }>["name"];

/** Every page's name, in order (for the route table to give each an address). */
export const CHECKOUT_PAGES: readonly CheckoutPage[] = PAGES.map((page) => page.name);

const STEPS: readonly StepPage[] = PAGES.filter((page): page is StepPage => page.part === "step");

/** Where best available's seats go to be accepted, and a buyer without a hold is shown so. */
export const HOLD_REVIEW: CheckoutPage = "reservations";

/**
 * Where a buyer goes from the tickets page or the hold review: the first step, whose guard sends
 * them on to the first one that applies and is not done.
 */
export const FIRST_STEP: StepName = "extras";

/**
 * Where a buyer goes who wants to pay (having just put a membership in the basket, say): the last
 * step, whose guard sends them back to the first one not done.
 */
export const LAST_STEP: StepName = "payment";

/**
 * Where a buyer waits while the gateway has not answered, and where it sends them back to (the
 * page reads what it returns).
 */
export const WAITING_PAGE = "verify" satisfies PaymentPage;

/** The steps this basket goes through, for the progress list. */
export function stepsFor(facts: CheckoutFacts): { name: StepName; done: boolean }[] {
  return STEPS.filter((step) => step.applies(facts)).map((step) => ({ name: step.name, done: step.done(facts) }));
}

/**
 * Where a buyer asking for `wanted` should be: there, if every step before it is done and it
 * applies; otherwise the first step before it not yet done, or the next step that applies.
 */
export function stepToShow(facts: CheckoutFacts, wanted: StepName): StepName {
  const index = STEPS.findIndex((step) => step.name === wanted);
  for (const step of STEPS.slice(0, index)) {
    if (step.applies(facts) && !step.done(facts)) return step.name;
  }
  const next = STEPS.slice(index).find((step) => step.applies(facts));
  return next?.name ?? LAST_STEP;
}

/** The step after this one that applies to the basket (where a step's answer sends the buyer on). */
export function nextStep(facts: CheckoutFacts, after: StepName): StepName {
  const index = STEPS.findIndex((step) => step.name === after);
  const next = STEPS.slice(index + 1).find((step) => step.applies(facts));
  return next?.name ?? LAST_STEP;
}

/**
 * The state enforcer's table (GOV.UK Pay's): the one page a buyer may be on for each state of
 * their payment. Nothing tried yet, or cancelled at PayPal or the bank (the buyer chose to): the
 * payment page. Paid: the confirmation. Failed: the failed page. A step at the gateway, still
 * waiting, or too long without an answer: the verify page.
 */
export function pageForPayment(state: PaymentState): PaymentPage {
  switch (state.kind) {
    case "none":
      return "payment";
    case "paid":
      return "confirmation";
    case "failed":
      return state.failure === "cancelled" ? "payment" : "failed";
    case "processing":
    case "action":
    case "timedOut":
      return WAITING_PAGE;
  }
}

/**
 * The page an order sends its buyer to whatever step they ask for: a paid order's is the
 * confirmation (its seats are sold, so no step applies any more). Null while the steps decide.
 */
export function pageForOrder(order: Pick<Order, "status"> | undefined): PaymentPage | null {
  return order?.status === "paid" ? pageForPayment({ kind: "paid" }) : null;
}
