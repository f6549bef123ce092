import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page, type Response } from "@playwright/test";

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

/**
 * Fails on any WCAG 2.2 A/AA violation axe finds on the page as it stands. axe is a script, so a
 * page with script disabled is checked through a copy: its current HTML, without scripts, opened
 * at the same address in a scripted page (stylesheets and images still come from the server).
 */
async function expectAccessible(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) return analyze(page);
  const url = page.url();
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  const context = await page.context().browser()!.newContext({ javaScriptEnabled: true });
  try {
    const copy = await context.newPage();
    await copy.route(
      (candidate) => candidate.href === url,
      (route) =>
        route.fulfill({
          status: 200,
          contentType: "text/html; charset=utf-8",
          body: html,
        }),
    );
    await copy.goto(url);
    await analyze(copy, url);
  } finally {
    await context.close();
  }
}

async function analyze(page: Page, url = page.url()) {
  // Only violations are read: axe then skips working out selectors for every passing node, which
  // on a 2,341-seat map is most of its time. What it checks is unchanged.
  const results = await new AxeBuilder({ page })
    .withTags(WCAG_TAGS)
    .options({ resultTypes: ["violations"] })
    .analyze();
  const violations = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  expect(violations, `axe violations on ${url}`).toEqual([]);
}

interface Options {
  /** Console errors a test provokes on purpose (a blocked request logs one); anything else fails. */
  expectedConsoleErrors: RegExp[];
}

interface Fixtures {
  /** Checks the page as it stands with axe (WCAG 2.2 A and AA). */
  axe: () => Promise<void>;
  /** Goes to a URL, waits for the page (and hydration, with script) and checks it with axe. */
  visit: (url: string) => Promise<Response | null>;
}

export const test = base.extend<Fixtures & Options>({
  expectedConsoleErrors: [[], { option: true }],
  page: async ({ page, javaScriptEnabled, expectedConsoleErrors }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      const text = message.text();
      if (message.type() === "error" && !expectedConsoleErrors.some((pattern) => pattern.test(text))) errors.push(text);
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(page);
    expect(errors, `console errors (javaScriptEnabled: ${javaScriptEnabled})`).toEqual([]);
  },
  axe: async ({ page, javaScriptEnabled }, use) => {
    await use(() => expectAccessible(page, javaScriptEnabled));
  },
  visit: async ({ page, javaScriptEnabled, axe }, use) => {
    await use(async (url) => {
      const response = await page.goto(url);
      if (javaScriptEnabled) await waitForHydration(page);
      await axe();
      return response;
    });
  },
});

/** With script on, the root hides the polyfill status in an effect: a sign React has hydrated. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => window.__polyfillsReady === true);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

export { expect };
