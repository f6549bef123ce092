import { expect, test, waitForHydration } from "./fixtures";

test("@js a browser missing a listed feature gets our polyfills, then hydrates", async ({ page, axe }) => {
  const polyfillRequests: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/polyfills.js")) polyfillRequests.push(request.url());
  });
  await page.addInitScript(() => {
    // Pretend to be an older browser.
    delete (String.prototype as { padStart?: unknown }).padStart;
  });
  await page.goto("/");
  await waitForHydration(page);
  expect(polyfillRequests).toHaveLength(1);
  expect(decodeURIComponent(polyfillRequests[0]!)).toContain("features=String.prototype.padStart");
  expect(await page.evaluate(() => typeof "".padStart)).toBe("function");
  await expect(page.getByRole("status")).toBeHidden();
  await axe();
});

test.describe("@js failing requests", () => {
  test.use({
    expectedConsoleErrors: [/Failed to load resource: net::ERR_FAILED/],
  });

  test("@js a failed polyfill request is retried every 500 ms", async ({ page, axe }) => {
    const attemptedAt: number[] = [];
    let letThirdThrough = () => {};
    const thirdMayGo = new Promise<void>((resolve) => (letThirdThrough = resolve));
    await page.route("**/polyfills.js*", async (route) => {
      attemptedAt.push(Date.now());
      if (attemptedAt.length < 3) return route.abort();
      // Held until the test has read the status: on a busy machine the page's own scripts could
      // otherwise take longer than the retries, and the status would come and go unseen.
      await thirdMayGo;
      return route.continue();
    });
    await page.addInitScript(() => {
      delete (String.prototype as { endsWith?: unknown }).endsWith;
    });
    // Not "load": the held request would keep the load event waiting.
    await page.goto("/", { waitUntil: "domcontentloaded" });
    // While the polyfills are on their way the buyer sees a small, non-blocking status.
    await expect(page.getByRole("status")).toHaveText("Loading");
    await expect.poll(() => attemptedAt.length).toBe(3);
    letThirdThrough();
    await waitForHydration(page);
    expect(attemptedAt).toHaveLength(3);
    // Each retry waits its 500 ms after the failure (a little is allowed for the report to reach us).
    expect(attemptedAt[1]! - attemptedAt[0]!).toBeGreaterThanOrEqual(450);
    expect(attemptedAt[2]! - attemptedAt[1]!).toBeGreaterThanOrEqual(450);
    await expect(page.getByRole("status")).toBeHidden();
    await axe();
  });

  test("@js when script chunks fail to load, the server-rendered page still works", async ({ page, axe }) => {
    await page.route("**/build/**/*.js", (route) => route.abort());
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "What's on" })).toBeVisible();
    await page.getByRole("link", { name: "Cookie policy" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Cookie policy" })).toBeVisible();
    await axe();
  });
});
