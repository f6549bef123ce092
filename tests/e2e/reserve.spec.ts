import { expect, test, waitForHydration } from "./fixtures";
import { firstPerformance, freeSeats, reserveSeats, seatName } from "./seats";

// Holding seats in a real browser. The smoke journey runs with script and without; the rest is
// what only script does: the countdown's announcements, warning and Session expired dialog (on
// the browser's own fake clock, so no test waits for real minutes), the release and empty-cart
// dialogs, and the seat map's arrow keys on the largest map. Every no-script reservation journey
// is proven at the HTML level by tests/journeys/reserve.test.ts, in both languages.

// A refused form answers 400 or 409, which the browser logs as a failed resource.
test.use({ expectedConsoleErrors: [/status of 40[09]/] });

const FOUNDRY = "/shows/northern-static/foundry-hall/calendar";
const HARBOUR = "/shows/the-tide-tables/harbour-playhouse/calendar";

test.describe("in US English", () => {
  test.use({ locale: "en-US" });

  test("@smoke picks two balcony seats, continues, and releases them after asking first", async ({
    page,
    visit,
    axe,
    javaScriptEnabled,
  }) => {
    const tickets = await firstPerformance(page, FOUNDRY, javaScriptEnabled);
    await visit(tickets);
    const seats = await freeSeats(page, "Balcony", 2, javaScriptEnabled);
    const names = await Promise.all(seats.map(seatName));
    await reserveSeats(page, javaScriptEnabled, seats);
    const basket = page.getByRole("table", { name: "Your tickets" });
    for (const name of names) await expect(basket).toContainText(name);
    await expect(basket).toContainText("$");
    await page.getByLabel("I have read the admission information").check();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/checkout\/extras$/);
    await expect(page.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
    if (javaScriptEnabled) await waitForHydration(page);

    // With script the question is a modal dialog over the page; without, a page of its own.
    await page.getByRole("link", { name: "Release seats" }).click();
    if (javaScriptEnabled) await expect(page.getByRole("dialog", { name: "Release your seats?" })).toBeVisible();
    else await expect(page.getByRole("heading", { name: "Release your seats?" })).toBeVisible();
    await axe();
    await page.getByRole("button", { name: "Yes, release my seats" }).click();
    await expect(page).toHaveURL(/\/calendar$/);
    await page.goto(tickets);
    for (const name of names) await expect(page.getByRole("checkbox", { name: new RegExp(`^${name},`) })).toBeEnabled();
  });
});

test("@js the countdown announces each minute, warns two minutes before the end, and says Session expired at zero", async ({
  page,
  axe,
}) => {
  // The page counts down from what the server said, on the browser's clock: installed here, it
  // moves only when the test moves it.
  await page.clock.install();
  const tickets = await firstPerformance(page, HARBOUR, true);
  await page.goto(tickets);
  await waitForHydration(page);
  const [box] = await freeSeats(page, "Stalls", 1, true);
  const name = await seatName(box!);
  await reserveSeats(page, true, [box!]);
  const timer = page.getByRole("timer");
  await expect(timer).toHaveText(/^1[45]:\d\d$/);

  await page.clock.fastForward(61_000);
  await expect(timer).toHaveText(/^1[34]:\d\d$/);
  await expect(page.getByText(/^1[34] minutes left to complete your booking$/)).toBeAttached();

  // A key pressed now and then keeps the buyer from being idle (the next test is about that).
  await page.clock.fastForward(8 * 60_000);
  await page.keyboard.press("Shift");
  await expect(timer).toHaveText(/^[56]:\d\d$/);
  await page.clock.fastForward(5 * 60_000);
  const warning = page.getByRole("status").filter({ hasText: "Your seats will be released in less than 2 minutes." });
  await expect(warning).toBeVisible();
  await expect(warning.getByRole("button", { name: "Extend" })).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Are you still there?" })).toHaveCount(0);
  await axe();

  await page.clock.fastForward(2 * 60_000);
  const expired = page.getByRole("alertdialog", { name: "Session expired" });
  await expect(expired).toBeVisible();
  await expect(expired).toContainText("Your session has timed out.");
  await axe();
  await expired.getByRole("button", { name: "Reselect seats" }).click();
  await expect(page).toHaveURL(tickets);
  await expect(page.getByRole("alertdialog", { name: "Session expired" })).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: new RegExp(`^${name},`) })).not.toBeChecked();
});

test("@js after ten idle minutes the page offers to refresh availability", async ({ page, axe }) => {
  await page.clock.install();
  const tickets = await firstPerformance(page, HARBOUR, true, "", 4);
  await page.goto(tickets);
  await waitForHydration(page);
  await reserveSeats(page, true, await freeSeats(page, "Circle", 1, true, 2));
  await expect(page.getByRole("timer")).toHaveText(/^1[45]:\d\d$/);
  await page.clock.fastForward(10 * 60_000);
  const idle = page.getByRole("dialog", { name: "Are you still there?" });
  await expect(idle).toBeVisible();
  await expect(idle).toContainText("Seat availability may have changed while you were away.");
  await axe();
  await idle.getByRole("button", { name: "Refresh" }).click();
  await expect(idle).toHaveCount(0);
  await expect(page.getByRole("timer")).toHaveText(/^\d+:\d\d$/);
});

test("@js choosing another date asks, in a dialog, to empty the cart first", async ({ page, axe }) => {
  const first = await firstPerformance(page, HARBOUR, true, "", 1);
  const second = await firstPerformance(page, HARBOUR, true, "", 2);
  await page.goto(first);
  await waitForHydration(page);
  const [box] = await freeSeats(page, "Circle", 1, true);
  const name = await seatName(box!);
  await reserveSeats(page, true, [box!]);
  await page.goto(second);
  await waitForHydration(page);
  const dialog = page.getByRole("dialog", { name: "Empty your cart?" });
  await expect(dialog).toBeVisible();
  await axe();
  await dialog.getByRole("button", { name: "Empty my cart" }).click();
  await expect(page).toHaveURL(second);
  await expect(page.getByRole("dialog", { name: "Empty your cart?" })).toHaveCount(0);
  await page.goto(first);
  await expect(page.getByRole("checkbox", { name: new RegExp(`^${name},`) })).not.toBeChecked();
});

test("@js a seat ticked while the first tick is still on its way is held too", async ({ page, visit }) => {
  const tickets = await firstPerformance(page, HARBOUR, true, "", 3);
  await visit(tickets);
  const [first, second] = await freeSeats(page, "Stalls", 2, true, 6);
  const names = [await seatName(first!), await seatName(second!)];
  // The first tick's answer is held back until the second tick has been made, so the second comes
  // while the first is on its way (tests/unit/seat-submissions.test.tsx shows the order the page
  // sends them in). Released by the test, not by a clock.
  let release!: () => void;
  const answered = new Promise<void>((resolve) => (release = resolve));
  let posts = 0;
  await page.route(
    (url) => url.pathname === tickets,
    async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      posts += 1;
      if (posts > 1) return route.continue();
      const response = await route.fetch();
      await answered;
      await route.fulfill({ response });
    },
  );
  const firstSent = page.waitForRequest((request) => request.method() === "POST");
  await first!.check();
  await firstSent;
  await second!.check();
  release();
  const basket = page.getByRole("table", { name: "Your tickets" });
  for (const name of names) await expect(basket).toContainText(name);
  // The server holds both (not just this page's idea of them).
  await page.unrouteAll({ behavior: "ignoreErrors" });
  await page.reload();
  for (const name of names) await expect(basket).toContainText(name);
});

test("@js the 2,341-seat map works from the keyboard alone, and passes axe", async ({ page, visit }) => {
  // The one test that opens the largest map: the Regent Palace, 2,341 seats.
  const tickets = await firstPerformance(page, "/shows/sunday-gala-concerts/regent-palace/calendar", true);
  await visit(tickets);
  const [first] = await freeSeats(page, "Royal Circle", 1, true);
  const basket = page.getByRole("table", { name: "Your tickets" });
  await first!.focus();
  // Each Space reserves at once; arrow keys move to the next seat.
  await page.keyboard.press("Space");
  await expect(basket).toContainText(await seatName(first!));
  await page.keyboard.press("ArrowRight");
  const next = await page.evaluate(() => (document.activeElement as HTMLInputElement).labels?.[0]?.textContent ?? "");
  expect(next).toMatch(/^Royal Circle, row /);
  expect(next.split(", ").slice(0, 3).join(", ")).not.toBe(await seatName(first!));
  await page.keyboard.press("Space");
  await expect(basket).toContainText(next.split(", ").slice(0, 3).join(", "));
  await expect(basket).toContainText(await seatName(first!));
});
