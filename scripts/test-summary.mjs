// Prints one closing line for CI from the vitest and Playwright JSON reports:
// "tests: N passed, N failed" (a missing report counts as one failure: that suite never finished).
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;

const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : null);

const vitest = read("reports/vitest.json");
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests + (vitest.numFailedTestSuites ?? 0);
} else failed += 1;

const playwright = read("reports/playwright.json");
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky;
  // Errors outside any test (a web server that would not start, a broken config) count too.
  failed += playwright.stats.unexpected + (playwright.errors?.length ?? 0);
} else failed += 1;

console.log(`tests: ${passed} passed, ${failed} failed`);
