import type { Page } from "@playwright/test";
import { expect, waitForHydration } from "./fixtures";

// Finding a performance and choosing seats on its map, as the journeys of browse.spec.ts and
// reserve.spec.ts do. The two projects run side by side against one server, so each picks its own
// seats: the first free ones with script, the last ones without.

/**
 * The tickets page of a show's first performance on general sale with good availability, reached
 * through its calendar (the demo sells some performances out, or nearly, on purpose).
 */
export async function firstPerformance(page: Page, calendar: string, javaScriptEnabled: boolean, base = "", skip = 0) {
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
 * without, so the two projects running side by side never reach for the same seat. Journeys that
 * may run at once on one performance and part of the house take different offsets.
 */
export async function freeSeats(page: Page, section: string, count: number, javaScriptEnabled: boolean, offset = 0) {
  const names = await page
    .locator(`input[name="seat"]:not([disabled])`)
    .evaluateAll(
      (inputs, prefix) =>
        inputs
          .map((input) => (input as HTMLInputElement).labels?.[0]?.textContent ?? "")
          .filter((name) => name.startsWith(prefix) && name.split(", ").length === 4),
      `${section}, row `,
    );
  const chosen = javaScriptEnabled
    ? names.slice(offset, offset + count)
    : names.slice(names.length - offset - count, names.length - offset);
  expect(chosen).toHaveLength(count);
  return chosen.map((name) => page.getByRole("checkbox", { name, exact: true }));
}

/** "Stalls, row F, seat 12, £65.00" → "Stalls, row F, seat 12" */
export const seatName = async (box: ReturnType<Page["getByRole"]>) =>
  (await box.evaluate((input: HTMLInputElement) => input.labels?.[0]?.textContent ?? ""))
    .split(", ")
    .slice(0, 3)
    .join(", ");

/** Ticks seats and reserves them: with script each tick reserves at once; without, the button does. */
export async function reserveSeats(page: Page, javaScriptEnabled: boolean, seats: ReturnType<Page["getByRole"]>[]) {
  for (const box of seats) {
    const name = await seatName(box);
    await box.check();
    if (javaScriptEnabled) await expect(page.getByRole("table", { name: "Your tickets" })).toContainText(name);
  }
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Reserve selected seats" }).click();
}

/** Pays by card on the payment page: the sandbox's test cards (README), CVV by brand. */
export async function payByCard(page: Page, number: string) {
  await page.getByLabel("Credit or debit card").check();
  await page.getByLabel("Card number", { exact: true }).fill(number);
  await page.getByLabel("Name on card").fill("Jo Bloggs");
  await page.getByLabel("Expiry date").fill("12/30");
  await page.getByLabel("Security code (CVV)").fill(number.startsWith("3") ? "1234" : "123");
  await page.getByRole("button", { name: /^Pay / }).click();
}

/** The last month of a show's calendar, where the demo's presale performances are. */
export async function goToLastMonth(page: Page) {
  const next = page.getByRole("link", { name: /^Next:/ });
  for (let months = 0; months < 6 && (await next.count()) > 0; months += 1) {
    const month = (await page.locator("caption").textContent())!;
    await next.click();
    await expect(page.locator("caption")).not.toHaveText(month);
  }
  await expect(next).toHaveCount(0);
}
