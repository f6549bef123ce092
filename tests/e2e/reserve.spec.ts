import { expect, test, waitForHydration } from "./fixtures";
import { firstPerformance, freeSeats, reserveSeats, seatName } from "./seats";

// From a performance's seats to held tickets, with script and without: the seat map, best
// available, wheelchair spaces, standing places, the seat limit, and the reservation's clock and
// confirmations. The two projects run side by side against one server, so each picks its own seats.

const SHORT_HOLD_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 1}`;

// A refused form answers 400 or 409, which the browser logs as a failed resource.
test.use({ expectedConsoleErrors: [/status of 40[09]/] });

/** What the journeys need to know of a deployment's demo shows, one per language. */
const PROFILES = [
  {
    locale: "en-GB",
    // Two seats, then Continue: the show asks buyers to read its admission message first.
    seats: {
      calendar: "/shows/the-lantern-keeper/regent-palace/calendar",
      section: "Stalls",
      show: "The Lantern Keeper",
    },
    acknowledge: {
      error: "Please confirm you have read the admission information",
      box: "I have read the admission information",
    },
    release: "Royal Circle",
    emptyCart: "Grand Circle",
    // Best available, the seat limit and wheelchair spaces: a show without notices.
    best: {
      calendar: "/shows/sunday-gala-concerts/regent-palace/calendar",
      limit: 6,
      call: "please call the box office on 020 7946 0101.",
    },
    wheelchair: { section: "Stalls", row: "Z", withScript: [1, 2], withoutScript: [40, 39] },
    standing: "/shows/northern-static/foundry-hall/calendar",
    currency: "£",
  },
  {
    locale: "en-US",
    seats: { calendar: "/shows/comedy-mondays/liberty-theatre/calendar", section: "Orchestra", show: "Comedy Mondays" },
    acknowledge: { error: "Please confirm you have read the performance notice", box: "I have read this notice" },
    release: "Front Mezzanine",
    emptyCart: "Rear Mezzanine",
    best: {
      calendar: "/shows/broadway-lights/liberty-theatre/calendar",
      limit: 8,
      call: "please call the box office at (212) 555-0103.",
    },
    wheelchair: { section: "Orchestra", row: "X", withScript: [1, 2], withoutScript: [42, 41] },
    standing: "/shows/the-velvet-hours/foundry-hall/calendar",
    currency: "$",
  },
] as const;

for (const profile of PROFILES) {
  test.describe(profile.locale, () => {
    test.use({ locale: profile.locale });

    test("picks two seats on the seat map, continues, and sees the hold countdown", async ({
      page,
      visit,
      axe,
      javaScriptEnabled,
    }) => {
      const tickets = await firstPerformance(page, profile.seats.calendar, javaScriptEnabled);
      await visit(tickets);
      const seats = await freeSeats(page, profile.seats.section, 2, javaScriptEnabled);
      const names = await Promise.all(seats.map(seatName));
      await reserveSeats(page, javaScriptEnabled, seats);
      const basket = page.getByRole("table", { name: "Your tickets" });
      for (const name of names) await expect(basket).toContainText(name);
      await expect(basket).toContainText(profile.currency);
      await expect(page.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
      await axe();
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveTitle(/^Error: /);
      await expect(page.getByRole("alert").first()).toContainText(profile.acknowledge.error);
      await page.getByLabel(profile.acknowledge.box).check();
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(/\/checkout\/extras$/);
      await expect(page.getByRole("complementary", { name: "Your reservation" })).toContainText(
        `2 tickets for ${profile.seats.show}`,
      );
      await expect(page.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
      await axe();
    });

    test("best available finds four seats together, and the buyer accepts them", async ({
      page,
      visit,
      javaScriptEnabled,
    }) => {
      const tickets = await firstPerformance(page, profile.best.calendar, javaScriptEnabled);
      await visit(tickets);
      await page.getByLabel("Number of seats").selectOption("4");
      await page.getByRole("button", { name: "Find seats" }).click();
      await expect(page).toHaveURL(/\/checkout\/reservations$/);
      await expect(page.getByRole("heading", { level: 1, name: "Best available tickets" })).toBeVisible();
      await expect(page.getByRole("table", { name: "Your tickets" }).locator("tbody tr")).toHaveCount(4);
      await visit(page.url());
      await page.getByRole("button", { name: "Accept these seats" }).click();
      await expect(page).toHaveURL(/\/checkout\/extras$/);
      await expect(page.getByRole("complementary", { name: "Your reservation" })).toContainText("4 tickets");
    });

    test("a wheelchair user books a wheelchair space and a companion seat", async ({
      page,
      visit,
      javaScriptEnabled,
    }) => {
      const tickets = await firstPerformance(page, profile.best.calendar, javaScriptEnabled);
      await visit(tickets);
      const { section, row } = profile.wheelchair;
      const [space, companion] = javaScriptEnabled ? profile.wheelchair.withScript : profile.wheelchair.withoutScript;
      await page.locator("#map-access").check();
      const seat = (label: number, kind: string) =>
        page.getByRole("checkbox", { name: new RegExp(`^${section}, row ${row}, seat ${label},.*${kind}`) });
      await seat(space, "wheelchair space").check();
      await seat(companion, "companion seat").check();
      await page.getByRole("button", { name: "Reserve selected seats" }).click();
      const basket = page.getByRole("table", { name: "Your tickets" });
      await expect(basket).toContainText(`${section}, row ${row}, seat ${space} (wheelchair space)`);
      await expect(basket).toContainText(`${section}, row ${row}, seat ${companion} (companion seat)`);
      await visit(page.url());
    });

    test("books three standing places", async ({ page, visit, javaScriptEnabled }) => {
      const tickets = await firstPerformance(page, profile.standing, javaScriptEnabled);
      await visit(tickets);
      await page.getByLabel(/^Standing floor/).selectOption("3");
      await page.getByRole("button", { name: "Reserve places" }).click();
      await expect(page.getByRole("table", { name: "Your tickets" })).toContainText("Standing floor, 3 places");
      await visit(page.url());
    });

    test("a group over the seat limit reads the limit and who to call", async ({
      page,
      visit,
      axe,
      javaScriptEnabled,
    }) => {
      const { limit, call } = profile.best;
      const tickets = await firstPerformance(page, profile.best.calendar, javaScriptEnabled);
      await visit(tickets);
      await page.getByLabel("Number of seats").selectOption({ label: `More than ${limit}` });
      await page.getByRole("button", { name: "Find seats" }).click();
      await expect(page.getByRole("alert").first()).toContainText(
        `Sorry, you can't purchase more than ${limit} seats online.`,
      );
      await expect(page.getByText(`For groups of more than ${limit}, ${call}`)).toBeVisible();
      await expect(page).toHaveTitle(/^Error: /);
      await axe();
    });

    test("releasing the seats asks first", async ({ page, visit, axe, javaScriptEnabled }) => {
      const tickets = await firstPerformance(page, profile.seats.calendar, javaScriptEnabled);
      await visit(tickets);
      const [box] = await freeSeats(page, profile.release, 1, javaScriptEnabled);
      const name = await seatName(box!);
      await reserveSeats(page, javaScriptEnabled, [box!]);
      await page.getByRole("link", { name: "Release seats" }).click();
      await expect(page.getByRole("heading", { name: "Release your seats?" })).toBeVisible();
      await axe();
      await page.getByRole("button", { name: "Yes, release my seats" }).click();
      await expect(page).toHaveURL(/\/calendar$/);
      await page.goto(tickets);
      const again = page.getByRole("checkbox", { name: new RegExp(`^${name},`) });
      await expect(again).toBeEnabled();
      await expect(again).not.toBeChecked();
    });

    test("choosing another date asks to empty the cart first", async ({ page, visit, axe, javaScriptEnabled }) => {
      const first = await firstPerformance(page, profile.seats.calendar, javaScriptEnabled);
      const second = await firstPerformance(page, profile.seats.calendar, javaScriptEnabled, "", 1);
      await visit(first);
      // Offset past the seats the browse journey takes in the same part of the house.
      const [box] = await freeSeats(page, profile.emptyCart, 1, javaScriptEnabled, 4);
      const name = await seatName(box!);
      await reserveSeats(page, javaScriptEnabled, [box!]);
      await visit(second);
      await expect(page.getByRole("heading", { name: "Empty your cart?" })).toBeVisible();
      await axe();
      await page.getByRole("button", { name: "Empty my cart" }).click();
      await expect(page).toHaveURL(second);
      await expect(page.getByRole("heading", { name: "Empty your cart?" })).toHaveCount(0);
      await page.goto(first);
      await expect(page.getByRole("checkbox", { name: new RegExp(`^${name},`) })).not.toBeChecked();
    });

    test("an expired hold says Session expired, and Reselect seats starts again", async ({
      page,
      axe,
      javaScriptEnabled,
    }) => {
      test.setTimeout(180_000);
      const tickets = await firstPerformance(page, profile.seats.calendar, javaScriptEnabled, SHORT_HOLD_URL);
      await page.goto(tickets);
      if (javaScriptEnabled) await waitForHydration(page);
      const [box] = await freeSeats(page, profile.seats.section, 1, javaScriptEnabled);
      const name = await seatName(box!);
      await reserveSeats(page, javaScriptEnabled, [box!]);
      await expect(page.getByRole("timer")).toHaveText(/^[01]:\d\d$/);
      // With script the countdown reaches zero by itself; without, the next page load says so.
      if (!javaScriptEnabled) {
        await page.waitForTimeout(61_000);
        await page.reload();
      }
      await expect(page.getByRole("heading", { name: "Session expired" })).toBeVisible({ timeout: 70_000 });
      await expect(page.getByText("Your session has timed out.").first()).toBeVisible();
      await expect(page.getByRole("button", { name: "Reservation expired" })).toBeDisabled();
      await axe();
      await page.getByRole("button", { name: "Reselect seats" }).click();
      await expect(page).toHaveURL(tickets);
      await expect(page.getByRole("heading", { name: "Session expired" })).toHaveCount(0);
      await expect(page.getByRole("checkbox", { name: new RegExp(`^${name},`) })).toBeEnabled();
    });
  });
}

test("a wheelchair space needs the access declaration", async ({ page, visit, javaScriptEnabled }) => {
  const tickets = await firstPerformance(
    page,
    "/shows/sunday-gala-concerts/regent-palace/calendar",
    javaScriptEnabled,
    "",
    1,
  );
  await visit(tickets);
  const space = page.getByRole("checkbox", {
    name: new RegExp(`^Stalls, row Z, seat ${javaScriptEnabled ? 20 : 1},.*wheelchair space`),
  });
  await space.click();
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Reserve selected seats" }).click();
  await expect(page.getByRole("alert").first()).toContainText("Please tick the box");
  // Refused: the space is not the buyer's.
  await expect(space).not.toBeChecked();
});

test("the 2,341-seat map works from the keyboard alone", async ({ page, visit, javaScriptEnabled }) => {
  const tickets = await firstPerformance(
    page,
    "/shows/sunday-gala-concerts/regent-palace/calendar",
    javaScriptEnabled,
    "",
    2,
  );
  await visit(tickets);
  const [first] = await freeSeats(page, "Royal Circle", 1, javaScriptEnabled);
  const basket = page.getByRole("table", { name: "Your tickets" });
  await first!.focus();
  await page.keyboard.press("Space");
  const focusedSeat = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? "");
  if (javaScriptEnabled) {
    // Each Space reserves at once; arrow keys move to the next seat.
    await expect(basket).toContainText(await seatName(first!));
    await page.keyboard.press("ArrowRight");
  } else {
    // Tab goes from seat to seat; the button after the map reserves them.
    await page.keyboard.press("Tab");
  }
  const next = await focusedSeat();
  expect(next).toMatch(/^Royal Circle, row /);
  expect(next).not.toBe(await first!.getAttribute("aria-label"));
  await page.keyboard.press("Space");
  if (!javaScriptEnabled) {
    await page.getByRole("button", { name: "Reserve selected seats" }).focus();
    await page.keyboard.press("Enter");
  }
  await expect(basket).toContainText(next.split(", ").slice(0, 3).join(", "));
  await expect(basket).toContainText(await seatName(first!));
});
