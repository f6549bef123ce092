import { expect, test, waitForHydration } from "./fixtures";
import { firstPerformance } from "./seats";

// The waiting room with script (issue 20): what only a browser shows. The page asks again in the
// background instead of reloading, says where the buyer stands in a polite live region, and takes
// them on to the seats by itself when their turn comes (its own small script: decision 0051). On the second server, which lets one buyer
// in at a time (playwright.config.ts). The no-script waiting room is proven at the HTML level
// (tests/journeys/waiting-room.test.ts).

const QUEUE_ORIGIN = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 4}`;
const CALENDAR_PATH = "/shows/the-velvet-hours/foundry-hall/calendar";

test("a waiting buyer's page lets them in by itself when the buyer ahead releases their seats", async ({
  page,
  browser,
  axe,
}) => {
  // The buyer ahead, in their own browser: let in at once, holds a seat.
  const ahead = await (await browser.newContext()).newPage();
  const tickets = await firstPerformance(ahead, CALENDAR_PATH, true, QUEUE_ORIGIN);
  await ahead.goto(tickets);
  await waitForHydration(ahead);
  await ahead.getByLabel("Number of seats").selectOption("1");
  await ahead.getByRole("button", { name: "Find seats" }).click();
  await expect(ahead).toHaveURL(/\/checkout\/reservations$/);

  // This buyer waits; the page's own timers run on a clock the test moves.
  // It comes from the calendar, as buyers do: with script, the link is a navigation in the page,
  // and the tickets page's redirect to the queue loads the waiting page whole (it is not a Remix page).
  await page.clock.install();
  await page.goto(`${QUEUE_ORIGIN}${CALENDAR_PATH}`);
  await waitForHydration(page);
  await page
    .locator(`a[href="${new URL(tickets).pathname}"]`)
    .first()
    .click();
  await expect(page).toHaveURL(/\/waiting-room\?/);
  await page.clock.runFor(2_000);
  // The waiting page's own script marks the page when it runs (no React, no polyfills there).
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
  const status = page.getByRole("status").filter({ hasText: "Your place in the queue" });
  await expect(status).toHaveText(/Your place in the queue: 1 of 1/);
  await expect(status).toHaveAttribute("aria-live", "polite");
  await expect(page.getByText(/This page checks your place by itself every \d+ seconds?\./)).toBeVisible();
  await axe();

  // Asking again changes nothing while the buyer ahead holds their place: no reload, same page.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await page.clock.runFor(31_000);
  await expect(status).toHaveText(/Your place in the queue: 1 of 1/);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

  await ahead.getByRole("link", { name: "Release seats" }).click();
  await ahead.getByRole("button", { name: "Yes, release my seats" }).click();
  await expect(ahead).toHaveURL(/\/calendar/);

  // The next background check finds the turn has come and goes on to the seats by itself.
  await page.clock.runFor(31_000);
  await expect(page).toHaveURL(tickets);
  await expect(page.getByRole("button", { name: "Find seats" })).toBeVisible();
  await ahead.context().close();
});
