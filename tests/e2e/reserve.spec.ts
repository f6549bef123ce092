import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";

// From a performance's seats to held tickets, with script and without: the seat map, best
// available, wheelchair spaces, standing places, the seat limit, and the reservation's clock and
// confirmations. The two projects run side by side against one server, so each picks its own seats.

const SHORT_HOLD_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 1}`;

// A refused form answers 400 or 409, which the browser logs as a failed resource.
test.use({ expectedConsoleErrors: [/status of 40[09]/] });

/**
 * The tickets page of a show's first performance on general sale with good availability, reached
 * through its calendar (the demo sells some performances out, or nearly, on purpose).
 */
async function firstPerformance(page: Page, calendar: string, javaScriptEnabled: boolean, base = "", skip = 0) {
  await page.goto(`${base}${calendar}`);
  if (javaScriptEnabled) await waitForHydration(page);
  const links = page
    .locator('a[href*="/tickets/"]', { hasText: "Good availability" })
    .filter({ hasNotText: "Presale" });
  // A show that plays weekly may have too few good dates left this month: look on in the next.
  for (let month = 0; month < 3 && (await links.count()) <= skip; month += 1) {
    await page.getByRole("link", { name: /^Next/ }).first().click();
    await expect(page).toHaveURL(/\/calendar\/\d{4}-\d{2}-\d{2}/);
  }
  const href = await links.nth(skip).getAttribute("href");
  expect(href).toBeTruthy();
  return `${base}${href!}`;
}

/**
 * Free, unmarked seats in one part of the house: the first ones with script, the last ones
 * without, so the two projects running side by side never reach for the same seat.
 */
async function freeSeats(page: Page, section: string, count: number, javaScriptEnabled: boolean) {
  const names = await page
    .locator(`input[name="seat"]:not([disabled])`)
    .evaluateAll(
      (inputs, prefix) =>
        inputs
          .map((input) => input.getAttribute("aria-label") ?? "")
          .filter((name) => name.startsWith(prefix) && name.split(", ").length === 4),
      `${section}, row `,
    );
  const chosen = javaScriptEnabled ? names.slice(0, count) : names.slice(-count);
  expect(chosen).toHaveLength(count);
  return chosen.map((name) => page.getByRole("checkbox", { name, exact: true }));
}

/** "Stalls, row F, seat 12, £65.00" → "Stalls, row F, seat 12" */
const seatName = async (box: ReturnType<Page["getByRole"]>) =>
  ((await box.getAttribute("aria-label")) ?? "").split(", ").slice(0, 3).join(", ");

/** Ticks seats and reserves them: with script each tick reserves at once; without, the button does. */
async function reserveSeats(page: Page, javaScriptEnabled: boolean, seats: ReturnType<Page["getByRole"]>[]) {
  for (const box of seats) {
    const name = await seatName(box);
    await box.check();
    if (javaScriptEnabled) await expect(page.getByRole("table", { name: "Your tickets" })).toContainText(name);
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
  const seats = await freeSeats(page, "Stalls", 2, javaScriptEnabled);
  const names = await Promise.all(seats.map(seatName));
  await reserveSeats(page, javaScriptEnabled, seats);
  for (const name of names) await expect(page.getByRole("table", { name: "Your tickets" })).toContainText(name);
  await expect(page.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
  await axe();
  // The Lantern Keeper asks buyers to read its admission message before going on.
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveTitle(/^Error: /);
  await expect(page.getByRole("alert").first()).toContainText("Please confirm you have read the admission information");
  await page.getByLabel("I have read the admission information").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/extras$/);
  await expect(page.getByRole("complementary", { name: "Your reservation" })).toContainText(
    "2 tickets for The Lantern Keeper",
  );
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

test("books three standing places", async ({ page, visit, javaScriptEnabled }) => {
  const tickets = await firstPerformance(page, "/shows/northern-static/foundry-hall/calendar", javaScriptEnabled);
  await visit(tickets);
  await page.getByLabel(/^Standing floor/).selectOption("3");
  await page.getByRole("button", { name: "Reserve places" }).click();
  await expect(page.getByRole("table", { name: "Your tickets" })).toContainText("Standing floor, 3 places");
  await visit(page.url());
});

test("a group over the seat limit reads the limit and who to call", async ({ page, visit, axe, javaScriptEnabled }) => {
  const tickets = await firstPerformance(page, "/shows/sunday-gala-concerts/regent-palace/calendar", javaScriptEnabled);
  await visit(tickets);
  await page.getByLabel("Number of seats").selectOption({ label: "More than 6" });
  await page.getByRole("button", { name: "Find seats" }).click();
  await expect(page.getByRole("alert").first()).toContainText("Sorry, you can't purchase more than 6 seats online.");
  await expect(page.getByText("For groups of more than 6, please call the box office on 020 7946 0101.")).toBeVisible();
  await expect(page).toHaveTitle(/^Error: /);
  await axe();
});

test("releasing the seats asks first", async ({ page, visit, axe, javaScriptEnabled }) => {
  const tickets = await firstPerformance(page, "/shows/the-lantern-keeper/regent-palace/calendar", javaScriptEnabled);
  await visit(tickets);
  const [box] = await freeSeats(page, "Royal Circle", 1, javaScriptEnabled);
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
  const calendar = "/shows/the-lantern-keeper/regent-palace/calendar";
  const first = await firstPerformance(page, calendar, javaScriptEnabled);
  const second = await firstPerformance(page, calendar, javaScriptEnabled, "", 1);
  await visit(first);
  const [box] = await freeSeats(page, "Grand Circle", 1, javaScriptEnabled);
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
  const tickets = await firstPerformance(
    page,
    "/shows/the-lantern-keeper/regent-palace/calendar",
    javaScriptEnabled,
    SHORT_HOLD_URL,
  );
  await page.goto(tickets);
  if (javaScriptEnabled) await waitForHydration(page);
  const [box] = await freeSeats(page, "Stalls", 1, javaScriptEnabled);
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

test.describe("in American English", () => {
  test.use({ locale: "en-US" });

  test("picks two seats at a US venue and sees dollars and the countdown", async ({
    page,
    visit,
    javaScriptEnabled,
  }) => {
    const tickets = await firstPerformance(page, "/shows/comedy-mondays/liberty-theatre/calendar", javaScriptEnabled);
    await visit(tickets);
    await reserveSeats(page, javaScriptEnabled, await freeSeats(page, "Orchestra", 2, javaScriptEnabled));
    await expect(page.getByRole("table", { name: "Your tickets" })).toContainText("$");
    await page.getByLabel("I have read this notice").check();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/checkout\/extras$/);
    await expect(page.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
  });
});
