import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";

// From a performance's seats to held tickets, with script and without: the seat map, best
// available, wheelchair spaces, standing places, the seat limit, and the reservation's clock and
// confirmations. The two projects run side by side against one server, so each picks its own seats.

const SHORT_HOLD_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 1}`;

/** The tickets page of a show's first performance on sale, reached through its calendar. */
async function firstPerformance(page: Page, calendar: string, javaScriptEnabled: boolean, base = "") {
  await page.goto(`${base}${calendar}`);
  if (javaScriptEnabled) await waitForHydration(page);
  const href = await page.locator('a[href*="/tickets/"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  return `${base}${href!}`;
}

function seat(page: Page, section: string, row: string, number: number) {
  return page.getByRole("checkbox", { name: new RegExp(`^${section}, row ${row}, seat ${number},`) });
}

/** Ticks seats and reserves them: with script each tick reserves at once; without, the button does. */
async function reserveSeats(page: Page, javaScriptEnabled: boolean, seats: ReturnType<typeof seat>[]) {
  for (const box of seats) {
    await box.check();
    if (javaScriptEnabled) await expect(page.getByRole("region", { name: "Your reservation" })).toBeVisible();
  }
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Reserve selected seats" }).click();
}

test("picks two seats on the seat map, continues, and sees the hold countdown", async ({
  page,
  visit,
  axe,
  javaScriptEnabled,
}) => {
  const tickets = await firstPerformance(page, "/shows/the-lantern-keeper/regent-palace/calendar", javaScriptEnabled);
  await visit(tickets);
  const row = javaScriptEnabled ? "F" : "G";
  await reserveSeats(page, javaScriptEnabled, [seat(page, "Stalls", row, 12), seat(page, "Stalls", row, 13)]);
  await expect(page.getByRole("table", { name: "Your tickets" })).toContainText(`Stalls, row ${row}, seat 12`);
  await expect(page.getByRole("table", { name: "Your tickets" })).toContainText(`Stalls, row ${row}, seat 13`);
  await expect(page.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
  await axe();
  // The Lantern Keeper asks buyers to read its admission message before going on.
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveTitle(/^Error: /);
  await expect(page.getByRole("alert").first()).toContainText("Please confirm you have read the admission information");
  await page.getByLabel("I have read the admission information").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/extras$/);
  await expect(page.getByRole("complementary", { name: "Your reservation" })).toContainText("2 tickets for The Lantern Keeper");
  await expect(page.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
  await axe();
});

test("best available finds four seats together, and the buyer accepts them", async ({
  page,
  visit,
  javaScriptEnabled,
}) => {
  const tickets = await firstPerformance(page, "/shows/sunday-gala-concerts/regent-palace/calendar", javaScriptEnabled);
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

test("a wheelchair user books a wheelchair space and a companion seat", async ({ page, visit, javaScriptEnabled }) => {
  const tickets = await firstPerformance(page, "/shows/sunday-gala-concerts/regent-palace/calendar", javaScriptEnabled);
  await visit(tickets);
  const [space, companion] = javaScriptEnabled ? [1, 2] : [40, 39];
  await page.locator("#map-access").check();
  await page.getByRole("checkbox", { name: new RegExp(`^Stalls, row Z, seat ${space},.*wheelchair space`) }).check();
  await page.getByRole("checkbox", { name: new RegExp(`^Stalls, row Z, seat ${companion},.*companion seat`) }).check();
  await page.getByRole("button", { name: "Reserve selected seats" }).click();
  const basket = page.getByRole("table", { name: "Your tickets" });
  await expect(basket).toContainText(`Stalls, row Z, seat ${space} (wheelchair space)`);
  await expect(basket).toContainText(`Stalls, row Z, seat ${companion} (companion seat)`);
  await visit(page.url());
});

test("a wheelchair space needs the access declaration", async ({ page, visit, javaScriptEnabled }) => {
  const tickets = await firstPerformance(page, "/shows/sunday-gala-concerts/regent-palace/calendar", javaScriptEnabled);
  await visit(tickets);
  const space = page.getByRole("checkbox", { name: /^Stalls, row Z, seat 20,.*wheelchair space/ });
  await space.click();
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Reserve selected seats" }).click();
  await expect(page.getByRole("alert").first()).toContainText("Please tick the box");
  // Refused: the space is not the buyer's.
  await expect(space).not.toBeChecked();
});

test("books three standing places", async ({ page, visit, javaScriptEnabled }) => {
  const tickets = await firstPerformance(page, "/shows/northern-static/foundry-hall/calendar", javaScriptEnabled);
  await visit(tickets);
  await page.getByLabel(/^Standing floor/).selectOption("3");
  await page.getByRole("button", { name: "Reserve places" }).click();
  await expect(page.getByRole("table", { name: "Your tickets" })).toContainText("Standing floor, 3 places");
  await visit(page.url());
});

test("a group over the seat limit reads the limit and who to call", async ({ page, visit, javaScriptEnabled }) => {
  const tickets = await firstPerformance(page, "/shows/sunday-gala-concerts/regent-palace/calendar", javaScriptEnabled);
  await visit(tickets);
  await page.getByLabel("Number of seats").selectOption({ label: "More than 6" });
  await page.getByRole("button", { name: "Find seats" }).click();
  await expect(page.getByRole("alert").first()).toContainText("Sorry, you can't purchase more than 6 seats online.");
  await expect(page.getByText("For groups of more than 6, please call the box office on 020 7946 0101.")).toBeVisible();
  await expect(page).toHaveTitle(/^Error: /);
  await visit(page.url());
});

test("releasing the seats asks first", async ({ page, visit, axe, javaScriptEnabled }) => {
  const tickets = await firstPerformance(page, "/shows/the-lantern-keeper/regent-palace/calendar", javaScriptEnabled);
  await visit(tickets);
  const row = javaScriptEnabled ? "H" : "J";
  await reserveSeats(page, javaScriptEnabled, [seat(page, "Stalls", row, 20)]);
  await page.getByRole("link", { name: "Release seats" }).click();
  await expect(page.getByRole("heading", { name: "Release your seats?" })).toBeVisible();
  await axe();
  await page.getByRole("button", { name: "Yes, release my seats" }).click();
  await expect(page).toHaveURL(/\/calendar$/);
  await page.goto(tickets);
  await expect(seat(page, "Stalls", row, 20)).toBeEnabled();
  await expect(seat(page, "Stalls", row, 20)).not.toBeChecked();
});

test("choosing another date asks to empty the cart first", async ({ page, visit, axe, javaScriptEnabled }) => {
  await page.goto("/shows/the-lantern-keeper/regent-palace/calendar");
  const links = page.locator('a[href*="/tickets/"]');
  const [first, second] = [await links.nth(0).getAttribute("href"), await links.nth(1).getAttribute("href")];
  await visit(first!);
  const row = javaScriptEnabled ? "K" : "L";
  await reserveSeats(page, javaScriptEnabled, [seat(page, "Stalls", row, 5)]);
  await visit(second!);
  await expect(page.getByRole("heading", { name: "Empty your cart?" })).toBeVisible();
  await axe();
  await page.getByRole("button", { name: "Empty my cart" }).click();
  await expect(page).toHaveURL(second!);
  await expect(page.getByRole("heading", { name: "Empty your cart?" })).toHaveCount(0);
  await page.goto(first!);
  await expect(seat(page, "Stalls", row, 5)).not.toBeChecked();
});

test("an expired hold says Session expired, and Reselect seats starts again", async ({
  page,
  axe,
  javaScriptEnabled,
}) => {
  test.setTimeout(120_000);
  const tickets = await firstPerformance(
    page,
    "/shows/the-lantern-keeper/regent-palace/calendar",
    javaScriptEnabled,
    SHORT_HOLD_URL,
  );
  await page.goto(tickets);
  if (javaScriptEnabled) await waitForHydration(page);
  const row = javaScriptEnabled ? "M" : "N";
  await reserveSeats(page, javaScriptEnabled, [seat(page, "Stalls", row, 8)]);
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
  await expect(seat(page, "Stalls", row, 8)).toBeEnabled();
});

test("the 2,341-seat map works from the keyboard alone", async ({ page, visit, javaScriptEnabled }) => {
  const tickets = await firstPerformance(page, "/shows/sunday-gala-concerts/regent-palace/calendar", javaScriptEnabled);
  await visit(tickets);
  const first = seat(page, "Stalls", "P", 10);
  await first.focus();
  await page.keyboard.press("Space");
  if (javaScriptEnabled) {
    // Arrow keys move between seats; each Space reserves at once.
    await expect(page.getByRole("table", { name: "Your tickets" })).toContainText("Stalls, row P, seat 10");
    await page.keyboard.press("ArrowRight");
    await expect(seat(page, "Stalls", "P", 11)).toBeFocused();
    await page.keyboard.press("Space");
    await expect(page.getByRole("table", { name: "Your tickets" })).toContainText("Stalls, row P, seat 11");
  } else {
    // Tab goes from seat to seat; the button after the map reserves them.
    await page.keyboard.press("Tab");
    await expect(seat(page, "Stalls", "P", 11)).toBeFocused();
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Reserve selected seats" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("table", { name: "Your tickets" })).toContainText("Stalls, row P, seat 11");
    await expect(page.getByRole("table", { name: "Your tickets" })).toContainText("Stalls, row P, seat 10");
  }
});

test.describe("in American English", () => {
  test.use({ locale: "en-US" });

  test("picks two seats at a US venue and sees dollars and the countdown", async ({ page, visit, javaScriptEnabled }) => {
    const tickets = await firstPerformance(page, "/shows/comedy-mondays/liberty-theatre/calendar", javaScriptEnabled);
    await visit(tickets);
    const row = javaScriptEnabled ? "F" : "G";
    await reserveSeats(page, javaScriptEnabled, [seat(page, "Orchestra", row, 3), seat(page, "Orchestra", row, 4)]);
    await expect(page.getByRole("table", { name: "Your tickets" })).toContainText("$");
    await page.getByLabel("I have read this notice").check();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/checkout\/extras$/);
    await expect(page.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
  });
});
