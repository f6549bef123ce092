import { expect } from "vitest";
import type { Store } from "~/db/connection.server";
import type { buyerBrowser } from "./browser";

// The steps before Pay, as a browser without script takes them on the small catalogue
// (tests/support/catalogue.ts): for tests about what happens at and after Pay.

type Buyer = ReturnType<typeof buyerBrowser>;

export const CONTACTS = {
  firstName: "Jo",
  lastName: "Bloggs",
  email: "jo@example.com",
  confirmEmail: "jo@example.com",
  phone: "020 7946 0000",
  termsAccepted: "on",
};

/** The small catalogue's first performance on general sale, and its seats by name ("B5"). */
export async function smallCatalogueFacts(store: Store) {
  const { db } = store;
  const performance = await db
    .selectFrom("performances")
    .select("id")
    .where("presale_from", "is", null)
    .orderBy("starts_at")
    .executeTakeFirstOrThrow();
  const rows = await db.selectFrom("seats").select(["id", "row_name", "label"]).execute();
  const seats = new Map(rows.map((row) => [`${row.row_name}${row.label}`, row.id]));
  return { performanceId: performance.id, seat: (name: string) => seats.get(name)! };
}

/**
 * Holds the named seats and answers every step before payment (no extras, no protection,
 * e-tickets, the contact details), ending on the payment page.
 */
export async function throughToPayment(buyer: Buyer, store: Store, seatNames: string[], email = CONTACTS.email) {
  const { performanceId, seat } = await smallCatalogueFacts(store);
  const { db } = store;
  const tickets = `/shows/test-show/test-hall/tickets/${performanceId}`;
  const held = await buyer.post(tickets, [
    ["intent", "select"],
    ...seatNames.map((name) => ["seat", String(seat(name))]),
  ] as [string, string][]);
  expect(held.status).toBe(302);
  expect((await buyer.post(tickets, { intent: "continue" })).headers.get("Location")).toBe("/checkout/extras");
  expect((await buyer.post("/checkout/extras", {})).headers.get("Location")).toBe("/checkout/ticket-protection");
  expect((await buyer.post("/checkout/ticket-protection", { protection: "no" })).headers.get("Location")).toBe(
    "/checkout/collection",
  );
  const eTicket = await db
    .selectFrom("delivery_methods")
    .select("id")
    .where("kind", "=", "eTicket")
    .executeTakeFirstOrThrow();
  expect((await buyer.post("/checkout/collection", { deliveryMethod: eTicket.id })).headers.get("Location")).toBe(
    "/checkout/contacts",
  );
  const contacts = await buyer.post("/checkout/contacts", { ...CONTACTS, email, confirmEmail: email });
  expect(contacts.headers.get("Location")).toBe("/checkout/payment");
}
