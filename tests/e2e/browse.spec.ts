import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { freeSeats, goToLastMonth, reserveSeats, seatName } from "./seats";

// The demo catalogue, loaded when the server starts: every show's first performance is tomorrow,
// so which month the calendar opens on depends on the day the suite runs. The journeys choose
// from what the page offers rather than from fixed dates.

/** Chooses 2 seats in a part of the house between its lowest and a higher price, and applies it. */
async function filterCalendar(page: Page, section: string) {
  await page.getByLabel("Number of seats").selectOption("2");
  await page.getByLabel("Part of the house").selectOption({ label: section });
  const prices = (await page.getByLabel("Price from").locator("option").allTextContents()).slice(1);
  expect(prices.length).toBeGreaterThan(0);
  const [from, to] = [prices[0]!, prices[Math.min(2, prices.length - 1)]!];
  await page.getByLabel("Price from").selectOption({ label: from });
  await page.getByLabel("Price up to").selectOption({ label: to });
  await page.getByRole("button", { name: "Update availability" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Showing availability for" })).toHaveText(
    `Showing availability for 2 seats in the ${section} from ${from} to ${to}`,
  );
  await expect(page).toHaveURL(/[?&]seats=2/);
  // The form shows the choices it applied.
  await expect(page.getByLabel("Number of seats")).toHaveValue("2");
  await expect(page.getByLabel("Part of the house").locator("option:checked")).toHaveText(section);
  return { from, to };
}

/** Follows the first date that can be booked, moving on a month if this one has none left. */
async function followFirstDate(page: Page) {
  const calendar = page.getByRole("table");
  for (let months = 0; months < 4; months += 1) {
    const bookable = calendar.locator("a.calendar-performance");
    if ((await bookable.count()) > 0) {
      await bookable.first().click();
      return;
    }
    const month = (await page.locator("caption").textContent())!;
    await page.getByRole("link", { name: /^Next:/ }).click();
    await expect(page.locator("caption")).not.toHaveText(month);
  }
  throw new Error("no bookable date in four months");
}

test("a buyer finds a show, filters its calendar, picks two seats, continues and sees the hold countdown", async ({
  page,
  visit,
  axe,
  javaScriptEnabled,
}) => {
  await visit("/");
  await page.getByRole("link", { name: "The Lantern Keeper at Regent Palace Theatre, London" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "The Lantern Keeper" })).toBeVisible();
  await expect(page).toHaveTitle("The Lantern Keeper – Regent Palace Theatre");
  await expect(page.getByText("8 and up")).toBeVisible();
  await expect(page.getByText("165 minutes")).toBeVisible();
  await expect(page.locator("address")).toContainText("12 Regent Colonnade");
  await expect(page.locator("address")).toContainText("London W1B 5TR");
  // The demo sells out the fourth performance: it says so in words, and offers no link.
  const next = page.locator(".show__performances li");
  await expect(next).toHaveCount(5);
  await expect(next.nth(3)).toContainText("Sold out");
  await expect(next.nth(3).getByRole("link")).toHaveCount(0);
  await expect(next.first().getByRole("link")).toContainText("Low availability");
  await axe();

  await page.getByRole("link", { name: "Choose a date" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date" })).toBeVisible();
  const calendar = page.getByRole("table");
  await expect(calendar.locator("caption")).toHaveText(/^[A-Z][a-z]+ \d{4}$/);
  await expect(calendar.getByRole("columnheader")).toHaveCount(7);
  await expect(calendar.getByRole("columnheader").first()).toHaveText(/Monday/);
  await expect(calendar.locator(".calendar-performance").first()).toContainText(
    /Good availability|Medium availability|Low availability|Sold out/,
  );
  await axe();

  await filterCalendar(page, "Grand Circle");
  await axe();

  await followFirstDate(page);
  await expect(page.getByRole("heading", { level: 1, name: "Select your tickets" })).toBeVisible();
  await expect(page).toHaveURL(/\/shows\/the-lantern-keeper\/regent-palace\/tickets\/[0-9A-F-]{36}$/);
  if (javaScriptEnabled) await waitForHydration(page);
  await axe();

  // Two seats in the part of the house the buyer filtered for, then on to the checkout.
  const seats = await freeSeats(page, "Grand Circle", 2, javaScriptEnabled);
  const names = await Promise.all(seats.map(seatName));
  await reserveSeats(page, javaScriptEnabled, seats);
  for (const name of names) await expect(page.getByRole("table", { name: "Your tickets" })).toContainText(name);
  await page.getByLabel("I have read the admission information").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/extras$/);
  await expect(page.getByRole("complementary", { name: "Your reservation" })).toContainText("2 tickets");
  await expect(page.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
  await axe();
});

test("a promo link applies its code and opens presale; a bad one says so and leaves the calendar usable", async ({
  page,
  visit,
  axe,
}) => {
  await visit("/shows/the-lantern-keeper/regent-palace/calendar?pc=earlybird");
  const banner = page.getByRole("status").filter({ hasText: "Promo code applied" });
  await expect(banner).toContainText("EARLYBIRD: Book presale performances before general sale");

  // The last weeks of the run are in presale: bookable now with this code.
  await goToLastMonth(page);
  await expect(page.getByText("Your promo code lets you book presale performances now")).toBeVisible();
  await expect(page.locator("a.calendar-performance", { hasText: "Presale" }).first()).toBeVisible();
  await axe();

  await visit("/shows/the-lantern-keeper/regent-palace/calendar?pc=SUMMER2025");
  await expect(page.getByRole("status").filter({ hasText: "Sorry" })).toHaveText(
    "Sorry, the promo code you used is invalid or has expired",
  );
  await expect(page.locator("a.calendar-performance").first()).toBeVisible();

  await visit("/shows/the-lantern-keeper/regent-palace/calendar?pc=BROADWAY25");
  await expect(page.getByRole("status").filter({ hasText: "Promo code" })).toHaveText(
    "Promo code is not valid for this event",
  );
});

test("without a code, presale performances say who can book them", async ({ page, visit }) => {
  await visit("/shows/broadway-lights/liberty-theatre/calendar");
  await goToLastMonth(page);
  await expect(page.getByText("Members and promo code holders can book now")).toBeVisible();
  // They still lead to the tickets page, which offers membership or a code.
  await expect(page.locator("a.calendar-performance", { hasText: "Presale" }).first()).toBeVisible();
});

test("a venue page gives its address and what is on there", async ({ page, visit }) => {
  await visit("/venues/foundry-hall");
  await expect(page.getByRole("heading", { level: 1, name: "Foundry Hall" })).toBeVisible();
  await expect(page.locator("address")).toContainText("1800 South Foundry Street");
  await expect(page.locator("address")).toContainText("Chicago IL 60616");
  await expect(page.getByRole("heading", { level: 3, name: "Northern Static" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "The Lantern Keeper" })).toHaveCount(0);
});

test.describe("in US English", () => {
  test.use({ locale: "en-US" });

  test("a buyer finds a Broadway show, filters by dollar prices, picks two seats and sees the countdown", async ({
    page,
    visit,
    axe,
    javaScriptEnabled,
  }) => {
    await visit("/");
    await page.getByRole("link", { name: "Broadway Lights at Liberty Theatre, New York" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Broadway Lights" })).toBeVisible();
    await expect(page.locator("address")).toContainText("New York NY 10036");
    await axe();

    await page.getByRole("link", { name: "Choose a date" }).click();
    const calendar = page.getByRole("table");
    // US calendars start the week on Sunday, and times are on the 12-hour clock.
    await expect(calendar.getByRole("columnheader").first()).toHaveText(/Sunday/);
    await expect(calendar.locator(".calendar-performance__time").first()).toHaveText(/^\d{1,2}:\d{2}\s?[AP]M$/);
    await axe();

    const { from } = await filterCalendar(page, "Orchestra");
    expect(from).toMatch(/^\$\d+\.\d{2}$/);
    await axe();

    await followFirstDate(page);
    await expect(page.getByRole("heading", { level: 1, name: "Select your tickets" })).toBeVisible();
    if (javaScriptEnabled) await waitForHydration(page);
    await axe();

    await reserveSeats(page, javaScriptEnabled, await freeSeats(page, "Orchestra", 2, javaScriptEnabled));
    await expect(page.getByRole("table", { name: "Your tickets" })).toContainText("$");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/checkout\/extras$/);
    await expect(page.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
    await axe();
  });
});
