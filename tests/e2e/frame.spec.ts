import { expect, test, waitForHydration } from "./fixtures";
import { firstPerformance } from "./seats";

// What only a laid-out page in a real browser shows: each theme's colours (axe's rules that need
// layout, colour contrast above all, cannot run in the HTML-level journeys' jsdom, so every theme
// gets one full pass here), and where the keyboard's focus goes. Everything else about the page
// frame is proven without script by tests/journeys/browse.test.ts.

const THEMES = [
  { name: "default", brand: "Box Office" },
  { name: "regent", brand: "Regent Palace Theatre", header: "rgb(122, 16, 32)" },
  { name: "liberty", brand: "Liberty Theatre", header: "rgb(15, 22, 51)" },
] as const;

for (const theme of THEMES) {
  test(`@js the ${theme.name} theme passes axe with its colours, on the home page, a calendar and a seat map`, async ({
    page,
    visit,
  }) => {
    await visit(`/?cfg=${theme.name}`);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme.name);
    await expect(page.getByRole("img", { name: theme.brand })).toBeVisible();
    if ("header" in theme) {
      const colour = await page
        .locator(".site-header")
        .evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(colour).toBe(theme.header);
    }
    // The theme is remembered; visit() checks each page with axe, colour contrast included.
    const calendar = "/shows/northern-static/foundry-hall/calendar";
    await visit(calendar);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme.name);
    // This month may have nothing left to book (the demo sells some dates out): look on if so.
    await visit(await firstPerformance(page, calendar, true));
    await expect(page.getByRole("heading", { level: 1, name: "Select your tickets" })).toBeVisible();
  });
}

test("@js the skip link is the first thing the keyboard reaches, and it moves focus to the content", async ({
  page,
}) => {
  await page.goto("/");
  await waitForHydration(page);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await skip.press("Enter");
  await expect(page).toHaveURL(/#main-content$/);
});
