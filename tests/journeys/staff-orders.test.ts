import { randomUUID } from "node:crypto";
import { getByRole } from "@testing-library/dom";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { createEngine } from "../support/engine";
import { htmlDriver, validateAllPages, type HtmlDriver } from "../support/html-driver";
import { seedSmall } from "../support/seed";

// The box office's orders pages as the box office uses them without script, in each language
// (issue 55 item 3): find a buyer's order by name, read it, refund a ticket already used at the
// door (asked for the box office's word first), send the confirmation again. Every page the driver
// receives is checked with axe and for labels as it arrives, and with the Nu HTML Checker at the end.

type Server = Awaited<ReturnType<typeof startServer>>;
const PASSWORD = "a long staff password";
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvv: "123", holderName: "Jo Bloggs" };
const pathOf = (driver: HtmlDriver) => new URL(driver.url).pathname;
/** What the page's status region says, as a screen reader announces it. */
const status = (driver: HtmlDriver) => getByRole(driver.document.body, "status").textContent?.replace(/\s+/g, " ");

describe("the box office's orders pages without script", () => {
  let server: Server;
  let performanceId: string;

  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall });
    performanceId = (
      await server.services.store.db
        .selectFrom("performances")
        .select("id")
        .where("presale_from", "is", null)
        .orderBy("starts_at")
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => server?.close());

  /** Two seats of row B, bought by this buyer and paid by card; the first checked in at the door. */
  async function paidOrderWithOneUsed(seats: [string, string], name: string) {
    const { services } = server;
    const db = services.store.db;
    const ids = await db
      .selectFrom("seats")
      .select("id")
      .where("row_name", "=", "B")
      .where("label", "in", seats)
      .execute();
    const basketId = randomUUID();
    expect(
      (await services.inventory.holdSeats({ basketId, performanceId, seatIds: ids.map((seat) => seat.id) })).ok,
    ).toBe(true);
    const placed = await createEngine(services.store, services.clock).placeAsShown(basketId, {
      name,
      email: "jo@example.com",
    });
    if (!placed.ok) throw new Error(placed.reason);
    expect(
      await services.payments.pay(placed.order, { method: "card", card: CARD }, { description: "t", returnUrl: "/" }),
    ).toEqual({ kind: "paid" });
    const [used] = await services.orders.tickets(placed.order.id);
    const admitted = await services.checkIn.checkIn({
      performanceId,
      code: used!.barcode,
      door: "Stalls door",
      staffId: "x",
    });
    expect(admitted.outcome).toBe("admitted");
    return { number: placed.order.number, used: used! };
  }

  async function signedInBoxOffice(language: string) {
    const added = await server.services.staff.add({
      email: `box-${randomUUID()}@venue.example`,
      name: "Sam Box",
      role: "boxOffice",
      password: PASSWORD,
    });
    if (!added.ok) throw new Error(added.reason);
    const totp = new TOTP({ secret: Secret.fromBase32(added.secondFactor!.secret), digits: 6, period: 30 });
    const driver = htmlDriver(server.url(""), { language });
    await driver.open("/staff/sign-in");
    driver
      .fill("Email address", added.staff.email)
      .fill("Password", PASSWORD)
      .fill("One-time code", totp.generate({ timestamp: server.services.clock.now().getTime() }));
    await driver.press("Sign in");
    expect(pathOf(driver)).toBe("/staff");
    return driver;
  }

  it.each([
    ["en-GB", ["3", "4"]],
    ["en-US", ["5", "6"]],
  ] as const)(
    "%s: finds an order by name, refunds a used ticket knowingly, resends the email",
    async (language, seats) => {
      const name = `Jo Bloggs ${language}`;
      const { number, used } = await paidOrderWithOneUsed([...seats], name);
      const boxOffice = await signedInBoxOffice(language);

      await boxOffice.follow("Orders");
      expect(pathOf(boxOffice)).toBe("/staff/orders");
      boxOffice.fill("Order number, email or name", `bloggs ${language.toLowerCase()}`);
      await boxOffice.press("Find orders");
      expect(pathOf(boxOffice)).toBe("/staff/orders");
      await boxOffice.follow(number);
      expect(pathOf(boxOffice)).toBe(`/staff/orders/${number}`);
      expect(boxOffice.text()).toContain(used.barcode);
      expect(boxOffice.text()).toContain("Already used at the door");

      boxOffice.check(new RegExp(`^${used.label}: £47\\.50\\. Used at the door`));
      await boxOffice.press("Refund chosen tickets");
      expect(boxOffice.status).toBe(400);
      expect(boxOffice.text()).toContain(`Already used at the door: ${used.label}.`);

      boxOffice.check(/^I know a ticket I am refunding was used at the door/);
      await boxOffice.press("Refund chosen tickets");
      expect(boxOffice.status).toBe(200);
      expect(status(boxOffice)).toContain("Refunded £47.50.");

      await boxOffice.press("Resend the confirmation email");
      expect(status(boxOffice)).toBe("The confirmation email was queued again to jo@example.com.");
      await boxOffice.follow("Back to orders");
      expect(pathOf(boxOffice)).toBe("/staff/orders");
    },
  );

  it("every page the box office received passes the Nu HTML Checker", async () => {
    await validateAllPages();
  });
});
