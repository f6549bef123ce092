// The page budgets of design.md section 8, measured on the production build served in-process:
// - the seat map of the largest house: written afresh, its server CPU per request in bare Remix
//   pages (the run's baseline, scripts/bench-baselines.ts; budget ≤ 25); its HTML size; and, for
//   information, its time (p50/p95) served from the page cache and written afresh;
// - every page type's server CPU per request (and requests per second) beside a bare Remix page
//   on the same machine, the load from a separate process: for information, not a budget
//   (design.md section 8);
// - the JavaScript each page loads on a first visit.
// Each budget line ends in "within budget" or "OVER BUDGET"; times in ms are for information.
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import type { ServerBuild } from "@remix-run/node";
import { loadConfig } from "~/config/env.server";
import type { DialectName, Store } from "~/db/connection.server";
import { createScratchStore, LOCAL_POSTGRES_URL } from "~/db/scratch-store.server";
import { calendarPath, showPath, ticketsPath } from "~/urls/paths";
import { createServerApp } from "~/web/app.server";
import { createLogger } from "~/logging/logger.server";
import { createAppServices } from "~/composition/app-services.server";
import {
  BROWSER_HEADERS,
  cpuBudgetLine,
  listen,
  LOAD,
  medianLoad,
  measureLoad,
  percentile,
  startBareRemix,
  verdict,
  type Baselines,
  type Load,
} from "./bench-baselines";
import { checkoutTo, noScriptBrowser, type BuyersBrief } from "./bench-buyers";
import { JAVASCRIPT_AIM_KB, JAVASCRIPT_BUDGET_KB, javaScriptOf, pageWeights } from "./javascript-weight";

export const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? LOCAL_POSTGRES_URL;

const BUDGET = {
  /** The seat map written afresh, in bare Remix pages of server CPU. */
  seatMapFreshPages: 25,
  seatMapGzippedKb: 60,
};
// The seat map is the first page timed, in a process that has just started and (in a full run)
// just raced 100 buyers on both databases: with 5 requests to warm up and 60 timed, its p95 was the
// third-slowest request, and in one full run the JIT and the collector still at work after the
// start put three over 50 ms (p50 11.6 ms). A running server is warm, and a p95 should not
// turn on three requests.
const SEAT_MAP = { warmup: 30, requests: 200 };
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const overBudget = (over: boolean) => (over ? " OVER BUDGET" : "");

const serverBuildFile = (root: string) => join(root, "build/index.js");

/**
 * The page figures need the production build, rendered by React's production build (chosen by
 * NODE_ENV when React is first imported, so it cannot be set from here); `npm run bench` sees to
 * both. Without them, say so and stop rather than print figures that mean nothing.
 */
export function requireBuild(root: string) {
  const problems = [
    existsSync(serverBuildFile(root)) ? null : `${serverBuildFile(root)} is missing; run \`npm run build\` first`,
    process.env.NODE_ENV === "production" ? null : "NODE_ENV must be production, as the server runs",
  ].filter(Boolean);
  if (problems.length === 0) return;
  console.error(`bench: ${problems.join("; ")} (\`npm run bench\` does both).`);
  process.exit(1);
}

export async function loadBuild(root: string) {
  return (await import(pathToFileURL(serverBuildFile(root)).href)) as ServerBuild;
}

/**
 * The site as server.ts serves it in production, over a fresh demo catalogue: in a temp folder's
 * SQLite file, or in a throw-away PostgreSQL database.
 */
export async function startSite(
  root: string,
  build: ServerBuild,
  env: Record<string, string> = {},
  dialect: DialectName = "sqlite",
) {
  const dataDir = mkdtempSync(join(tmpdir(), "box-office-bench-"));
  const database = dialect === "postgres" ? await createScratchStore("postgres", POSTGRES_URL, 1) : undefined;
  const config = loadConfig({
    ...(database ? { DATABASE_URL: database.location } : {}),
    APP_ENV: "production",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    // The bench pays through the built-in sandbox, as the tests do.
    PAYMENT_PROVIDER: "sandbox",
    SANDBOX_IN_PRODUCTION: "yes",
    DATA_DIR: dataDir,
    DEMO_CATALOGUE: "auto",
    LOG_LEVEL: "silent",
    ...env,
  });
  const logger = createLogger(config.logLevel);
  const services = await createAppServices({ config, logger, root });
  const server = await listen(createServer(createServerApp({ build, services, logger, root })));
  return {
    ...server,
    services,
    close: async () => {
      await server.close();
      await services.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The house with the most seats, and the performance there with the fewest seats taken: the fullest map. */
export async function largestHouse(store: Store, now: Date) {
  const house = await store.db
    .selectFrom("seats")
    .innerJoin("seat_maps", "seat_maps.id", "seats.seat_map_id")
    .innerJoin("venues", "venues.id", "seat_maps.venue_id")
    .select(({ fn }) => ["seat_maps.id as seatMapId", "venues.name as venueName", fn.countAll().as("seats")])
    .groupBy(["seat_maps.id", "venues.name"])
    .orderBy("seats", "desc")
    .limit(1)
    .executeTakeFirstOrThrow();
  const at = now.toISOString();
  const performance = await store.db
    .selectFrom("performances")
    .innerJoin("runs", "runs.id", "performances.run_id")
    .innerJoin("titles", "titles.id", "runs.title_id")
    .innerJoin("venues", "venues.id", "runs.venue_id")
    .select(["performances.id", "titles.slug as titleSlug", "venues.slug as venueSlug"])
    .where("runs.seat_map_id", "=", house.seatMapId)
    .where("performances.status", "=", "on_sale")
    .where("performances.presale_from", "is", null)
    .where("performances.on_sale_from", "<=", at)
    .where("performances.on_sale_until", ">", at)
    .orderBy(({ selectFrom }) =>
      selectFrom("seat_claims")
        .select(({ fn }) => fn.countAll().as("claims"))
        .whereRef("seat_claims.performance_id", "=", "performances.id"),
    )
    .orderBy("performances.starts_at")
    .limit(1)
    .executeTakeFirstOrThrow();
  return { venueName: house.venueName, seats: Number(house.seats), performance };
}

const CONTACTS = {
  firstName: "Bench",
  lastName: "Buyer",
  email: "bench@example.com",
  confirmEmail: "bench@example.com",
  phone: "020 7946 0000",
  termsAccepted: "on",
};

/** The venue's own questions, answered as a buyer would: the first choice, or a few words. */
async function answers(store: Store, performanceId: string) {
  const questions = await store.db
    .selectFrom("venue_questions")
    .innerJoin("runs", "runs.venue_id", "venue_questions.venue_id")
    .innerJoin("performances", "performances.run_id", "runs.id")
    .select(["venue_questions.id", "venue_questions.kind", "venue_questions.options"])
    .where("performances.id", "=", performanceId)
    .execute();
  return Object.fromEntries(
    questions.map((q) => [`question.${q.id}`, q.kind === "choice" ? q.options.split("|")[0]! : "A few words"]),
  );
}

/** What a no-script buyer of this performance posts: the tickets page, contacts and delivery. */
export async function buyersBrief(
  site: Awaited<ReturnType<typeof startSite>>,
  secret: string,
  buyers: number,
): Promise<BuyersBrief & { performanceId: string }> {
  const { store, clock, config, i18n } = site.services;
  const house = await largestHouse(store, clock.now());
  const { titleSlug, venueSlug, id: performanceId } = house.performance;
  const words = await i18n.createInstance(config.language, i18n.wordingSetFor(venueSlug));
  const delivery = await store.db
    .selectFrom("delivery_methods")
    .innerJoin("runs", "runs.venue_id", "delivery_methods.venue_id")
    .innerJoin("performances", "performances.run_id", "runs.id")
    .select("delivery_methods.id")
    .where("performances.id", "=", performanceId)
    .where("delivery_methods.kind", "=", "eTicket")
    .executeTakeFirstOrThrow();
  return {
    performanceId,
    origin: site.origin,
    secret,
    buyers,
    tickets: ticketsPath(config.routingType, titleSlug, venueSlug, performanceId),
    contacts: { ...CONTACTS, ...(await answers(store, performanceId)) },
    deliveryMethodId: delivery.id,
    noOptions: words.t("reserve.noOptions"),
  };
}

/** Sequential requests after a warm-up: the time to each full body, and the last body. */
async function timeRequests(address: string | (() => string), warmup: number, requests: number) {
  const fetchBody = async () => {
    const url = typeof address === "string" ? address : address();
    const response = await fetch(url, { headers: BROWSER_HEADERS });
    const body = Buffer.from(await response.arrayBuffer());
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return body;
  };
  let body = Buffer.alloc(0);
  for (let index = 0; index < warmup; index += 1) body = await fetchBody();
  const times: number[] = [];
  for (let index = 0; index < requests; index += 1) {
    const started = performance.now();
    body = await fetchBody();
    times.push(performance.now() - started);
  }
  return { times, body };
}

/** Medians of a page and of the bare page, measured in alternating rounds. */
async function compareToBare(
  pageUrl: string,
  bareUrl: string,
  headers: Record<string, string>,
  options: { numbered?: boolean } = {},
) {
  const page: Load[] = [];
  const bare: Load[] = [];
  for (let round = 0; round < LOAD.rounds; round += 1) {
    page.push(await measureLoad(pageUrl, headers, options));
    bare.push(await measureLoad(bareUrl, BROWSER_HEADERS));
  }
  // Each round's own ratio, so that the spread behind the medians is there to read.
  const ratios = page.map((load, round) => load.cpuMs / bare[round]!.cpuMs);
  return {
    page: medianLoad(page),
    bare: medianLoad(bare),
    spread: { low: Math.min(...ratios), high: Math.max(...ratios) },
  };
}

function reportJavaScript(build: ServerBuild, root: string) {
  // Every page type the build has (scripts/javascript-weight.ts reads them from its routes).
  const weights = pageWeights(build, root);
  const over = weights.filter((weight) => weight.bytes > JAVASCRIPT_BUDGET_KB * 1024);
  console.log(
    `pages: JavaScript shipped on a first visit (gzipped), ${weights.length} page types, budget ≤ ${JAVASCRIPT_BUDGET_KB} KB each, aim ≤ ${JAVASCRIPT_AIM_KB} KB:`,
  );
  for (const { page, bytes } of weights) {
    console.log(`pages:   ${page} ${kb(bytes)}${overBudget(bytes > JAVASCRIPT_BUDGET_KB * 1024)}`);
  }
  console.log(
    `pages: JavaScript over budget on ${over.length} of ${weights.length} page types` +
      (over.length ? ` (heaviest ${over[0]!.page} ${kb(over[0]!.bytes)})` : "") +
      ` (budget ≤ ${JAVASCRIPT_BUDGET_KB} KB each): ${verdict(over.length === 0)}`,
  );
  // What every page loads before any route's code: React, Remix and i18next with their glue.
  console.log(`pages: of which the runtime every page shares: ${kb(javaScriptOf(build, root, []))}`);
}

export async function benchPages(root: string, baselines: Baselines) {
  const build = await loadBuild(root);
  const site = await startSite(root, build);
  const bare = await startBareRemix(build.future);
  try {
    const { config, store, clock } = site.services;
    const house = await largestHouse(store, clock.now());
    const { titleSlug, venueSlug, id } = house.performance;
    const label = `${house.venueName}, ${house.seats} seats`;

    const seatMapUrl = site.origin + ticketsPath(config.routingType, titleSlug, venueSlug, id);
    const seatMap = await timeRequests(seatMapUrl, SEAT_MAP.warmup, SEAT_MAP.requests);
    // Milliseconds are this machine's, for information (design.md section 8): the budget is the
    // server CPU of the map written afresh, below, in bare Remix pages.
    console.log(
      `pages: seat map (${label}) served, as a crowd asks for it (from the page cache), one at a time, for information: ` +
        `p50 ${percentile(seatMap.times, 50).toFixed(1)} ms, p95 ${percentile(seatMap.times, 95).toFixed(1)} ms`,
    );
    // As it is while seats are being taken: every request written afresh. Each asks for a part of
    // the house the map does not have (so the whole map is drawn, as unfiltered), under a name of
    // its own: a declared parameter, so a key of its own, asked for once and never kept.
    const freshSeatMapUrl = `${seatMapUrl}?section=none-`;
    let fresh = 0;
    const written = await timeRequests(() => `${freshSeatMapUrl}${(fresh += 1)}`, SEAT_MAP.warmup, SEAT_MAP.requests);
    console.log(
      `pages: seat map (${label}) written afresh for every request, one at a time, for information: ` +
        `p50 ${percentile(written.times, 50).toFixed(1)} ms, p95 ${percentile(written.times, 95).toFixed(1)} ms`,
    );
    const gzipped = gzipSync(seatMap.body).length;
    console.log(
      `pages: seat map HTML ${kb(gzipped)} gzipped (${kb(seatMap.body.length)} raw) ` +
        `(budget < ${BUDGET.seatMapGzippedKb} KB): ${verdict(gzipped < BUDGET.seatMapGzippedKb * 1024)}`,
    );

    // A buyer without script part-way through the checkout, for the checkout pages: seats held,
    // every step up to the payment page answered.
    const secret = site.services.config.sessionSecrets[0]!;
    const brief = await buyersBrief(site, secret, 1);
    const browser = noScriptBrowser(site.origin, secret);
    await browser.post(brief.tickets, { intent: "best", quantity: "2" });
    const answered = await checkoutTo(browser, brief, async (_, run, expect) =>
      ((await run()).response.headers.get("Location") ?? "").startsWith(expect),
    );
    if (!answered) throw new Error("bench: the checkout pages' buyer could not reach the payment page");
    // Each page seen once first, as the buyer's browser would have: the events the last step
    // flashed are shown once and their cookie cleared, and a browser never sends it again. Replayed
    // as it was, the cookie would make every measured request the first view after that step.
    for (const path of ["/checkout/extras", "/checkout/payment"]) {
      const { response } = await browser.get(path);
      if (response.status !== 200)
        throw new Error(`bench: the checkout pages' buyer got ${response.status} from ${path}`);
    }
    const asBuyer = { ...BROWSER_HEADERS, cookie: browser.cookies() };

    const pages: { name: string; path: string; headers?: Record<string, string> }[] = [
      // The site's frame round a little text: what every page costs before its own content.
      { name: "legal (the frame)", path: "/legal/terms-of-use" },
      { name: "home", path: "/" },
      { name: "show", path: showPath(config.routingType, titleSlug, venueSlug) },
      { name: "calendar", path: calendarPath(config.routingType, titleSlug, venueSlug) },
      { name: `tickets (${house.seats} seats)`, path: ticketsPath(config.routingType, titleSlug, venueSlug, id) },
      { name: "checkout extras", path: "/checkout/extras", headers: asBuyer },
      { name: "checkout payment", path: "/checkout/payment", headers: asBuyer },
    ];
    console.log(
      `pages: server CPU per request beside a bare Remix page, for information (not a budget: design.md section 8), ` +
        `each measured in ${LOAD.rounds} alternating rounds ` +
        `(${LOAD.connections} connections from a separate process; medians; the catalogue's pages and the seat map ` +
        `asked for over and over, so served from the page cache, the checkout's written for each request):`,
    );
    // Every page, and the bare one, under load once before any is measured: the page measured
    // first would otherwise pay for the compiler's warm-up of the code all pages share (the legal
    // page, measured first, came out dearer than the home page, which has more on it).
    for (const page of pages) await measureLoad(site.origin + page.path, page.headers ?? BROWSER_HEADERS);
    await measureLoad(freshSeatMapUrl, BROWSER_HEADERS, { numbered: true });
    await measureLoad(`${bare.origin}/`, BROWSER_HEADERS);
    for (const page of pages) {
      const {
        page: measured,
        bare: baseline,
        spread,
      } = await compareToBare(site.origin + page.path, `${bare.origin}/`, page.headers ?? BROWSER_HEADERS);
      const ratio = measured.cpuMs / baseline.cpuMs;
      console.log(
        `pages:   ${page.name}: ${measured.cpuMs.toFixed(2)} ms CPU per request, ${ratio.toFixed(2)}× the bare page's ` +
          `${baseline.cpuMs.toFixed(2)} ms (rounds ${spread.low.toFixed(2)}–${spread.high.toFixed(2)}×); ` +
          `${measured.rate.toFixed(0)} req/s beside ` +
          `${baseline.rate.toFixed(0)} (${(measured.rate / baseline.rate).toFixed(2)})`,
      );
    }

    // The budget (design.md section 8): the seat map written afresh for every request, under the
    // same load, against the run's bare Remix page; the bare page measured alongside, for the spread.
    const afresh = await compareToBare(freshSeatMapUrl, `${bare.origin}/`, BROWSER_HEADERS, { numbered: true });
    console.log(
      cpuBudgetLine(
        "pages",
        `seat map (${label}) written afresh for every request, under load (${afresh.page.rate.toFixed(0)} req/s; ` +
          `${(afresh.page.cpuMs / afresh.bare.cpuMs).toFixed(2)}× the bare page measured alongside, rounds ` +
          `${afresh.spread.low.toFixed(2)}–${afresh.spread.high.toFixed(2)}×)`,
        afresh.page.cpuMs,
        baselines,
        BUDGET.seatMapFreshPages,
      ),
    );

    reportJavaScript(build, root);
  } finally {
    await bare.close();
    await site.close();
  }
}

/** An attacker's (or a crawler's) variations of the seat map's address: the page cache must not grow or empty. */
const RANDOM_QUERIES = { warmup: 200, requests: 20_000, connections: 8 };

/** Sends `requests` requests for `url`, each with a random query string, from a separate process. */
async function randomQueries(url: string, requests: number) {
  const child = fork(new URL("./bench-load.mjs", import.meta.url), [
    JSON.stringify({ url, headers: BROWSER_HEADERS, connections: RANDOM_QUERIES.connections, randomQueries: requests }),
  ]);
  return new Promise<{ completed: number; failed: Record<string, number>; seconds: number }>((resolve, reject) => {
    child.on("message", resolve);
    child.once("error", reject);
    child.once("exit", (code) => code !== 0 && reject(new Error(`bench: the load process exited with ${code}`)));
  });
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The page cache under random query strings (issue 37): the process's memory before and after,
 * and whether the plain seat map is still served from the cache afterwards.
 */
export async function benchCache(root: string) {
  const build = await loadBuild(root);
  const site = await startSite(root, build);
  try {
    const { config, store, clock } = site.services;
    const house = await largestHouse(store, clock.now());
    const { titleSlug, venueSlug, id } = house.performance;
    const seatMapUrl = site.origin + ticketsPath(config.routingType, titleSlug, venueSlug, id);
    const outcome = async () => {
      const response = await fetch(seatMapUrl, { headers: BROWSER_HEADERS });
      await response.arrayBuffer();
      return /page-cache;desc="(\w+)"/.exec(response.headers.get("Server-Timing") ?? "")?.[1] ?? "none";
    };
    const asked = [await outcome(), await outcome(), await outcome()];
    // Warm first, so that what is measured is the cache and not the compiler settling in; each
    // figure after a full collection (npm run bench gives node --expose-gc), so that it is what
    // the process holds, not garbage not yet collected.
    await randomQueries(seatMapUrl, RANDOM_QUERIES.warmup);
    const collected = () => {
      (globalThis as { gc?: () => void }).gc?.();
      return process.memoryUsage();
    };
    const before = collected().rss;
    const load = await randomQueries(seatMapUrl, RANDOM_QUERIES.requests);
    const after = collected().rss;
    const afterwards = await outcome();
    const grown = (after - before) / before;
    // The crowd's pages and one address's (the bench asks from one): the page cache's HTML.
    const [crowd, fresh] = site.services.pages.stats();
    const pages = crowd &&
      fresh && {
        entries: crowd.entries + fresh.entries,
        bytes: crowd.bytes + fresh.bytes,
        maxBytes: crowd.maxBytes + fresh.maxBytes,
      };
    const label = `cache (${house.venueName}, ${house.seats} seats)`;
    console.log(
      `${label}: the seat map asked for three times: ${asked.join(", ")}; then ${load.completed} requests with random query strings ` +
        `in ${load.seconds.toFixed(0)} s (${
          Object.entries(load.failed)
            .map(([status, count]) => `${count} × ${status}`)
            .join(", ") || "none failed"
        })`,
    );
    console.log(
      `${label}: process RSS ${megabytes(before)} before, ${megabytes(after)} after (${grown >= 0 ? "+" : ""}${(grown * 100).toFixed(1)}%, ` +
        `budget: grows by at most 10%)${grown > 0.1 ? " OVER BUDGET" : ""}; the plain seat map afterwards: ${afterwards}` +
        `${afterwards === "hit" ? "" : " OVER BUDGET"}; the page cache holds ${pages?.entries ?? 0} pages, ${megabytes(pages?.bytes ?? 0)} ` +
        `of ${megabytes(pages?.maxBytes ?? 0)}`,
    );
  } finally {
    await site.close();
  }
}
