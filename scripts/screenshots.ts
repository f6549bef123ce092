import { spawn, type ChildProcess } from "node:child_process";
import { SYSTEM_CHROMIUM, SYSTEM_CHROMIUM_ARGS } from "./system-chromium";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "@playwright/test";

// Full-page screenshots of the buyer's pages, for issue 40's before-and-after proof:
//
//   npm run screenshots -- OUTDIR        (node --import tsx scripts/screenshots.ts OUTDIR)
//
// writes OUTDIR/THEME-WIDTH-PAGE.png for each theme (default, regent, liberty), each width (1280
// and 375 CSS pixels) and each page: home, show, venue, seat-map, payment, confirmation. Run
// `npm run build` first: it serves the production build itself.
//
// A theme is the deployment's (THEME), not the venue's: app/web/visitor.server.ts takes `?cfg=`,
// then the buyer's remembered theme, then THEME, and never looks at the venue. What a venue
// changes is its wording set (app/root.tsx: the venue in the address picks it). So each look is
// one server started with THEME=NAME, shown on the venue whose look it is: the regent theme on the
// Regent Palace Theatre, liberty on the Liberty Theatre (in en-US, its buyers' language), and the
// default theme on Harbour Playhouse, the venue without a theme of its own.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const WIDTHS = [1280, 375] as const;
// Only the first screen's height: the screenshots are of the full page.
const HEIGHT = 800;
const CARD = { number: "4242 4242 4242 4242", owner: "Jo Bloggs", expiry: "12/30", cvv: "123" };

interface Look {
  theme: "default" | "regent" | "liberty";
  locale: "en-GB" | "en-US";
  show: string;
  venue: string;
  /** Fixed seats, so each run holds and buys the same ones: two side by side, mid-house. */
  seats: [string, string];
  phone: string;
}

const LOOKS: Look[] = [
  {
    theme: "default",
    locale: "en-GB",
    show: "a-winters-crossing",
    venue: "harbour-playhouse",
    seats: ["Stalls, row J, seat 10", "Stalls, row J, seat 11"],
    phone: "020 7946 0000",
  },
  {
    theme: "regent",
    locale: "en-GB",
    show: "the-lantern-keeper",
    venue: "regent-palace",
    seats: ["Stalls, row J, seat 18", "Stalls, row J, seat 19"],
    phone: "020 7946 0000",
  },
  {
    theme: "liberty",
    locale: "en-US",
    show: "broadway-lights",
    venue: "liberty-theatre",
    seats: ["Orchestra, row J, seat 20", "Orchestra, row J, seat 21"],
    phone: "(212) 555-0100",
  },
];

interface Server {
  url: string;
  stop(): Promise<void>;
}

/**
 * The production build as playwright.config.ts's webServer runs it: production settings, a fresh
 * database in a throw-away DATA_DIR with the demo catalogue, the sandbox taking payments, on a
 * port the system picks (PORT=0; the "listening" log line names it).
 */
async function startServer(theme: Look["theme"]): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), `box-office-screenshots-${theme}-`));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      APP_ENV: "production",
      SESSION_SECRET: "screenshots-secret-that-is-long-enough-0123456789",
      PAYMENT_PROVIDER: "sandbox",
      SANDBOX_IN_PRODUCTION: "yes",
      LOG_LEVEL: "info",
      DATA_DIR: dataDir,
      DEMO_CATALOGUE: "auto",
      THEME: theme,
      PORT: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Only the start-up is read; the rest is kept short (for a failure's message) and drained, so a
  // full pipe never stalls the server.
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + String(chunk)).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const port = await new Promise<number>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the ${theme} server did not start in 90 s:\n${output}`)), 90_000);
    child.stdout!.on("data", () => {
      const listening = /"port":(\d+),[^\n]*"msg":"listening"/.exec(output);
      if (listening) {
        clearTimeout(timer);
        done(Number(listening[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`the ${theme} server exited (${code}) before listening:\n${output}`));
    });
  });
  return {
    url: `http://localhost:${port}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once("exit", done));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** With script on, the root hides the polyfill status in an effect: a sign React has hydrated (tests/e2e/fixtures.ts). */
async function hydrated(page: Page) {
  await page.waitForFunction(() => (window as { __polyfillsReady?: boolean }).__polyfillsReady === true);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

async function shoot(outDir: string, page: Page, look: Look, width: number, name: string) {
  const path = join(outDir, `${look.theme}-${width}-${name}.png`);
  // A full-page picture never scrolls, so posters below the first screen (loading="lazy") would
  // stay blank: load them all first, as a buyer scrolling down would.
  await page.evaluate(async () => {
    const images = [...document.images];
    for (const image of images) image.loading = "eager";
    await Promise.all(images.map((image) => image.decode().catch(() => undefined)));
  });
  // Animations stopped and the caret hidden, so a second run gives the same picture.
  await page.screenshot({ path, fullPage: true, animations: "disabled", caret: "hide" });
  const { height } = await page.evaluate(() => ({ height: document.documentElement.scrollHeight }));
  console.log(`${path} (${Math.round(statSync(path).size / 1024)} KB, ${height} px high)`);
}

/** Loads a page at each width in turn (a fresh load, so script sees that width) and screenshots it. */
async function eachWidth(outDir: string, page: Page, look: Look, name: string, url: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT });
    await page.goto(url);
    await hydrated(page);
    await shoot(outDir, page, look, width, name);
  }
}

/** A checkbox of the seat map by its seat's name, whatever its price ("Stalls, row J, seat 10, £41.00"). */
function seatBox(page: Page, seat: string) {
  return page.getByRole("checkbox", { name: new RegExp(`^${seat.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}, `) });
}

async function continueTo(page: Page, path: string) {
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await page.waitForURL((url) => url.pathname === path);
  await hydrated(page);
}

async function shootLook(browser: Browser, outDir: string, look: Look) {
  const server = await startServer(look.theme);
  const context = await browser.newContext({
    baseURL: server.url,
    locale: look.locale,
    // One CSS pixel, one image pixel: sharp enough to read, and the committed set stays small.
    deviceScaleFactor: 1,
    javaScriptEnabled: true,
  });
  context.setDefaultTimeout(30_000);
  try {
    const page = await context.newPage();
    const show = `/shows/${look.show}/${look.venue}`;
    await eachWidth(outDir, page, look, "home", "/");
    await eachWidth(outDir, page, look, "show", show);
    // The venue page as the show page links to it; a 404 here is a picture of the 404.
    await eachWidth(outDir, page, look, "venue", `/venues/${look.venue}/`);

    // The first performance on general sale with good availability: the demo sells some out, or
    // nearly, on purpose (tests/e2e/seats.ts looks for one the same way).
    await page.goto(`${show}/calendar`);
    await hydrated(page);
    const performances = page
      .locator('a[href*="/tickets/"]', { hasText: /Good availability/ })
      .filter({ hasNotText: "Presale" });
    // A run that starts late in the month may have no good date left in it: look on in the next.
    for (let month = 0; month < 3 && (await performances.count()) === 0; month += 1) {
      const calendar = page.url();
      await page.getByRole("link", { name: /^Next/ }).first().click();
      await page.waitForURL((url) => url.href !== calendar);
      await hydrated(page);
    }
    const tickets = (await performances.first().getAttribute("href"))!;
    await eachWidth(outDir, page, look, "seat-map", tickets);

    // Hold the fixed seats: with script, a tick reserves the seat at once.
    await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
    await page.goto(tickets);
    await hydrated(page);
    for (const seat of look.seats) {
      const box = seatBox(page, seat);
      // Say so plainly rather than wait out a timeout: LOOKS names the seats.
      if (await box.isDisabled()) throw new Error(`${seat} is not free on ${tickets}: choose other seats in LOOKS`);
      await box.check();
      // Held once the reservation's table lists it.
      await page.locator("table").filter({ hasText: seat }).first().waitFor();
    }
    // A performance with a notice (strobe lighting, gunfire) or admission information (latecomers)
    // asks the buyer to confirm they read each: ackNotice, ackAdmission.
    for (const acknowledgement of await page.locator('input[type="checkbox"][name^="ack"]').all())
      await acknowledgement.check();
    await continueTo(page, "/checkout/extras");
    await continueTo(page, "/checkout/ticket-protection");
    await page.locator('input[name="protection"][value="no"]').check();
    await continueTo(page, "/checkout/collection");
    await page.getByRole("radio", { name: /^E-ticket/ }).check();
    await continueTo(page, "/checkout/contacts");
    await page.locator('input[name="firstName"]').fill("Jo");
    await page.locator('input[name="lastName"]').fill("Bloggs");
    await page.locator('input[name="email"]').fill("jo@example.com");
    await page.locator('input[name="confirmEmail"]').fill("jo@example.com");
    await page.locator('input[name="phone"]').fill(look.phone);
    // The venue's own questions (the Regent and the Liberty ask how the buyer heard of the show,
    // the Liberty where they travel from): the first choice of each, and a town.
    const questions = page.locator(".venue-questions");
    const choices = await questions
      .locator('input[type="radio"]')
      .evaluateAll((radios) => [...new Set(radios.map((radio) => (radio as HTMLInputElement).name))]);
    for (const name of choices) await questions.locator(`input[type="radio"][name="${name}"]`).first().check();
    for (const box of await questions.getByRole("textbox").all()) await box.fill("Springfield");
    await page.locator('input[name="termsAccepted"]').check();
    await continueTo(page, "/checkout/payment");
    await eachWidth(outDir, page, look, "payment", "/checkout/payment");

    // Pay with the sandbox's card that needs no 3-D Secure (README), at the first width.
    await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
    await page.goto("/checkout/payment");
    await hydrated(page);
    await page.locator('input[name="method"][value="card"]').check();
    await page.locator('input[name="cardNumber"]').fill(CARD.number);
    await page.locator('input[name="cardOwner"]').fill(CARD.owner);
    await page.locator('input[name="expiry"]').fill(CARD.expiry);
    await page.locator('input[name="cvv"]').fill(CARD.cvv);
    await page.locator("form#pay").getByRole("button").click();
    await page.waitForURL((url) => url.pathname === "/checkout/confirmation");
    await eachWidth(outDir, page, look, "confirmation", "/checkout/confirmation");
  } catch (error) {
    // Where it stopped, to see why: the page as it stood, and what its alerts said.
    for (const page of context.pages()) {
      const path = join(tmpdir(), `screenshots-failed-${look.theme}.png`);
      await page.screenshot({ path, fullPage: true }).catch(() => undefined);
      const alerts = await page
        .getByRole("alert")
        .allInnerTexts()
        .catch(() => []);
      console.error(`stopped at ${page.url()} (${path}); alerts: ${JSON.stringify(alerts)}`);
    }
    throw error;
  } finally {
    await context.close();
    await server.stop();
  }
}

async function main() {
  const outDir = process.argv[2];
  if (!outDir) throw new Error("usage: npm run screenshots -- OUTDIR");
  try {
    statSync(join(ROOT, "build", "index.js"));
  } catch {
    throw new Error("no build: run npm run build first");
  }
  mkdirSync(outDir, { recursive: true });
  const started = Date.now();
  const browser = await chromium.launch({ executablePath: SYSTEM_CHROMIUM, args: SYSTEM_CHROMIUM_ARGS });
  try {
    // One look at a time: the machine's two cores are shared (a server, a browser and, elsewhere,
    // other test runs), and a look's server starts while nothing else competes with its demo load.
    for (const look of LOOKS) await shootLook(browser, outDir, look);
  } finally {
    await browser.close();
  }
  console.log(`${LOOKS.length * WIDTHS.length * 6} screenshots in ${Math.round((Date.now() - started) / 1000)} s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
