import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoBuyer, goodPerformance, pathOf, startDemoServer, type DemoServer } from "../support/demo-journey";
import { validateAllPages, type HtmlDriver } from "../support/html-driver";
import { fillCard } from "../support/no-script-checkout";
import { addStaff, STAFF_PASSWORD } from "../support/staff";

// What a text browser (lynx, w3m) reads: no styles, so text hidden from sight is read, and parts
// set apart only by the stylesheet run together. `text()` reads the page's words as they come,
// which is stricter still: a space that separates two parts must be in the page, not the layout.
// Each control and row is read once and apart: the calendar's weekdays and days, its months'
// links, the order's rows, the payment question, the venue page's title, the buttons (their text,
// never a value shown before it). And the phone field: a national number of the venue's country
// or an international one, as its hint says (issue 40 items 5 and 7).

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

const count = (text: string, words: string) => text.split(words).length - 1;
const normaliseSpace = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();

/** Every submit button whose value a text browser would show before its text ("(best) Find seats"). */
const valuedButtons = (buyer: HtmlDriver) =>
  [...buyer.document.querySelectorAll("button")]
    .filter((button) => button.type === "submit" && button.hasAttribute("value"))
    .filter((button) => button.value !== button.textContent?.trim())
    .map((button) => `${button.value}: ${button.textContent?.trim()}`);

const fieldError = (buyer: HtmlDriver, id: string) => buyer.document.getElementById(`${id}-error`)?.textContent;
const hint = (buyer: HtmlDriver, id: string) => buyer.document.getElementById(`${id}-hint`)?.textContent;

describe("pages as a text browser reads them", { timeout: 90_000 }, () => {
  let server: DemoServer;

  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("reads the calendar's weekdays, days and months once each, and apart", async () => {
    const buyer = demoBuyer(server, "en-GB");
    await buyer.open("/shows/the-lantern-keeper/regent-palace/calendar/2026-12-01");
    const headers = [...buyer.document.querySelectorAll("thead th")].map((th) => th.textContent);
    expect(headers).toEqual(WEEKDAYS);
    const text = buyer.text();
    expect(text).not.toMatch(/MonMonday|TueTuesday|SunSunday/);
    // The 3rd's cell reads its date once, and not after its number ("3Thursday, …").
    const third = [...buyer.document.querySelectorAll("td")].find((cell) =>
      cell.textContent?.startsWith("Thursday, 3 December 2026"),
    );
    expect(third).toBeDefined();
    const days = [...buyer.document.querySelectorAll("td")].map((cell) => cell.textContent ?? "").filter(Boolean);
    expect(days.length).toBeGreaterThanOrEqual(28);
    expect(days.filter((day) => /^\d/.test(day))).toEqual([]);
    expect(text).toContain("Previous: November 2026 Next: January 2027");
    expect(text).not.toContain("2026Next");
  });

  it("names a venue's own page once, not 'Regent Palace Theatre – Regent Palace Theatre'", async () => {
    const buyer = demoBuyer(server, "en-GB");
    await buyer.open("/venues/regent-palace");
    expect(buyer.document.title).toBe("Regent Palace Theatre");
  });

  it("reads the buttons, the order's rows, the payment question and the phone hint cleanly (GB venue)", async () => {
    const buyer = demoBuyer(server, "en-GB");
    await goodPerformance(buyer, "/shows/a-winters-crossing/harbour-playhouse/calendar", 0);
    expect(valuedButtons(buyer)).toEqual([]);
    buyer.select("Number of seats", "1");
    await buyer.press("Find seats");
    expect(pathOf(buyer)).toBe("/checkout/reservations");
    expect(valuedButtons(buyer)).toEqual([]);
    if (buyer.text().includes("I have read this notice")) buyer.check("I have read this notice");
    await buyer.press("Accept these seats");
    expect(pathOf(buyer)).toBe("/checkout/extras");
    // The order's rows: the seat, its price type and its amount, each set apart.
    expect(buyer.text()).toMatch(/seat \d+, Full Price, £\d+\.\d\d/);
    expect(buyer.text()).not.toMatch(/seat \d+Full Price/);
    expect(buyer.text()).toMatch(/Total, £\d+\.\d\d/);
    await buyer.press("Continue");
    buyer.choose("No, I accept that my tickets are non-refundable");
    await buyer.press("Continue");
    buyer.choose(/^E-ticket/);
    await buyer.press("Continue");
    expect(pathOf(buyer)).toBe("/checkout/contacts");

    expect(hint(buyer, "phone")).toBe(
      "A UK number, or an international one starting with +. We'll only call if there's a problem with your booking.",
    );
    buyer
      .fill("First name", "Jo")
      .fill("Last name", "Bloggs")
      .fill("Email address", "jo@example.com")
      .fill("Confirm email address", "jo@example.com")
      .fill("Phone number", "12345")
      .check("I accept the Terms and Conditions");
    await buyer.press("Continue");
    expect(pathOf(buyer)).toBe("/checkout/contacts");
    expect(fieldError(buyer, "phone")).toBe("Error: Please enter a valid phone number");
    expect(hint(buyer, "phone")).toMatch(/^A UK number, or an international one starting with \+/);
    buyer.fill("Phone number", "+1 212 555 0100").check("I accept the Terms and Conditions");
    await buyer.press("Continue");
    expect(pathOf(buyer)).toBe("/checkout/payment");
    // A UK number as dialled in the UK, too.
    await buyer.open("/checkout/contacts");
    buyer.fill("Phone number", "020 7946 0000").check("I accept the Terms and Conditions");
    await buyer.press("Continue");
    expect(pathOf(buyer)).toBe("/checkout/payment");

    // The question is the section's heading, which also names the choice: said once.
    expect(count(buyer.text(), "How would you like to pay?")).toBe(1);
    expect(buyer.document.querySelector("fieldset.radios")?.getAttribute("aria-labelledby")).toBe("pay-title");
    expect(valuedButtons(buyer)).toEqual([]);
    fillCard(buyer, "4000 0000 0000 3220");
    await buyer.press(/^Pay /);
    expect(pathOf(buyer)).toBe("/checkout/verify");
    await buyer.press("Continue");
    await buyer.press("Continue");
    // The bank's check (the sandbox's challenge): two answers, two forms, no value before either.
    expect(valuedButtons(buyer)).toEqual([]);
    await buyer.press("Complete authentication");
    expect(pathOf(buyer)).toBe("/checkout/confirmation");
    expect(buyer.text()).toMatch(/seat \d+, Full Price, £\d+\.\d\d/);
  });

  it("takes a New York venue's numbers and international ones, and says so", async () => {
    // A buyer in the UK at a New York venue: their UK mobile without +44 is not a US number.
    const buyer = demoBuyer(server, "en-GB");
    await goodPerformance(buyer, "/shows/broadway-lights/liberty-theatre/calendar", 0);
    buyer.select("Number of seats", "1");
    await buyer.press("Find seats");
    if (buyer.text().includes("I have read this notice")) buyer.check("I have read this notice");
    await buyer.press("Accept these seats");
    await buyer.press("Continue");
    buyer.choose("No, I accept that my tickets are non-refundable");
    await buyer.press("Continue");
    buyer.choose(/^E-ticket/);
    await buyer.press("Continue");
    expect(pathOf(buyer)).toBe("/checkout/contacts");
    const usHint =
      "A US number, or an international one starting with +. We'll only call if there's a problem with your booking.";
    expect(hint(buyer, "phone")).toBe(usHint);
    buyer
      .fill("First name", "Jo")
      .fill("Last name", "Bloggs")
      .fill("Email address", "jo@example.com")
      .fill("Confirm email address", "jo@example.com")
      .fill("Phone number", "07911 123456")
      .choose("Social media")
      .fill(/travell?ing from/, "Boston")
      .check("I accept the Terms and Conditions");
    await buyer.press("Continue");
    expect(pathOf(buyer)).toBe("/checkout/contacts");
    expect(fieldError(buyer, "phone")).toBe("Error: Please enter a valid phone number");
    expect(hint(buyer, "phone")).toBe(usHint);
    expect(buyer.document.getElementById("phone")?.getAttribute("aria-describedby")).toContain("phone-hint");
    buyer.fill("Phone number", "+44 7911 123456").check("I accept the Terms and Conditions");
    await buyer.press("Continue");
    expect(pathOf(buyer)).toBe("/checkout/payment");
    await buyer.open("/checkout/contacts");
    buyer.fill("Phone number", "(212) 555-0100").check("I accept the Terms and Conditions");
    await buyer.press("Continue");
    expect(pathOf(buyer)).toBe("/checkout/payment");
  });

  it("reads the staff's pages in their own frame: sign-in, the start page, the door and its answer", async () => {
    const added = await addStaff(server.services, "door");
    const staff = demoBuyer(server, "en-GB");
    await staff.open("/staff/sign-in");
    // The staff's header: none of the buyer's (their support line, sign-in link, footer).
    // (The logo is a picture: its words are its alternative text, which text() does not read.)
    expect(staff.text()).toMatch(/^Skip to main content StaffStaff sign-inEmail address/);
    expect(staff.text()).not.toMatch(/Need help|Terms/);
    await staff.fill("Email address", added.staff.email).fill("Password", STAFF_PASSWORD).press("Sign in");
    expect(pathOf(staff)).toBe("/staff");
    expect(staff.text()).toContain(`Signed in as ${added.staff.name} (door)Sign out`);
    await staff.open("/staff/door");
    const performance = staff.document.querySelector<HTMLOptionElement>('#performance option:not([value=""])');
    expect(performance).not.toBeNull();
    staff.select("Performance", normaliseSpace(performance!.textContent)).fill("Door", "Stalls door");
    await staff.press("Start checking tickets");
    expect(staff.text()).toContain("Door: Stalls door.");
    await staff.fill("Ticket code", "2345 6789 ABCD EFGH JKLM").press("Check in");
    // The answer first, its words apart from the page's title after it.
    expect(staff.text()).toMatch(/Sign outUnknown code: do not admitNo ticket has this code\..*Door check-in/);
  });

  it("passes the HTML checker on every page", async () => {
    await validateAllPages();
  });
});
