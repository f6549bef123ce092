import { getByRole } from "@testing-library/dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { runCommand } from "../support/command";
import { htmlDriver, validateAllPages, type HtmlDriver } from "../support/html-driver";
import { seedSmall } from "../support/seed";
import { firstOnSalePerformanceId, paidETicketOrder, STAFF_PASSWORD, staffDriver } from "../support/staff";

// The venue's night without script, in each language (issue 55's first Done-when): the operator
// adds a box-office member and a door member with `npm run staff`; the box office signs in with
// password and one-time code, finds a buyer's order by email, refunds one of its tickets (the
// provider's stand-in refunds that ticket's amount once; the buyer's e-ticket says VOID), holds two
// house seats (the buyer's seat map no longer offers them), and gives a seat away; the door admits
// a ticket by its code, says "already used" the second time, and refuses the voided one; the box
// office then sees the used ticket marked on the order. Every page the drivers receive is checked
// with axe and for labels as it arrives, and with the Nu HTML Checker at the end.

type Server = Awaited<ReturnType<typeof startServer>>;
const LANGUAGES = ["en-GB", "en-US"] as const;
const pathOf = (driver: HtmlDriver) => new URL(driver.url).pathname;
/** What the page's status region says, as a screen reader announces it. */
const status = (driver: HtmlDriver) =>
  getByRole(driver.document.body, "status").textContent?.replace(/\s+/g, " ").trim() ?? "";
/** The door's answer, as a screen reader announces it. */
const doorAnswer = (driver: HtmlDriver) => getByRole(driver.document.body, "status").querySelector("h2")?.textContent;
const firstPerformance = (driver: HtmlDriver) =>
  (driver.document.querySelector("main select option:not([value=''])") as HTMLOptionElement).text;

describe("the venue's staff without script", () => {
  let server: Server;
  let performanceId: string;

  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall });
    performanceId = await firstOnSalePerformanceId(server.services.store);
  });
  afterAll(() => server?.close());

  /** `npm run staff -- add`, as the operator runs it over the site's data folder: the secret it prints, if any. */
  async function addByCommand(role: "box-office" | "door", email: string): Promise<string | null> {
    const added = await runCommand("staff", ["add", "--email", email, "--name", `Sam ${role}`, "--role", role], {
      DATA_DIR: server.services.config.dataDir,
      STAFF_PASSWORD,
    });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`Added Sam ${role} <${email}>`);
    return /secret, typed in:\s+(\S+)/.exec(added.stdout)?.[1] ?? null;
  }

  /** Chooses the performance (the first on the list: the seeded one) on a page that asks for it. */
  async function choosePerformance(driver: HtmlDriver, button: string) {
    driver.select("Performance", firstPerformance(driver));
    await driver.press(button);
  }

  it.each(LANGUAGES)(
    "%s: box office refunds a ticket, holds house seats, gives a seat away; the door admits, repeats, refuses",
    async (language) => {
      const row = language === "en-GB" ? "B" : "A";
      const buyerEmail = `buyer-${language.toLowerCase()}@example.com`;
      const order = await paidETicketOrder(server.services, performanceId, row, ["3", "4"], {
        name: "Jo Bloggs",
        email: buyerEmail,
      });
      const [kept, refunded] = await server.services.orders.tickets(order.id);

      // The operator adds the staff, by the command.
      const boxOfficeEmail = `box-${language.toLowerCase()}@venue.example`;
      const doorEmail = `door-${language.toLowerCase()}@venue.example`;
      const secret = await addByCommand("box-office", boxOfficeEmail);
      expect(secret).toMatch(/^[A-Z2-7]+$/);
      expect(await addByCommand("door", doorEmail)).toBeNull();

      // The box office finds the buyer's order by email and refunds one ticket.
      const boxOffice = await staffDriver(server, language, boxOfficeEmail, secret);
      await boxOffice.follow("Orders");
      boxOffice.fill("Order number, email or name", buyerEmail.toUpperCase());
      await boxOffice.press("Find orders");
      await boxOffice.follow(order.number);
      expect(pathOf(boxOffice)).toBe(`/staff/orders/${order.number}`);
      // The ticket's price, as its box on the order page reads ("Stalls, row B, seat 4: £47.50. …").
      const ticketBox = [...boxOffice.document.querySelectorAll("main label")].find((label) =>
        label.textContent?.startsWith(`${refunded!.label}: `),
      );
      const price = /: £(\d+)\.(\d\d)/.exec(ticketBox?.textContent ?? "");
      expect(price, boxOffice.text()).toBeTruthy();
      const ticketAmount = Number(price![1]) * 100 + Number(price![2]);
      boxOffice.check(new RegExp(`^${refunded!.label}: `));
      await boxOffice.press("Refund chosen tickets");
      expect(status(boxOffice)).toContain(`Refunded £${price![1]}.${price![2]}.`);

      const payment = (await server.services.sandboxGateway!.snapshot()).find((record) =>
        record.idempotencyKey.startsWith(`${order.id}:`),
      );
      expect(payment).toMatchObject({ captured: order.total, refunded: ticketAmount });
      const providerRefunds = await server.services.store.db
        .selectFrom("sandbox_refunds")
        .select(["amount"])
        .where("reference", "=", payment!.reference)
        .execute();
      expect(providerRefunds).toEqual([{ amount: ticketAmount }]);

      const buyer = htmlDriver(server.url(""), { language });
      await buyer.open(`/e-tickets/${(await server.services.orders.byId(order.id))!.access_key}`);
      const voided = [...buyer.document.querySelectorAll("main li, main article, main section")].find(
        (element) => element.textContent?.includes(refunded!.label) && element.textContent.includes("VOID"),
      );
      expect(voided, buyer.text()).toBeTruthy();

      // Two house seats, which the buyer's seat map then no longer offers.
      const seatOnMap = (seat: number) => new RegExp(`^Stalls, row ${row}, seat ${seat},`);
      await buyer.open(`/shows/test-show/test-hall/tickets/${performanceId}`);
      expect(buyer.offers("checkbox", seatOnMap(6))).toBe(true);
      await boxOffice.follow(/Staff$/);
      await boxOffice.follow("House seats");
      await choosePerformance(boxOffice, "Show seats");
      boxOffice.fill("Reason", "Director's guests");
      boxOffice.check("Seat 6", `[data-row="Stalls ${row}"]`).check("Seat 7", `[data-row="Stalls ${row}"]`);
      await boxOffice.press("Hold chosen seats");
      expect(status(boxOffice)).toBe(`Held 2 seats off sale: Stalls, row ${row}, seat 6; Stalls, row ${row}, seat 7.`);
      await buyer.open(`/shows/test-show/test-hall/tickets/${performanceId}`);
      expect(buyer.offers("checkbox", seatOnMap(6))).toBe(false);
      expect(buyer.offers("checkbox", seatOnMap(7))).toBe(false);
      expect(buyer.offers("checkbox", seatOnMap(8))).toBe(true);

      // A seat given away: a zero-price order with its e-tickets.
      await boxOffice.follow(/Staff$/);
      await boxOffice.follow("Complimentary tickets");
      await choosePerformance(boxOffice, "Show seats");
      boxOffice.check("Seat 8", `[data-row="Stalls ${row}"]`);
      boxOffice
        .fill("Recipient's name", "Pat Guest")
        .fill("Recipient's email address", "pat@example.com")
        .fill("Reason", "Press night reviewer");
      await boxOffice.press("Issue complimentary tickets");
      expect(status(boxOffice)).toContain("Complimentary tickets issued");
      await boxOffice.follow(/^Open the e-tickets of order /);
      expect(pathOf(boxOffice)).toMatch(/^\/e-tickets\//);
      expect(boxOffice.text()).toContain(`Stalls, row ${row}, seat 8`);
      const comp = await server.services.store.db
        .selectFrom("orders")
        .select(["total", "status"])
        .where("email", "=", "pat@example.com")
        .where("customer_name", "=", "Pat Guest")
        .execute();
      expect(comp).toContainEqual({ total: 0, status: "paid" });

      // The door: admitted, then already used, and the voided ticket refused.
      const door = await staffDriver(server, language, doorEmail, null);
      await door.follow("Door check-in");
      expect(pathOf(door)).toBe("/staff/door");
      door.select("Performance", firstPerformance(door));
      door.fill("Door", "Stalls door");
      await door.press("Start checking tickets");
      // Typed as a person reads it off a phone: any case, in groups.
      door.fill(
        "Ticket code",
        kept!.barcode
          .toLowerCase()
          .replace(/(.{5})/g, "$1 ")
          .trim(),
      );
      await door.press("Check in");
      expect(doorAnswer(door)).toBe("Admitted");
      expect(door.text()).toMatch(/Admitted \d+ of \d+ expected\./);
      door.fill("Ticket code", kept!.barcode);
      await door.press("Check in");
      expect(doorAnswer(door)).toBe("Already used: do not admit");
      expect(door.text()).toContain("at Stalls door");
      door.fill("Ticket code", refunded!.barcode);
      await door.press("Check in");
      expect(doorAnswer(door)).toBe("Void: do not admit");
      await door.press("Sign out");
      expect(pathOf(door)).toBe("/staff/sign-in");

      // The box office sees where the kept ticket was used.
      await boxOffice.open(`/staff/orders/${order.number}`);
      expect(boxOffice.text()).toContain("Already used at the door");
    },
    // A whole night, two browsers and a command: seconds alone, longer beside other journeys on two cores.
    60_000,
  );

  it("every page the staff and the buyers received passes the Nu HTML Checker", async () => {
    await validateAllPages();
  });
});
