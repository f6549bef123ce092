import { randomUUID } from "node:crypto";
import { JSDOM } from "jsdom";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, expect } from "vitest";
import type { Clock } from "~/clock";
import type { Customer } from "~/ticketing/order-lifecycle.server";
import type { Order } from "~/ticketing/orders.server";
import type { StaffRole } from "~/ticketing/staff-roles";
import type { AppServices } from "~/web/context";
import { startServer } from "./app";
import { buyerBrowser, type BuyerBrowser } from "./browser";
import { registerCustomer } from "./customers";
import { createEngine } from "./engine";
import { htmlDriver } from "./html-driver";
import { seedSmall } from "./seed";

// The staff's side as route tests meet it (issue 55): members of staff added through the service
// (the command's own path is tests/routes/staff-command.test.ts), signed in over HTTP with their
// password and, where their role needs one, the code their authenticator shows; paid e-ticket
// orders for them to find, refund and admit; and the answers everyone else gets.

export const STAFF_PASSWORD = "a long staff password";

interface Served {
  url: (path: string) => string;
  services: AppServices;
}

/** The first performance on general sale (no presale): the one the small seed's tests buy for. */
export async function firstOnSalePerformanceId(store: AppServices["store"]): Promise<string> {
  const performance = await store.db
    .selectFrom("performances")
    .select("id")
    .where("presale_from", "is", null)
    .orderBy("starts_at")
    .executeTakeFirstOrThrow();
  return performance.id;
}

export type StaffServer = Awaited<ReturnType<typeof startServer>>;

/**
 * The production build on the small seed for one suite, on this clock, and the performance its
 * tests buy for; `ready` hands the suite what it made, once, before its own beforeAll hooks run.
 */
export function useStaffServer(clock: Clock, ready: (made: { server: StaffServer; performanceId: string }) => void) {
  let server: StaffServer | undefined;
  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall, clock });
    ready({ server, performanceId: await firstOnSalePerformanceId(server.services.store) });
  });
  afterAll(() => server?.close());
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

/**
 * A browser without script (the journeys' driver, checking every page it receives) signed in
 * through the sign-in page; `secret` is the member's authenticator secret, null for a role without.
 */
export async function staffDriver(server: Served, language: "en-GB" | "en-US", email: string, secret: string | null) {
  const { clock } = server.services;
  const driver = htmlDriver(server.url(""), { language, now: () => clock.now().getTime() });
  await driver.open("/staff/sign-in");
  driver.fill("Email address", email).fill("Password", STAFF_PASSWORD);
  if (secret) driver.fill("One-time code", oneTimeCode(secret, clock));
  await driver.press("Sign in");
  expect(new URL(driver.url).pathname, driver.text()).toBe("/staff");
  return driver;
}

/** A member of staff with this role, added and signed in on the journeys' driver. */
export async function signedInStaffDriver(server: Served, role: StaffRole, language: "en-GB" | "en-US" = "en-GB") {
  const added = await addStaff(server.services, role);
  return staffDriver(server, language, added.staff.email, added.secondFactor?.secret ?? null);
}

/** A registered buyer signed in on a browser of their own, and the token of their session. */
export async function signedInBuyer(server: Served) {
  const browser = buyerBrowser(server.url);
  const { token } = await registerCustomer(server.services.auth, {
    email: `buyer-${randomUUID()}@example.com`,
    password: "correct horse battery",
    firstName: "Jo",
    lastName: "Bloggs",
  });
  const auth = (await server.services.sessions.authCookie.serialize(token)).split(";")[0]!;
  browser.cookies.set("auth", auth.slice("auth=".length));
  return { browser, token };
}

/** The buyer's session token, signed as the staff cookie: what a buyer who forged one would send. */
export async function forgeStaffCookie(server: Served, browser: BuyerBrowser, token: string) {
  const forged = (await server.services.sessions.staffCookie.serialize(token)).split(";")[0]!;
  browser.cookies.set("staff", forged.slice("staff=".length));
}

/** What the page cache did with a response ("hit", "kept", …), as its Server-Timing header says. */
export const cacheOutcome = (response: Response) =>
  /page-cache;desc="(\w+)"/.exec(response.headers.get("Server-Timing") ?? "")?.[1];

/** A page the cache neither served nor kept. */
export function expectNotFromPageCache(response: Response, message?: string) {
  expect(["hit", "kept"], message).not.toContain(cacheOutcome(response));
}

/**
 * A 404 for each GET (the site's own 404 page, unless `sitePage` is false: a download's 404 is no
 * page) and for each POST: what a staff address answers to anyone it is not for. `hides`: words
 * none of the GETs' answers may contain.
 */
export async function expectNotFoundEverywhere(
  browser: BuyerBrowser,
  {
    get = [],
    post = [],
    hides = [],
    who = "",
    sitePage = true,
  }: {
    get?: string[];
    post?: { path: string; fields: Record<string, string> | [string, string][]; name?: string }[];
    hides?: string[];
    who?: string;
    sitePage?: boolean;
  },
) {
  const by = who ? `${who}: ` : "";
  for (const path of get) {
    const response = await browser.get(path);
    expect(response.status, `${by}GET ${path}`).toBe(404);
    const html = await response.text();
    if (sitePage) expect(new JSDOM(html).window.document.title, `${by}GET ${path}`).toMatch(/not found/i);
    for (const hidden of hides) expect(html, `${by}GET ${path}`).not.toContain(hidden);
  }
  for (const { path, fields, name } of post) {
    const response = await browser.post(path, fields);
    await response.arrayBuffer();
    expect(response.status, `${by}POST ${name ?? path}`).toBe(404);
  }
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
  customer: Customer = { name: "Jo Bloggs", email: "jo@example.com" },
): Promise<Order> {
  const db = services.store.db;
  const seats = await db
    .selectFrom("seats")
    .select("id")
    .where("row_name", "=", row)
    .where("label", "in", labels)
    .execute();
  expect(seats).toHaveLength(labels.length);
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

/** The provider's reference of the order's payment that went through. */
export async function paymentReference(services: AppServices, order: Order): Promise<string> {
  const payment = await services.store.db
    .selectFrom("order_payments")
    .select("provider_reference")
    .where("order_id", "=", order.id)
    .where("status", "=", "succeeded")
    .executeTakeFirstOrThrow();
  return payment.provider_reference!;
}
