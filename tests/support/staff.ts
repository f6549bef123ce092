import { randomUUID } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { expect } from "vitest";
import type { Clock } from "~/clock";
import type { StaffRole } from "~/ticketing/staff-roles";
import type { AppServices } from "~/web/context";
import type { Order } from "~/ticketing/orders.server";
import { buyerBrowser } from "./browser";
import { createEngine } from "./engine";

// The staff's side as route tests meet it (issue 55): members of staff added through the service
// (the command's own path is tests/routes/staff-command.test.ts), signed in over HTTP with their
// password and, where their role needs one, the code their authenticator shows; and paid e-ticket
// orders for them to find, refund and admit.

export const STAFF_PASSWORD = "a long staff password";

interface Served {
  url: (path: string) => string;
  services: AppServices;
}

/** The code an authenticator app shows for this secret at the clock's time. */
export function oneTimeCode(secret: string, clock: Clock): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp: clock.now().getTime(),
  });
}

export async function addStaff(services: AppServices, role: StaffRole) {
  const added = await services.staff.add({
    email: `${role}-${randomUUID()}@venue.example`,
    name: `Sam ${role}`,
    role,
    password: STAFF_PASSWORD,
  });
  if (!added.ok) throw new Error(added.reason);
  return added;
}

/** A member of staff with this role, signed in on a browser of their own. */
export async function signedInStaff(server: Served, role: StaffRole) {
  const added = await addStaff(server.services, role);
  const browser = buyerBrowser(server.url);
  const code = added.secondFactor ? oneTimeCode(added.secondFactor.secret, server.services.clock) : "";
  const answer = await browser.post("/staff/sign-in", {
    email: added.staff.email,
    password: STAFF_PASSWORD,
    code,
  });
  expect(answer.status).toBe(303);
  expect(answer.headers.get("Location")).toBe("/staff");
  return { browser, staff: added.staff };
}

const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvv: "123", holderName: "Jo Bloggs" };

/**
 * Seats of one row bought as e-tickets and paid by card through the sandbox, as a buyer's checkout
 * leaves them (the provider holds the payment, so a refund goes back through it).
 */
export async function paidETicketOrder(
  services: AppServices,
  performanceId: string,
  row: string,
  labels: string[],
  customer = { name: "Jo Bloggs", email: "jo@example.com" },
): Promise<Order> {
  const db = services.store.db;
  const seats = await db
    .selectFrom("seats")
    .select("id")
    .where("row_name", "=", row)
    .where("label", "in", labels)
    .execute();
  const basketId = randomUUID();
  const held = await services.inventory.holdSeats({ basketId, performanceId, seatIds: seats.map((seat) => seat.id) });
  expect(held, JSON.stringify(held)).toMatchObject({ ok: true });
  const eTicket = await db
    .selectFrom("delivery_methods")
    .select("id")
    .where("kind", "=", "eTicket")
    .executeTakeFirstOrThrow();
  await db.updateTable("baskets").set({ delivery_method_id: eTicket.id }).where("id", "=", basketId).execute();
  const placed = await createEngine(services.store, services.clock).placeAsShown(basketId, customer);
  if (!placed.ok) throw new Error(placed.reason);
  expect(
    await services.payments.pay(placed.order, { method: "card", card: CARD }, { description: "t", returnUrl: "/" }),
  ).toEqual({ kind: "paid" });
  return (await services.orders.byId(placed.order.id))!;
}
