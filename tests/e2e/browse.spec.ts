import { expect, test, waitForHydration } from "./fixtures";
import { freeSeats, reserveSeats, seatName } from "./seats";

// The browse journey in a real browser, once with script and once without (the smoke journey of
// this area): every other browsing page and state is proven at the HTML level, in both languages,
// by tests/journeys/browse.test.ts. It runs on the Harbour Playhouse (900 seats): the 2,341-seat
// map has a test of its own (reserve.spec.ts).

test("@smoke a buyer finds a show, filters its calendar, picks two seats and continues to the checkout", async ({
  page,
  visit,
  axe,
  javaScriptEnabled,
}) => {
  await visit("/");
  await page.getByRole("link", { name: "A Winter's Crossing at Harbour Playhouse, Bristol" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "A Winter's Crossing" })).toBeVisible();
  await page.getByRole("link", { name: "Choose a date" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date" })).toBeVisible();
  if (javaScriptEnabled) await waitForHydration(page);

  // With script the filter is applied without a full page load; without, by the form's GET.
  await page.getByLabel("Number of seats").selectOption("2");
  await page.getByLabel("Part of the house").selectOption({ label: "Circle" });
  await page.getByRole("button", { name: "Update availability" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Showing availability for" })).toContainText(
    "Showing availability for 2 seats in the Circle",
  );
  await expect(page).toHaveURL(/[?&]seats=2/);
  await axe();

  const link = page.locator('a[href*="/tickets/"]', { hasText: "Good availability" }).first();
  await link.click();
  await expect(page.getByRole("heading", { level: 1, name: "Select your tickets" })).toBeVisible();
  if (javaScriptEnabled) await waitForHydration(page);
  await axe();

  // With script each tick reserves at once (the basket updates in place); without, the button does.
  const seats = await freeSeats(page, "Circle", 2, javaScriptEnabled);
  const names = await Promise.all(seats.map(seatName));
  await reserveSeats(page, javaScriptEnabled, seats);
  const basket = page.getByRole("table", { name: "Your tickets" });
  for (const name of names) await expect(basket).toContainText(name);
  await expect(page.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
  await page.getByLabel("I have read this notice").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/extras$/);
  await expect(page.getByRole("complementary", { name: "Your reservation" })).toContainText(
    "2 tickets for A Winter's Crossing",
  );
  await axe();
});
