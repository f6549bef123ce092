import { expect, test } from "./fixtures";

const LEGAL_LINKS = [
  "Privacy policy",
  "Cookie policy",
  "Terms of use",
  "Terms of sale",
  "Safety and security",
  "Ticket protection programme terms",
];

test("the home page shows the shows on sale and the page frame", async ({ page, visit }) => {
  const response = await visit("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("What's on – Box Office");
  await expect(page.getByRole("heading", { level: 1, name: "What's on" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "The Lantern Keeper" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en-GB");
  const legal = page.getByRole("navigation", { name: "Legal information" }).getByRole("link");
  await expect(legal).toHaveText(LEGAL_LINKS);

  // The skip link is the first thing a keyboard reaches, and it moves focus to the content.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await skip.press("Enter");
  await expect(page).toHaveURL(/#main-content$/);
});

test("a legal link leads to its page", async ({ page, visit, axe }) => {
  await visit("/");
  await page.getByRole("link", { name: "Terms of sale" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Terms of sale" })).toBeVisible();
  await axe();
  await expect(page).toHaveURL(/\/legal\/terms-of-sale$/);
});

test.describe("not-found pages", () => {
  // The browser logs every document that answers 404; here that is the point.
  test.use({ expectedConsoleErrors: [/status of 404 \(Not Found\)/] });

  test("an unknown address is the not-found page with status 404", async ({ page, visit }) => {
    const response = await visit("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle("Page not found – Box Office");
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page.getByText("We are sorry, but we can't find the page that you are looking for")).toBeVisible();
  });

  test("an impossible date in a calendar address is a 404, not an error", async ({ page, visit }) => {
    const response = await visit("/shows/hamlet/regent-palace/calendar/2026-02-30");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  });
});

test("?lng=en-US switches the language, and the choice is remembered", async ({ page, visit, axe }) => {
  await visit("/?lng=en-US");
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  const languages = page.getByRole("navigation", { name: "Language" });
  await expect(languages.locator("[aria-current]")).toHaveText("English (US)");

  await visit("/membership");
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");

  await languages.getByRole("link", { name: "English (UK)" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en-GB");
  await axe();
});

test("?cfg= switches the theme for this buyer; unknown names are ignored", async ({ page, visit }) => {
  await visit("/?cfg=regent");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "regent");
  await expect(page.getByRole("img", { name: "Regent Palace Theatre" })).toBeVisible();
  const brandColour = () =>
    page.locator(".site-header").evaluate((element) => getComputedStyle(element).backgroundColor);
  expect(await brandColour()).toBe("rgb(122, 16, 32)");

  // Remembered on the next page, and an unknown name does not replace it.
  await visit("/membership?cfg=not-a-theme");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "regent");

  await visit("/?cfg=liberty");
  await expect(page.getByRole("img", { name: "Liberty Theatre" })).toBeVisible();
  expect(await brandColour()).toBe("rgb(15, 22, 51)");
});

test("a venue's wording set overrides the common wording", async ({ page, visit }) => {
  await visit("/venues/harbour-playhouse");
  await expect(page.getByRole("link", { name: "0117 496 0102" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("data-wording-set", "harbour-playhouse");
});
