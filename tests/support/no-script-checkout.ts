import { expect } from "vitest";
import type { Store } from "~/db/connection.server";
import { smallCatalogueFacts } from "./checkout-journey";
import type { HtmlDriver } from "./html-driver";

// The checkout's later steps as a buyer without script answers them on the small catalogue, using
// only what each page shows (tests/journeys): for journeys about what comes at and after Pay.

const pathOf = (buyer: HtmlDriver) => new URL(buyer.url).pathname;

/** From ticket protection to the payment page: no protection, e-tickets, Jo Bloggs's details. */
export async function answerStepsToPayment(buyer: HtmlDriver) {
  expect(pathOf(buyer)).toBe("/checkout/ticket-protection");
  buyer.choose("No, I accept that my tickets are non-refundable");
  await buyer.press("Continue");
  expect(pathOf(buyer)).toBe("/checkout/collection");
  buyer.choose(/^E-ticket/);
  await buyer.press("Continue");
  expect(pathOf(buyer)).toBe("/checkout/contacts");
  buyer
    .fill("First name", "Jo")
    .fill("Last name", "Bloggs")
    .fill("Email address", "jo@example.com")
    .fill("Confirm email address", "jo@example.com")
    .fill("Phone number", "020 7946 0000")
    .check("I accept the Terms and Conditions");
  await buyer.press("Continue");
  expect(pathOf(buyer)).toBe("/checkout/payment");
}

/** Holds one stalls seat of the small catalogue and answers every step before Pay, using only what each page shows. */
export async function holdOneSeatToPayment(store: Store, buyer: HtmlDriver, row: "A" | "B", seat: number) {
  const { performanceId } = await smallCatalogueFacts(store);
  await buyer.open(`/shows/test-show/test-hall/tickets/${performanceId}`);
  buyer.check(new RegExp(`^Stalls, row ${row}, seat ${seat},`));
  await buyer.press("Reserve selected seats");
  await buyer.press("Continue");
  if (pathOf(buyer) === "/checkout/extras") await buyer.press("Continue");
  await answerStepsToPayment(buyer);
}

/**
 * Types a card on the payment page, with a name, an expiry date and a CVV that pass. `choose`:
 * ticks the card method first (a buyer who only types their card is not refused either).
 */
export function fillCard(buyer: HtmlDriver, number: string, { choose = true } = {}) {
  if (choose) buyer.choose("Credit or debit card");
  buyer
    .fill("Card number", number)
    .fill("Name on card", "Jo Bloggs")
    .fill("Expiry date", "12/30")
    .fill("Security code (CVV)", "123");
}

/** The confirmation page's order number. */
export function orderNumber(buyer: HtmlDriver) {
  const term = [...buyer.document.querySelectorAll("dt")].find((dt) => dt.textContent?.trim() === "Order number");
  return term?.nextElementSibling?.textContent?.trim() ?? "";
}
