import { randomUUID } from "node:crypto";
import { getByRole } from "@testing-library/dom";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { htmlDriver, validateAllPages, type HtmlDriver } from "../support/html-driver";
import { fillCard, holdOneSeatToPayment, orderNumber } from "../support/no-script-checkout";
import { seedSmall } from "../support/seed";

// The staff's pages as the venue's staff use them without script, in each language (issue 55):
// a door member signs in with a password alone and checks a buyer's e-ticket in (admitted, then
// already used); a box-office member signs in with a one-time code. Every page the drivers receive
// is checked with axe and for labels as it arrives, and with the Nu HTML Checker at the end.

type Server = Awaited<ReturnType<typeof startServer>>;
const PASSWORD = "a long staff password";
const pathOf = (driver: HtmlDriver) => new URL(driver.url).pathname;
/** The door's answer, as a screen reader announces it. */
const outcome = (driver: HtmlDriver) => getByRole(driver.document.body, "status").querySelector("h2")?.textContent;

const LANGUAGES = ["en-GB", "en-US"] as const;

describe("the staff's pages without script", () => {
  let server: Server;

  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall });
  });
  afterAll(() => server?.close());

  /** A buyer's e-ticket, bought without script: its code, as printed under its barcode. */
  async function boughtTicketCode(seat: number): Promise<string> {
    const buyer = htmlDriver(server.url(""));
    await holdOneSeatToPayment(server.services.store, buyer, "B", seat);
    fillCard(buyer, "4242 4242 4242 4242");
    await buyer.press(/^Pay /);
    expect(pathOf(buyer)).toBe("/checkout/confirmation");
    const ticket = await server.services.store.db
      .selectFrom("order_tickets")
      .innerJoin("orders", "orders.id", "order_tickets.order_id")
      .select("order_tickets.barcode")
      .where("orders.number", "=", orderNumber(buyer))
      .executeTakeFirstOrThrow();
    return ticket.barcode;
  }

  async function addStaff(role: "door" | "boxOffice") {
    const added = await server.services.staff.add({
      email: `${role}-${randomUUID()}@venue.example`,
      name: `Sam ${role}`,
      role,
      password: PASSWORD,
    });
    if (!added.ok) throw new Error(added.reason);
    return added;
  }

  async function signIn(driver: HtmlDriver, email: string, code?: string) {
    await driver.open("/staff/sign-in");
    driver.fill("Email address", email).fill("Password", PASSWORD);
    if (code) driver.fill("One-time code", code);
    await driver.press("Sign in");
    expect(pathOf(driver), driver.text()).toBe("/staff");
  }

  it.each(LANGUAGES)(
    "%s: the door admits a ticket by its code once, then says it is already used",
    async (language) => {
      const code = await boughtTicketCode(language === "en-GB" ? 5 : 6);
      const { staff } = await addStaff("door");
      const door = htmlDriver(server.url(""), { language });
      await signIn(door, staff.email);
      await door.follow("Door check-in");
      expect(pathOf(door)).toBe("/staff/door");
      door.select(
        "Performance",
        (door.document.querySelector("select option:not([value=''])") as HTMLOptionElement).text,
      );
      door.fill("Door", "Stalls door");
      await door.press("Start checking tickets");
      door.fill(
        "Ticket code",
        code
          .toLowerCase()
          .replace(/(.{5})/g, "$1 ")
          .trim(),
      );
      await door.press("Check in");
      expect(outcome(door)).toBe("Admitted");
      expect(door.text()).toMatch(/Admitted \d+ of \d+ expected\./);
      door.fill("Ticket code", code);
      await door.press("Check in");
      expect(outcome(door)).toBe("Already used: do not admit");
      expect(door.text()).toContain("at Stalls door");
      await door.follow("Back to the staff page");
      await door.press("Sign out");
      expect(pathOf(door)).toBe("/staff/sign-in");
    },
  );

  it.each(LANGUAGES)("%s: box office signs in with a one-time code from their authenticator", async (language) => {
    const added = await addStaff("boxOffice");
    const secret = added.secondFactor?.secret;
    expect(secret).toBeTruthy();
    const totp = new TOTP({ secret: Secret.fromBase32(secret!), digits: 6, period: 30 });
    const boxOffice = htmlDriver(server.url(""), { language });
    await boxOffice.open("/staff/sign-in");
    boxOffice.fill("Email address", added.staff.email).fill("Password", PASSWORD);
    await boxOffice.press("Sign in");
    expect(pathOf(boxOffice)).toBe("/staff/sign-in");
    expect(boxOffice.text()).toContain("Your account needs a one-time code");
    await signIn(boxOffice, added.staff.email, totp.generate({ timestamp: server.services.clock.now().getTime() }));
    expect(boxOffice.text()).toContain(`Signed in as Sam boxOffice (${added.staff.email})`);
  });

  it("every page the staff received passes the Nu HTML Checker", async () => {
    await validateAllPages();
  });
});
