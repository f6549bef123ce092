import { randomUUID } from "node:crypto";
import { getByRole } from "@testing-library/dom";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { htmlDriver, validateAllPages, type HtmlDriver } from "../support/html-driver";
import { seedSmall } from "../support/seed";

// House seats and complimentary tickets as the box office uses them without script, in each
// language (issue 55 item 5): by the pages' own labels, choose a performance, hold two seats with a
// reason, release them, and give two seats away. Every page the driver receives is checked with
// axe and for labels as it arrives, and with the Nu HTML Checker at the end.

const PASSWORD = "a long staff password";
const LANGUAGES = ["en-GB", "en-US"] as const;
const pathOf = (driver: HtmlDriver) => new URL(driver.url).pathname;
const status = (driver: HtmlDriver) => getByRole(driver.document.body, "status").textContent;

describe("house seats and comps without script", () => {
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall });
  });
  afterAll(() => server?.close());

  async function boxOffice(language: (typeof LANGUAGES)[number]) {
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

  const firstPerformance = (driver: HtmlDriver) =>
    (driver.document.querySelector("select option:not([value=''])") as HTMLOptionElement).text;

  it.each(LANGUAGES)("%s: holds two seats with a reason and releases them", async (language) => {
    const row = language === "en-GB" ? "B" : "A";
    const driver = await boxOffice(language);
    await driver.follow("House seats");
    driver.select("Performance", firstPerformance(driver));
    await driver.press("Show seats");
    expect(driver.text()).toContain("No seats are held as house seats for this performance.");
    driver.fill("Reason", "Director's guests");
    driver.check("Seat 6", `[data-row="Stalls ${row}"]`).check("Seat 7", `[data-row="Stalls ${row}"]`);
    await driver.press("Hold chosen seats");
    expect(status(driver)).toBe(`Held 2 seats off sale: Stalls, row ${row}, seat 6; Stalls, row ${row}, seat 7.`);
    driver.check(`Release Stalls, row ${row}, seat 6`).check(`Release Stalls, row ${row}, seat 7`);
    await driver.press("Release chosen seats");
    expect(status(driver)).toBe(
      `Released 2 seats back on sale: Stalls, row ${row}, seat 6; Stalls, row ${row}, seat 7.`,
    );
    // A reason left out is asked for again, in the error summary and beside the field.
    driver.check("Seat 8", `[data-row="Stalls ${row}"]`);
    await driver.press("Hold chosen seats");
    expect(driver.text()).toContain("Enter a reason, in no more than 200 characters.");
  });

  it.each(LANGUAGES)("%s: gives two seats away and opens their e-tickets", async (language) => {
    const row = language === "en-GB" ? "B" : "A";
    const driver = await boxOffice(language);
    await driver.follow("Complimentary tickets");
    driver.select("Performance", firstPerformance(driver));
    await driver.press("Show seats");
    driver.check("Seat 3", `[data-row="Stalls ${row}"]`);
    driver
      .fill("Seat names (optional)", `${row}4`)
      .fill("Recipient's name", "Pat Guest")
      .fill("Recipient's email address", "pat@example.com")
      .fill("Reason", "Press night reviewer");
    await driver.press("Issue complimentary tickets");
    expect(status(driver)).toContain("Complimentary tickets issued");
    await driver.follow(/^Open the e-tickets of order /);
    expect(pathOf(driver)).toMatch(/^\/e-tickets\//);
    expect(driver.text()).toContain(`Stalls, row ${row}, seat 3`);
    expect(driver.text()).toContain(`Stalls, row ${row}, seat 4`);
  });

  it("every page the box office received passes the Nu HTML Checker", async () => {
    await validateAllPages();
  });
});
