// The page budgets of design.md section 8, measured on the production build served in-process:
// - the seat map of the largest house: server render time (p50/p95) and HTML size;
// - the calendar page's throughput beside a bare Remix page on the same machine;
// - the JavaScript each page loads on a first visit.
// Figures only: nothing here passes or fails on time; a figure over its budget says so.
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { gzipSync } from "node:zlib";
import { createRequestHandler } from "@remix-run/express";
import { createReadableStreamFromReadable, type EntryContext, type ServerBuild } from "@remix-run/node";
import { Links, Meta, RemixServer, Scripts } from "@remix-run/react";
import compression from "compression";
import express from "express";
import { createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { loadConfig } from "~/config/env.server";
import type { Store } from "~/db/connection.server";
import { calendarPath, ticketsPath } from "~/routing/paths";
import { createServerApp } from "~/web/app.server";
import { createLogger } from "~/logging/logger.server";
import { createAppServices } from "~/composition/app-services.server";
import { JAVASCRIPT_AIM_KB, JAVASCRIPT_BUDGET_KB, javaScriptOf, pageWeights } from "./javascript-weight";

const BUDGET = {
  seatMapP95Ms: 50,
  seatMapGzippedKb: 60,
  throughputRatio: 2,
};
const SEAT_MAP = { warmup: 5, requests: 60 };
// Rounds alternate between the two servers, so a change in the machine's load (other processes)
// falls on both figures rather than on one.
const LOAD = { connections: 8, warmupMs: 500, durationMs: 2_000, rounds: 3 };
// As a browser asks: the server streams to browsers and compresses for them.
const BROWSER_HEADERS = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  "accept-encoding": "gzip, deflate, br",
  accept: "text/html",
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
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

async function listen(app: express.Express) {
  const server: Server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      // The load's keep-alive connections would otherwise hold the server open until they time out.
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** The site as server.ts serves it in production, over a fresh demo catalogue in a temp folder. */
export async function startSite(root: string, build: ServerBuild, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "box-office-bench-"));
  const config = loadConfig({
    APP_ENV: "production",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    DATA_DIR: dataDir,
    DEMO_CATALOGUE: "auto",
    LOG_LEVEL: "silent",
    ...env,
  });
  const logger = createLogger(config.logLevel);
  const services = await createAppServices({ config, logger, root });
  const server = await listen(createServerApp({ build, services, logger, root }));
  return {
    ...server,
    services,
    close: async () => {
      await server.close();
      await services.close();
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

/** Sequential requests after a warm-up: the time to each full body, and the last body. */
async function timeRequests(url: string, warmup: number, requests: number) {
  const fetchBody = async () => {
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

/** Requests per second for one URL, from a worker thread keeping LOAD.connections requests in flight. */
async function requestsPerSecond(url: string) {
  const worker = new Worker(new URL("./bench-load.mjs", import.meta.url), {
    workerData: {
      url,
      headers: BROWSER_HEADERS,
      connections: LOAD.connections,
      warmupMs: LOAD.warmupMs,
      durationMs: LOAD.durationMs,
    },
  });
  const result = await new Promise<{ completed: number; failed: number; seconds: number }>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  await worker.terminate();
  if (result.failed > 0) throw new Error(`${url}: ${result.failed} requests failed under load`);
  return result.completed / result.seconds;
}

/** Median requests per second of a page and of the bare page, measured in alternating rounds. */
async function compareThroughput(pageUrl: string, bareUrl: string) {
  const page: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < LOAD.rounds; round += 1) {
    page.push(await requestsPerSecond(pageUrl));
    bare.push(await requestsPerSecond(bareUrl));
  }
  return { page: percentile(page, 50), bare: percentile(bare, 50) };
}

/**
 * "A bare Remix page": one root route rendering a minimal document with Remix's Meta, Links and
 * Scripts, through the same kind of entry.server (RemixServer streamed by renderToPipeableStream),
 * served by @remix-run/express on express with the same compression. Its own build, in memory.
 */
function bareRemixBuild(future: ServerBuild["future"]): ServerBuild {
  const BareRoot = () =>
    createElement(
      "html",
      { lang: "en" },
      createElement("head", null, createElement(Meta), createElement(Links)),
      createElement("body", null, createElement("h1", null, "Hello"), createElement(Scripts)),
    );
  const handleRequest = (request: Request, status: number, headers: Headers, context: EntryContext) =>
    new Promise<Response>((resolve, reject) => {
      const { pipe } = renderToPipeableStream(createElement(RemixServer, { context, url: request.url }), {
        onShellReady() {
          const body = new PassThrough();
          headers.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers, status }));
          pipe(body);
        },
        onShellError: reject,
      });
    });
  const rootEntry = {
    id: "root",
    path: "",
    module: "/build/root.js",
    hasAction: false,
    hasLoader: false,
    hasClientAction: false,
    hasClientLoader: false,
    hasErrorBoundary: false,
  };
  return {
    mode: "production",
    entry: { module: { default: handleRequest } },
    routes: { root: { id: "root", path: "", module: { default: BareRoot } } },
    assets: {
      entry: { module: "/build/entry.client.js", imports: [] },
      routes: { root: rootEntry },
      url: "/build/manifest.js",
      version: "bare",
    },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future,
    isSpaMode: false,
  };
}

async function startBareRemix(future: ServerBuild["future"]) {
  const app = express();
  app.use(compression());
  app.all("*", createRequestHandler({ build: bareRemixBuild(future), mode: "production" }));
  return listen(app);
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
      (over.length ? ` (heaviest ${over[0]!.page} ${kb(over[0]!.bytes)})` : ""),
  );
  // What every page loads before any route's code: React, Remix and i18next with their glue.
  console.log(`pages: of which the runtime every page shares: ${kb(javaScriptOf(build, root, []))}`);
}

export async function benchPages(root: string) {
  const build = await loadBuild(root);
  const site = await startSite(root, build);
  const bare = await startBareRemix(build.future);
  try {
    const { config, store, clock } = site.services;
    const house = await largestHouse(store, clock.now());
    const { titleSlug, venueSlug, id } = house.performance;
    const label = `${house.venueName}, ${house.seats} seats`;

    const seatMap = await timeRequests(
      site.origin + ticketsPath(config.routingType, titleSlug, venueSlug, id),
      SEAT_MAP.warmup,
      SEAT_MAP.requests,
    );
    const p95 = percentile(seatMap.times, 95);
    console.log(
      `pages: seat map (${label}) server render p50 ${percentile(seatMap.times, 50).toFixed(1)} ms, ` +
        `p95 ${p95.toFixed(1)} ms (budget p95 < ${BUDGET.seatMapP95Ms} ms)${overBudget(p95 >= BUDGET.seatMapP95Ms)}`,
    );
    const gzipped = gzipSync(seatMap.body).length;
    console.log(
      `pages: seat map HTML ${kb(gzipped)} gzipped (${kb(seatMap.body.length)} raw) ` +
        `(budget < ${BUDGET.seatMapGzippedKb} KB)${overBudget(gzipped >= BUDGET.seatMapGzippedKb * 1024)}`,
    );

    const throughput = await compareThroughput(
      site.origin + calendarPath(config.routingType, titleSlug, venueSlug),
      `${bare.origin}/`,
    );
    const ratio = throughput.bare / throughput.page;
    console.log(
      `pages: calendar ${throughput.page.toFixed(0)} req/s beside a bare Remix page ${throughput.bare.toFixed(0)} req/s ` +
        `(${LOAD.connections} connections; ratio ${ratio.toFixed(2)}, budget ≤ ${BUDGET.throughputRatio})` +
        overBudget(ratio > BUDGET.throughputRatio),
    );

    reportJavaScript(build, root);
  } finally {
    await bare.close();
    await site.close();
  }
}
