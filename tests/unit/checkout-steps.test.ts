import { describe, expect, it } from "vitest";
import type { PaymentState } from "~/payments/payment-state";
import { checkoutPath } from "~/urls/paths";
import { CHECKOUT_STEPS } from "~/urls/route-table.js";
import {
  CHECKOUT_PAGES,
  FIRST_STEP,
  HOLD_REVIEW,
  LAST_STEP,
  WAITING_PAGE,
  deliveryKind,
  needsAddress,
  nextStep,
  pageForOrder,
  pageForPayment,
  stepToShow,
  stepsFor,
  type CheckoutFacts,
} from "~/ticketing/checkout-steps";
import type { Reservation } from "~/ticketing/reservation-view.server";
import type { ContactDetails } from "~/views/contact-details";

// The checkout's state machine, as the domain keeps it: which steps a basket goes through, where a
// buyer asking for a step is sent, where an answer leads, and the page for each payment state.

const E_TICKET = { id: "e", kind: "eTicket" as const, fee: 0, countries: ["GB"] };
const POST = { id: "p", kind: "post" as const, fee: 150, countries: ["GB"] };
const CONTACTS: ContactDetails = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  phone: "+447700900000",
  address: null,
  answers: {},
  contactConsent: false,
};
const ADDRESS = {
  line1: "1 High Street",
  line2: "",
  city: "London",
  postcode: "N1 1AA",
  state: null,
  country: "GB" as const,
};

/** A ticket basket at a venue with everything to ask: extras, protection, delivery and a question. */
function facts(overrides: Partial<CheckoutFacts> = {}, answers: Partial<CheckoutFacts["answers"]> = {}): CheckoutFacts {
  return {
    // The rules ask only whether there is one.
    reservation: {} as Reservation,
    venue: { protectionFee: 250 },
    extras: [{ id: "x", name: "Programme", description: "", price: 500 }],
    deliveryMethods: [E_TICKET, POST],
    questions: [{ id: "q1" }],
    benefits: { protectionIncluded: false },
    ...overrides,
    answers: { extrasDone: false, protection: null, deliveryMethodId: null, contacts: null, ...answers },
  };
}

const allAnswered = {
  extrasDone: true,
  protection: false,
  deliveryMethodId: "e",
  contacts: { ...CONTACTS, answers: { q1: "Yes" } },
};

/** A membership on its own: no seats, so no venue's extras, protection or delivery. */
const membershipOnly = facts({ reservation: null, venue: null, extras: [], deliveryMethods: [], questions: [] });

describe("the pages of the checkout", () => {
  it("are the pages the route table gives addresses, in the same order", () => {
    expect(CHECKOUT_PAGES).toEqual(CHECKOUT_STEPS);
  });

  it("each has its address under /checkout/", () => {
    expect(CHECKOUT_PAGES.map(checkoutPath)).toEqual([
      "/checkout/reservations",
      "/checkout/extras",
      "/checkout/ticket-protection",
      "/checkout/collection",
      "/checkout/contacts",
      "/checkout/payment",
      "/checkout/verify",
      "/checkout/confirmation",
      "/checkout/failed",
    ]);
    expect(checkoutPath("hold")).toBe("/checkout/hold");
  });

  it("start with the hold review and the first step, end with the payment step", () => {
    expect(HOLD_REVIEW).toBe("reservations");
    expect(FIRST_STEP).toBe("extras");
    expect(LAST_STEP).toBe("payment");
    expect(WAITING_PAGE).toBe("verify");
  });
});

describe("which steps apply, and which are done", () => {
  it("a ticket basket at a venue asking everything goes through every step, none done yet", () => {
    expect(stepsFor(facts())).toEqual([
      { name: "extras", done: false },
      { name: "ticket-protection", done: false },
      { name: "collection", done: false },
      { name: "contacts", done: false },
      { name: "payment", done: false },
    ]);
  });

  it("only the review and the pages after Pay are never steps", () => {
    const names = stepsFor(facts()).map((step) => step.name);
    for (const page of ["reservations", "verify", "failed", "confirmation"]) expect(names).not.toContain(page);
  });

  it("every step but payment is done once answered", () => {
    expect(stepsFor(facts({}, allAnswered))).toEqual([
      { name: "extras", done: true },
      { name: "ticket-protection", done: true },
      { name: "collection", done: true },
      { name: "contacts", done: true },
      { name: "payment", done: false },
    ]);
  });

  it("protection declined is an answer; not yet answered is not", () => {
    const step = (protection: boolean | null) =>
      stepsFor(facts({}, { protection })).find((candidate) => candidate.name === "ticket-protection");
    expect(step(false)?.done).toBe(true);
    expect(step(true)?.done).toBe(true);
    expect(step(null)?.done).toBe(false);
  });

  it("no extras, no protection fee, no delivery methods: those steps are skipped", () => {
    const plain = facts({ extras: [], venue: { protectionFee: 0 }, deliveryMethods: [] });
    expect(stepsFor(plain).map((step) => step.name)).toEqual(["contacts", "payment"]);
  });

  it("a member has protection included, so is not asked", () => {
    const member = facts({ benefits: { protectionIncluded: true } });
    expect(stepsFor(member).map((step) => step.name)).not.toContain("ticket-protection");
  });

  it("a membership on its own goes straight to contacts and payment", () => {
    expect(stepsFor(membershipOnly).map((step) => step.name)).toEqual(["contacts", "payment"]);
  });

  it("a delivery method the venue does not offer is no answer", () => {
    const collection = stepsFor(facts({}, { deliveryMethodId: "gone" })).find((step) => step.name === "collection");
    expect(collection?.done).toBe(false);
  });

  it("contacts are done only with every question answered", () => {
    const contacts = (answers: Record<string, string>) =>
      stepsFor(facts({}, { ...allAnswered, contacts: { ...CONTACTS, answers } })).find(
        (step) => step.name === "contacts",
      );
    expect(contacts({})?.done).toBe(false);
    expect(contacts({ q1: "" })?.done).toBe(false);
    expect(contacts({ q1: "Yes" })?.done).toBe(true);
  });

  it("contacts are done by post only with an address", () => {
    const byPost = (address: ContactDetails["address"]) =>
      stepsFor(
        facts(
          {},
          { ...allAnswered, deliveryMethodId: "p", contacts: { ...CONTACTS, address, answers: { q1: "Yes" } } },
        ),
      ).find((step) => step.name === "contacts");
    expect(byPost(null)?.done).toBe(false);
    expect(byPost(ADDRESS)?.done).toBe(true);
  });
});

describe("delivery", () => {
  it("post needs an address; e-tickets and no choice yet do not", () => {
    expect(deliveryKind(facts({}, { deliveryMethodId: "p" }))).toBe("post");
    expect(needsAddress(facts({}, { deliveryMethodId: "p" }))).toBe(true);
    expect(deliveryKind(facts({}, { deliveryMethodId: "e" }))).toBe("eTicket");
    expect(needsAddress(facts({}, { deliveryMethodId: "e" }))).toBe(false);
    expect(deliveryKind(facts())).toBeNull();
    expect(needsAddress(facts())).toBe(false);
  });
});

describe("the step a buyer asking for one is shown", () => {
  it("the first step not yet done, whichever later step was asked for", () => {
    expect(stepToShow(facts(), "payment")).toBe("extras");
    expect(stepToShow(facts(), "contacts")).toBe("extras");
    expect(stepToShow(facts({}, { extrasDone: true }), "payment")).toBe("ticket-protection");
    expect(stepToShow(facts({}, { extrasDone: true, protection: true }), "payment")).toBe("collection");
    expect(stepToShow(facts({}, { ...allAnswered, contacts: null }), "payment")).toBe("contacts");
  });

  it("the step asked for, when every step before it is done", () => {
    expect(stepToShow(facts(), "extras")).toBe("extras");
    expect(stepToShow(facts({}, { extrasDone: true }), "ticket-protection")).toBe("ticket-protection");
    expect(stepToShow(facts({}, allAnswered), "payment")).toBe("payment");
  });

  it("a step already done may be shown again, to change the answer", () => {
    expect(stepToShow(facts({}, allAnswered), "extras")).toBe("extras");
    expect(stepToShow(facts({}, allAnswered), "collection")).toBe("collection");
  });

  it("a step that does not apply sends the buyer on to the next that does", () => {
    expect(stepToShow(membershipOnly, "extras")).toBe("contacts");
    expect(
      stepToShow(facts({ benefits: { protectionIncluded: true } }, { extrasDone: true }), "ticket-protection"),
    ).toBe("collection");
  });

  it("a membership on its own asking for payment is sent to contacts first", () => {
    expect(stepToShow(membershipOnly, "payment")).toBe("contacts");
    expect(stepToShow(facts({ ...membershipOnly }, { contacts: CONTACTS }), "payment")).toBe("payment");
  });
});

describe("the step an answer leads to", () => {
  // Nothing answered yet: the next step's own guard sends the buyer back, not this.
  it("the next step, in order", () => {
    expect(nextStep(facts(), "extras")).toBe("ticket-protection");
    expect(nextStep(facts(), "ticket-protection")).toBe("collection");
    expect(nextStep(facts(), "collection")).toBe("contacts");
    expect(nextStep(facts(), "contacts")).toBe("payment");
  });

  it("skips the steps that do not apply", () => {
    const member = facts({ benefits: { protectionIncluded: true } });
    expect(nextStep(member, "extras")).toBe("collection");
    expect(nextStep(facts({ venue: { protectionFee: 0 }, deliveryMethods: [] }), "extras")).toBe("contacts");
  });

  it("the payment step after the last, and after itself", () => {
    expect(nextStep(membershipOnly, "contacts")).toBe("payment");
    expect(nextStep(facts(), "payment")).toBe("payment");
  });
});

describe("the page for each state of the payment", () => {
  const card = "card" as const;
  it.each<[PaymentState, string]>([
    [{ kind: "none" }, "payment"],
    [{ kind: "processing", startedAt: "2026-11-24T12:00:00.000Z", method: card }, "verify"],
    [
      {
        kind: "action",
        action: { kind: "challenge", url: "/sandbox/challenge", method: "POST", fields: {} },
        method: card,
      },
      "verify",
    ],
    [{ kind: "timedOut", method: card }, "verify"],
    [{ kind: "paid" }, "confirmation"],
    [{ kind: "failed", failure: "declined", method: card }, "failed"],
    [{ kind: "failed", failure: "timeout", method: card }, "failed"],
    [{ kind: "failed", failure: "holdExpired", method: card }, "failed"],
    [{ kind: "failed", failure: "cancelled", method: "paypal" }, "payment"],
  ])("%o → %s", (state, page) => {
    expect(pageForPayment(state)).toBe(page);
  });

  it("a paid order shows its confirmation, whatever step was asked for; any other, the steps decide", () => {
    expect(pageForOrder({ status: "paid" })).toBe("confirmation");
    expect(pageForOrder({ status: "pending_payment" })).toBeNull();
    expect(pageForOrder({ status: "failed" })).toBeNull();
    expect(pageForOrder(undefined)).toBeNull();
  });
});
