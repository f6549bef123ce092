import { getByRole, queryByRole } from "@testing-library/dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoBuyer, goodPerformance, pathOf, startDemoServer, type DemoServer } from "../support/demo-journey";
import { validateAllPages, type HtmlDriver } from "../support/html-driver";

// From a performance's seats to held tickets, without script, in each language (the no-script
// runs of tests/e2e/reserve.spec.ts): the seat map and the show's acknowledgement, best
// available, a wheelchair space with its companion seat and the declaration it needs, standing
// places, the seat limit, and the reservation's extension, expiry, release and emptying the cart
// for another date. Time moves only when a test moves the server's clock: a hold expires without
// a real wait. The smaller venues keep each seat map cheap to read: Harbour Playhouse (900 seats)
// and Foundry Hall (240 seated, and a standing floor).

const PROFILES = [
  {
    language: "en-GB" as const,
    seats: { calendar: "/shows/a-winters-crossing/harbour-playhouse/calendar", show: "A Winter's Crossing" },
    section: "Stalls",
    acknowledge: { box: "I have read this notice", error: "Please confirm you have read the performance notice" },
    best: { calendar: "/shows/the-tide-tables/harbour-playhouse/calendar", show: "The Tide Tables" },
    limit: { count: 10, call: "For groups of more than 10, please call the box office on 0117 496 0102." },
    wheelchair: { section: "Stalls", row: "R", space: 1, companion: 2 },
    standing: "/shows/northern-static/foundry-hall/calendar",
    currency: "£",
    basketWord: "basket",
    browseLink: "Find a show",
    // Holds made at DEMO_NOW (12:00 UTC) end 15 minutes later, told in the venue's time zone,
    // which is named: a buyer elsewhere reads the clock they plan by.
    heldUntil: { first: "12:15 London time", extended: "12:25 London time" },
  },
  {
    language: "en-US" as const,
    seats: { calendar: "/shows/northern-static/foundry-hall/calendar", show: "Northern Static" },
    section: "Balcony",
    acknowledge: {
      box: "I have read the admission information",
      error: "Please confirm you have read the admission information",
    },
    best: { calendar: "/shows/the-velvet-hours/foundry-hall/calendar", show: "The Velvet Hours" },
    limit: { count: 6, call: "For groups of more than 6, please call the box office at (312) 555-0104." },
    wheelchair: { section: "Balcony", row: "A", space: 40, companion: 39 },
    standing: "/shows/the-velvet-hours/foundry-hall/calendar",
    currency: "$",
    basketWord: "cart",
    browseLink: "Find a show",
    heldUntil: { first: "6:15 AM Chicago time", extended: "6:25 AM Chicago time" },
  },
];

const MINUTE = 60_000;

/** The accessible names of free, unmarked seats in a part of the house ("Stalls, row F, seat 12, £65.00"). */
function freeSeats(buyer: HtmlDriver, section: string, count: number, offset = 0) {
  const names = [...buyer.document.querySelectorAll<HTMLInputElement>('input[name="seat"]:not([disabled])')]
    .map((input) => input.labels?.[0]?.textContent ?? "")
    .filter((name) => name.startsWith(`${section}, row `) && name.split(", ").length === 4);
  const chosen = names.slice(offset, offset + count);
  expect(chosen).toHaveLength(count);
  return chosen;
}

/** "Stalls, row F, seat 12, £65.00" → "Stalls, row F, seat 12", as the basket names a seat. */
const seatOf = (name: string) => name.split(", ").slice(0, 3).join(", ");

const basket = (buyer: HtmlDriver) => getByRole(buyer.document.body, "table", { name: "Your tickets" });
const basketText = (buyer: HtmlDriver) => normalise(basket(buyer).textContent);
const timer = (buyer: HtmlDriver) => normalise(getByRole(buyer.document.body, "timer").textContent);
const alertText = (buyer: HtmlDriver) =>
  normalise([...buyer.document.querySelectorAll('[role="alert"]')].map((element) => element.textContent).join(" "));
const normalise = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

/** Whether the seat's box on the tickets page can be ticked, and is not (a taken seat has no box). */
function seatIsFree(buyer: HtmlDriver, seat: string) {
  // By the seats' own labels: asking testing-library for one box by name computes the name of
  // every box on the map, over a second a call on these pages.
  const label = [...buyer.document.querySelectorAll<HTMLLabelElement>(".seat-map__plan label")].find((candidate) =>
    (candidate.textContent ?? "").startsWith(`${seat},`),
  );
  const box = label?.control as HTMLInputElement | null | undefined;
  return box !== null && box !== undefined && !box.disabled && !box.checked;
}

/** Ticks the named seats and reserves them with the button after the map. */
async function reserve(buyer: HtmlDriver, names: string[]) {
  for (const name of names) buyer.check(name);
  await buyer.press("Reserve selected seats");
  expect(buyer.status).toBe(200);
  for (const name of names) expect(basketText(buyer)).toContain(seatOf(name));
}

/**
 * The journeys for one language, with the Nu HTML Checker over their pages. Each language has a
 * test file of its own (reserve-gb, reserve-us), so vitest runs the two at once.
 */
export function reserveJourneys(language: (typeof PROFILES)[number]["language"]) {
  const profile = PROFILES.find((candidate) => candidate.language === language)!;
  // Each journey reads seat maps of hundreds of labelled seats, a few seconds of checks a visit:
  // more than vitest's 20 s default on two busy cores.
  describe(`reserving without script, ${language}`, { timeout: 45_000 }, () => {
    let server: DemoServer;

    beforeAll(async () => {
      server = await startDemoServer();
    });
    afterAll(async () => {
      await server.close();
    });
    const buyerFor = () => demoBuyer(server, profile.language);

    it("picks two seats on the seat map, is asked to acknowledge, continues, and extends the hold when warned", async () => {
      const buyer = buyerFor();
      await goodPerformance(buyer, profile.seats.calendar);
      const seats = freeSeats(buyer, profile.section, 2);
      await reserve(buyer, seats);
      expect(basketText(buyer)).toContain(profile.currency);
      expect(timer(buyer)).toBe("15:00");

      await buyer.press("Continue");
      expect(buyer.document.title).toMatch(/^Error: /);
      expect(alertText(buyer)).toContain(profile.acknowledge.error);
      buyer.check(profile.acknowledge.box);
      await buyer.press("Continue");
      expect(pathOf(buyer)).toBe("/checkout/extras");
      const reservation = getByRole(buyer.document.body, "complementary", { name: "Your reservation" });
      expect(normalise(reservation.textContent)).toContain(`2 tickets for ${profile.seats.show}`);
      expect(timer(buyer)).toBe("15:00");
      // Without script the countdown stands still: the clock time the hold ends is what to plan by.
      expect(buyer.text()).toContain(`Your seats are held until ${profile.heldUntil.first}.`);
      expect(buyer.text()).not.toContain("Your seats will be released in less than 2 minutes.");

      // Two minutes before the end the page warns and offers more time; Extend adds ten minutes.
      server.clock.advance(13 * MINUTE + 30_000);
      await buyer.open("/checkout/extras");
      expect(timer(buyer)).toBe("1:30");
      const warning = getByRole(buyer.document.body, "status");
      expect(normalise(warning.textContent)).toContain("Your seats will be released in less than 2 minutes.");
      await buyer.press("Extend");
      expect(pathOf(buyer)).toBe("/checkout/extras");
      expect(timer(buyer)).toBe("11:30");
      expect(buyer.text()).toContain(`Your seats are held until ${profile.heldUntil.extended}.`);
      expect(buyer.text()).not.toContain("Your seats will be released in less than 2 minutes.");
    });

    it("a browser that refuses cookies is told booking needs them and how to allow them, however often it tries", async () => {
      const buyer = demoBuyer(server, profile.language, { cookies: false });
      const tickets = await goodPerformance(buyer, profile.seats.calendar, 3);
      const [seat] = freeSeats(buyer, profile.section, 1, 4);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        buyer.check(seat!);
        await buyer.press("Reserve selected seats");
        expect(buyer.status).toBe(403);
        expect(buyer.document.title).toMatch(/^Cookies are needed to book – /);
        getByRole(buyer.document.body, "heading", { level: 1, name: "Cookies are needed to book" });
        expect(buyer.text()).toContain(
          `We need cookies to hold your seats and keep your ${profile.basketWord} while you book.`,
        );
        expect(buyer.text()).toContain("allow cookies for this site");
        expect(buyer.text()).not.toContain("This form has expired");
        // Reloading the page and trying again, as the page says, meets the same words, not a loop of others.
        await buyer.open(tickets);
      }
      // Nothing was held.
      expect(seatIsFree(buyer, seatOf(seat!))).toBe(true);
    });

    it("a checkout form sent after the browser dropped its cookies says what happened and what to do", async () => {
      const buyer = buyerFor();
      await goodPerformance(buyer, profile.seats.calendar, 3);
      await reserve(buyer, freeSeats(buyer, profile.section, 1, 6));
      if (buyer.document.body.textContent?.includes(profile.acknowledge.box)) buyer.check(profile.acknowledge.box);
      await buyer.press("Continue");
      expect(pathOf(buyer)).toBe("/checkout/extras");
      // The buyer clears the site's cookies (or a browser drops them) with the page still open.
      for (const name of ["session", "csrf", "basket"]) buyer.setCookie(`${name}=; Path=/; Max-Age=0`);
      await buyer.press("Continue");
      expect(buyer.status).toBe(403);
      // Was titled "Internal server issue", which said neither.
      expect(buyer.document.title).toMatch(/^Cookies are needed to book – /);
      getByRole(buyer.document.body, "heading", { level: 1, name: "Cookies are needed to book" });
      expect(buyer.text()).toContain("Then go back, reload the page and try again.");
      getByRole(buyer.document.body, "link", { name: profile.browseLink });
    });

    it("an expired hold says Session expired, and Reselect seats starts again with the seat free", async () => {
      const buyer = buyerFor();
      const tickets = await goodPerformance(buyer, profile.seats.calendar, 1);
      const [seat] = freeSeats(buyer, profile.section, 1, 2);
      await reserve(buyer, [seat!]);

      // No real wait: the server's clock moves past the hold's fifteen minutes.
      server.clock.advance(15 * MINUTE + 1_000);
      await buyer.open(tickets);
      getByRole(buyer.document.body, "heading", { name: "Session expired" });
      expect(buyer.text()).toContain("Your session has timed out.");
      expect(
        (getByRole(buyer.document.body, "button", { name: "Reservation expired" }) as HTMLButtonElement).disabled,
      ).toBe(true);
      await buyer.press("Reselect seats");
      expect(pathOf(buyer)).toBe(tickets);
      expect(queryByRole(buyer.document.body, "heading", { name: "Session expired" })).toBeNull();
      expect(seatIsFree(buyer, seatOf(seat!))).toBe(true);
    });

    it("best available finds four seats together, and the buyer accepts them", async () => {
      const buyer = buyerFor();
      await goodPerformance(buyer, profile.best.calendar);
      buyer.select("Number of seats", "4");
      await buyer.press("Find seats");
      expect(pathOf(buyer)).toBe("/checkout/reservations");
      getByRole(buyer.document.body, "heading", { level: 1, name: "Best available tickets" });
      expect(basket(buyer).querySelectorAll("tbody tr")).toHaveLength(4);
      if (buyer.document.body.textContent?.includes(profile.acknowledge.box)) buyer.check(profile.acknowledge.box);
      await buyer.press("Accept these seats");
      expect(pathOf(buyer)).toBe("/checkout/extras");
      const reservation = getByRole(buyer.document.body, "complementary", { name: "Your reservation" });
      expect(normalise(reservation.textContent)).toContain(`4 tickets for ${profile.best.show}`);
    });

    it("a wheelchair space needs the access declaration; with it, the space and its companion seat are held", async () => {
      const buyer = buyerFor();
      const tickets = await goodPerformance(buyer, profile.seats.calendar, 2);
      const { section, row, space, companion } = profile.wheelchair;
      const spaceName = new RegExp(`^${section}, row ${row}, seat ${space},.*wheelchair space`);
      const companionName = new RegExp(`^${section}, row ${row}, seat ${companion},.*companion seat`);

      buyer.check(spaceName).check(companionName);
      await buyer.press("Reserve selected seats");
      expect(alertText(buyer)).toContain("Please tick the box to confirm you're booking for one.");
      // Refused: nothing is held.
      await buyer.open(tickets);
      expect(queryByRole(buyer.document.body, "table", { name: "Your tickets" })).toBeNull();

      buyer
        .check("I'm booking a wheelchair space for a wheelchair user, or a companion seat beside one", "#seat-map-form")
        .check(spaceName)
        .check(companionName);
      await buyer.press("Reserve selected seats");
      expect(basketText(buyer)).toContain(`${section}, row ${row}, seat ${space} (wheelchair space)`);
      expect(basketText(buyer)).toContain(`${section}, row ${row}, seat ${companion} (companion seat)`);
    });

    it("books three standing places", async () => {
      const buyer = buyerFor();
      await goodPerformance(buyer, profile.standing, 3);
      buyer.select(/^Standing floor/, "3");
      await buyer.press("Reserve places");
      expect(basketText(buyer)).toContain("Standing floor, 3 places");
    });

    it("a group over the seat limit reads the limit and who to call", async () => {
      const buyer = buyerFor();
      await goodPerformance(buyer, profile.best.calendar, 1);
      buyer.select("Number of seats", `More than ${profile.limit.count}`);
      await buyer.press("Find seats");
      expect(buyer.document.title).toMatch(/^Error: /);
      expect(alertText(buyer)).toContain(`Sorry, you can't purchase more than ${profile.limit.count} seats online.`);
      expect(buyer.text()).toContain(profile.limit.call);
    });

    it("releasing the seats asks first, then frees them", async () => {
      const buyer = buyerFor();
      const tickets = await goodPerformance(buyer, profile.seats.calendar, 3);
      const [seat] = freeSeats(buyer, profile.section, 1, 4);
      await reserve(buyer, [seat!]);
      await buyer.follow("Release seats");
      getByRole(buyer.document.body, "heading", { name: "Release your seats?" });
      await buyer.press("Yes, release my seats");
      expect(pathOf(buyer)).toMatch(/\/calendar$/);
      expect(buyer.cookies().has("basket")).toBe(false);
      await buyer.open(tickets);
      expect(seatIsFree(buyer, seatOf(seat!))).toBe(true);
    });

    it("choosing another date asks to empty the cart first", async () => {
      const buyer = buyerFor();
      const second = await goodPerformance(buyer, profile.best.calendar, 2);
      const first = await goodPerformance(buyer, profile.best.calendar, 3);
      const [seat] = freeSeats(buyer, profile.section === "Balcony" ? "Balcony" : "Circle", 1, 6);
      await reserve(buyer, [seat!]);

      await buyer.open(second);
      getByRole(buyer.document.body, "heading", { name: "Empty your cart?" });
      await buyer.press("Empty my cart");
      expect(pathOf(buyer)).toBe(second);
      expect(queryByRole(buyer.document.body, "heading", { name: "Empty your cart?" })).toBeNull();
      await buyer.open(first);
      expect(seatIsFree(buyer, seatOf(seat!))).toBe(true);
    });

    // Once, for every distinct page the journeys received: Java starts once for this file.
    it("every page the journeys received passes the Nu HTML Checker", async () => {
      await validateAllPages();
    }, 60_000);
  });
}
