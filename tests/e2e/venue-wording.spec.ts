import { expect, test, waitForHydration } from "./fixtures";

// Issue 40 item 3: each venue's own phone and wording set apply on every page, also after a
// navigation with script. The browser's i18next was set up with the first page's wording set and
// kept it: the seat map reached by links from the home page said the deployment's number until a
// reload, and the home page reached from a venue's page said the venue's. Without script every
// page is loaded whole, which the HTML-level tests prove (tests/routes/brand-pages.test.ts). On
// the Harbour Playhouse (900 seats): the 2,341-seat map has a test of its own.

const DEPLOYMENT_PHONE = "020 7946 0000"; // the demo's wording, with no brand configured
const HARBOUR_PHONE = "0117 496 0102";

test("@js after a navigation with script, a venue's seat map gives the venue's number, and the home page the deployment's", async ({
  page,
  visit,
}) => {
  const support = page.locator(".site-header__support a");
  await visit("/");
  await expect(support).toHaveText(DEPLOYMENT_PHONE);
  // Set on this document: still there after the clicks below means no page was loaded whole.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

  await page.getByRole("link", { name: "A Winter's Crossing at Harbour Playhouse, Bristol" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "A Winter's Crossing" })).toBeVisible();
  await expect(support).toHaveText(HARBOUR_PHONE);
  await page.getByRole("link", { name: "Choose a date" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date" })).toBeVisible();
  await page.locator('a[href*="/tickets/"]', { hasText: "Good availability" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Select your tickets" })).toBeVisible();
  await expect(support).toHaveText(HARBOUR_PHONE);
  await expect(support).toHaveAttribute("href", "tel:01174960102");
  // The show, the venue and the performance's date and time, then the venue's wording set's brand.
  await expect(page).toHaveTitle(
    /^Select your tickets: A Winter's Crossing, Harbour Playhouse, \w{3}, \d{1,2} \w{3} 2026, \d{2}:\d{2} – Harbour Playhouse$/,
  );
  await expect(page.locator("html")).toHaveAttribute("data-wording-set", "harbour-playhouse");
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

  // And back: loaded first on the venue's page, the home page reached by its link is the deployment's.
  await page.reload();
  await waitForHydration(page);
  await expect(support).toHaveText(HARBOUR_PHONE);
  await page.getByRole("link", { name: "Box Office" }).first().click();
  await expect(page.locator("html")).toHaveAttribute("data-wording-set", "common");
  await expect(support).toHaveText(DEPLOYMENT_PHONE);
  await expect(page).toHaveTitle(/Box Office$/);
});
