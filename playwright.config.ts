import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";
import { SYSTEM_CHROMIUM, SYSTEM_CHROMIUM_ARGS } from "./scripts/system-chromium";

// There is no browser download on these machines: use Debian's Chromium where it is installed.
const PORT = Number(process.env.E2E_PORT ?? 3210);

const launchOptions = existsSync(SYSTEM_CHROMIUM)
  ? {
      executablePath: SYSTEM_CHROMIUM,
      args: SYSTEM_CHROMIUM_ARGS,
    }
  : {};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // axe takes its time over the 2,341-seat map, which one test opens.
  timeout: 120_000,
  // Two browsers, two servers and axe share CI's two cores: a page that answers in a fraction of a
  // second alone has taken over five (expect's default) to settle there. A passing check waits no
  // longer for this; only a failing one does.
  expect: { timeout: 15_000 },
  forbidOnly: true,
  // A real SMTP server the app servers send their emails to (tests/e2e/mail-server.ts).
  globalSetup: "./tests/e2e/mail-server.ts",
  // The JSON report feeds the summary line .ci/run prints.
  reporter: [["list"], ["json", { outputFile: "reports/playwright.json" }]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    browserName: "chromium",
    locale: "en-GB",
    launchOptions,
    trace: "retain-on-failure",
  },
  // What only a browser proves (issue 15). With script: what script does (dialogs, the countdown,
  // inline validation, seat-map keys, fetcher updates, hydration, polyfills), each theme's colours,
  // and the smoke journeys. Without script: only the smoke journeys (@smoke), one per area (browse,
  // reserve, purchase, accounts) on the smaller venues; every no-script journey is proven at the
  // HTML level, in both languages, by tests/journeys (vitest), at a fraction of the cost.
  projects: [
    { name: "javascript-on", use: { javaScriptEnabled: true } },
    { name: "javascript-off", use: { javaScriptEnabled: false }, grep: /@smoke/ },
  ],
  // The second: the same, with a waiting room that lets one buyer in at a time (waiting-room.spec.ts).
  webServer: [server(PORT), server(PORT + 4, { QUEUE_ACTIVE_BUYERS: "1" })],
});

/** The production build on a fresh database loaded with the demo catalogue at start-up. */
function server(port: number, extraEnv: Record<string, string> = {}) {
  return {
    command: "npm run serve",
    url: `http://localhost:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(port),
      APP_ENV: "production",
      SESSION_SECRET: "e2e-secret-that-is-long-enough-0123456789",
      // The built-in sandbox takes the payments, as in production it may only when asked for.
      PAYMENT_PROVIDER: "sandbox",
      SANDBOX_IN_PRODUCTION: "yes",
      LOG_LEVEL: "warn",
      // One process each, as before production's default became one per core (decision 0057): two
      // servers and two browsers already share CI's two cores, and several processes are proven
      // by tests/routes/several-processes.test.ts and the container smoke test.
      WEB_CONCURRENCY: "1",
      DATA_DIR: mkdtempSync(join(tmpdir(), "box-office-e2e-")),
      DEMO_CATALOGUE: "auto",
      SMTP_URL: `smtp://127.0.0.1:${PORT + 2}`,
      // Short enough for the timeout journey to see the timeout message.
      PAYMENT_TIMEOUT_SECONDS: "5",
      ...extraEnv,
    },
  };
}
