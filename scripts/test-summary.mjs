// Prints one closing line for CI from the vitest (two runs) and Playwright JSON reports:
// "tests: N passed, N failed" (a missing report counts as one failure: that suite never finished).
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;

const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : null);

// The unit, store and route tests, then the HTML-level journeys: two vitest runs, two reports.
for (const path of ["reports/vitest.json", "reports/journeys.json"]) {
  const vitest = read(path);
  if (vitest) {
    passed += vitest.numPassedTests;
    failed += vitest.numFailedTests + (vitest.numFailedTestSuites ?? 0);
  } else failed += 1;
}

const playwright = read("reports/playwright.json");
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky;
  // Errors outside any test (a web server that would not start, a broken config) count too.
  failed += playwright.stats.unexpected + (playwright.errors?.length ?? 0);
} else failed += 1;

// Each phase's seconds on one line (npm test writes reports/phases.json; .ci/run adds install).
const phases = read("reports/phases.json") ?? [];
const install = process.env.CI_INSTALL_SECONDS;
const all = [...(install ? [{ phase: "install", seconds: Number(install) }] : []), ...phases];
if (all.length > 0) console.log(`phases: ${all.map(({ phase, seconds }) => `${phase} ${seconds} s`).join(", ")}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
