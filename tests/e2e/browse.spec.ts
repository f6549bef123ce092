import { expect, test } from "./fixtures";

test("from the shows list to a show, its dates and a performance", async ({ page, visit, axe }) => {
  await visit("/");
  await page.getByRole("link", { name: "A Winter's Crossing at Harbour Playhouse, Bristol" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "A Winter's Crossing" })).toBeVisible();
  await expect(page).toHaveTitle("A Winter's Crossing – Harbour Playhouse");
  await expect(page.getByText("under 15 need an adult")).toBeVisible();
  await axe();

  await page.getByRole("link", { name: "Choose a date" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose a date" })).toBeVisible();
  // The demo sells out the second performance: it says so in words, and offers no link.
  const items = page.locator(".performance-list__item");
  await expect(items.nth(1)).toContainText("Sold out");
  await expect(items.nth(1).getByRole("link")).toHaveCount(0);
  await expect(items.first()).toContainText(/Good availability|Medium availability|Low availability/);
  await axe();

  await items
    .first()
    .getByRole("link", { name: /Choose seats for/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Select your tickets" })).toBeVisible();
  await expect(page.getByText(/places? left/)).toBeVisible();
  await axe();
});

test("a venue page lists what is on there", async ({ page, visit }) => {
  await visit("/venues/foundry-hall");
  await expect(page.getByRole("heading", { level: 1, name: "Foundry Hall" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Northern Static" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "The Lantern Keeper" })).toHaveCount(0);
});
