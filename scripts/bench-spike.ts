// `npm run bench`'s on-sale spike (issue 20): the waiting room on (SPIKE_ACTIVE buyers at once),
// buyers without script arrive within SPIKE_ARRIVAL_SECONDS (10) for one performance of the
// largest house, at the rate one core serves bare Remix pages in this run (the baseline,
// scripts/bench-baselines.ts; SPIKE_BUYERS sets their number instead), in a process of their own
// (scripts/bench-spike-buyers.ts); once let in, each reads every page for SPIKE_READING_SECONDS (2)
// before sending its form. They are served by server.ts as production runs it, one process per core
// this machine lets it use (decision 0057); SPIKE_WORKERS=N, by N processes instead, and
// SPIKE_WORKERS=0 by the bench's own process (for a profile). Budget lines (design.md section 8):
// the p95 of a first visit and of every step under 300 ms, nobody let in out of turn, no seat sold
// twice, and what an arrival and a refresh cost the serving processes together (primary and
// workers) in bare Remix pages (≤ 0.5 and ≤ 0.2), measured after the rush the way the baselines
// are (scripts/bench-baselines.ts: LOAD.connections requests in flight from a separate process),
// so that the two sides of the ratio are alike. For information: the same asked one at a time (each
// then pays alone what a busy process shares between requests), how many were let in per minute,
// the longest wait, and the cores the rush took.
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { ServerBuild } from "@remix-run/node";
import {
  BROWSER_HEADERS,
  cpuBudgetLine,
  LOAD,
  measureLoad,
  medianLoad,
  percentile,
  verdict,
  type Baselines,
} from "./bench-baselines";
import { noScriptBrowser, STEPS } from "./bench-buyers";
import type { OneAtATime, SpikeBrief, SpikeDone } from "./bench-spike-buyers";
import { buyersBrief, loadBuild, startSite } from "./bench-pages";
import { cpuMsSince, startServerProcess, ticketsSold } from "./bench-processes";

const SPIKE = {
  arrivalMs: Number(process.env.SPIKE_ARRIVAL_SECONDS ?? 10) * 1000,
  runMs: Number(process.env.SPIKE_RUN_SECONDS ?? 150) * 1000,
  active: Number(process.env.SPIKE_ACTIVE ?? 30),
  readingMs: Number(process.env.SPIKE_READING_SECONDS ?? 2) * 1000,
  /** Unset: production's default (server.ts with WEB_CONCURRENCY unset); 0: the bench's own process. */
  workers: process.env.SPIKE_WORKERS === undefined ? undefined : Number(process.env.SPIKE_WORKERS),
};

/** How many new buyers, and then refreshes, the one-at-a-time measure after the rush asks for. */
const ONE_AT_A_TIME = 200;

/**
 * The CPU the serving processes (`serverCpuMs`: their total so far) spend on one arrival and on one
 * refresh, asked for one at a time by the buyers' process after the rush, when nothing else is asked of them.
 */
async function oneAtATimeCosts(buyers: ChildProcess, serverCpuMs: () => number) {
  const measure = async (kind: "arrivals" | "refreshes") => {
    const start = serverCpuMs();
    const answered = new Promise((resolve) => buyers.once("message", resolve));
    buyers.send({ kind, count: ONE_AT_A_TIME } satisfies OneAtATime);
    await answered;
    return (serverCpuMs() - start) / ONE_AT_A_TIME;
  };
  return { arrivalMs: await measure("arrivals"), refreshMs: await measure("refreshes") };
}

/** The waiting page's own refresh address, from its meta refresh. */
const REFRESH_URL = /<meta http-equiv="refresh" content="\d+; url=([^"]+)"/;

/**
 * The CPU the serving processes (`serverCpuMs`: their total so far) spend on one arrival (a
 * browser without cookies asking for the tickets page: a new visitor, a join, the waiting page)
 * and on one refresh (one waiting visitor's cookies asking the waiting page's own address),
 * each under the baselines' load, the median of LOAD.rounds rounds like them.
 */
async function underLoadCosts(origin: string, tickets: string, secret: string, serverCpuMs: () => number) {
  const waiting = noScriptBrowser(origin, secret);
  const page = await waiting.get(tickets);
  const refresh = REFRESH_URL.exec(page.text)?.[1]?.replaceAll("&amp;", "&");
  if (!refresh) throw new Error("bench: a new arrival after the rush was not given a waiting page");
  const refreshHeaders = { ...BROWSER_HEADERS, cookie: waiting.cookies() };
  const arrivals = [];
  const refreshes = [];
  for (let round = 0; round < LOAD.rounds; round += 1) {
    arrivals.push(await measureLoad(origin + tickets, BROWSER_HEADERS, { serverCpuMs }));
    refreshes.push(await measureLoad(origin + refresh, refreshHeaders, { serverCpuMs }));
  }
  return { arrivalMs: medianLoad(arrivals).cpuMs, refreshMs: medianLoad(refreshes).cpuMs };
}

/** The p95 of a first visit and of every step of a buyer's journey during the rush, the waiting page included. */
const STEP_P95_BUDGET_MS = 300;
/** What an arrival and a refresh may cost the serving process, in bare Remix pages (design.md section 8). */
const DOOR_BUDGET_PAGES = { arrival: 0.5, refresh: 0.2 };

export async function benchSpike(root: string, baselines: Baselines, build?: ServerBuild) {
  // A rush the machine's own speed scales: as many arrivals a second as one core serves bare Remix
  // pages, so that a slower machine meets a proportionally lighter rush (design.md section 8).
  const buyerCount = Number(
    process.env.SPIKE_BUYERS ?? Math.round(baselines.remixPagesPerCoreSecond * (SPIKE.arrivalMs / 1000)),
  );
  const arrivalsPerSecond = buyerCount / (SPIKE.arrivalMs / 1000);
  const secret = randomBytes(32).toString("hex");
  const siteEnv = {
    QUEUE_ACTIVE_BUYERS: String(SPIKE.active),
    // Every buyer here comes from 127.0.0.1: the per-address limit on joins would refuse them.
    QUEUE_JOINS_PER_ADDRESS: "0",
  };
  const site = await startSite(root, build ?? (await loadBuild(root)), { SESSION_SECRET: secret, ...siteEnv });
  let served: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  try {
    const { store } = site.services;
    // The buyers are served by server.ts on the bench's SQLite file, as an operator runs it (with
    // production's default number of processes unless SPIKE_WORKERS says), or by the bench's own process.
    served =
      SPIKE.workers === 0
        ? undefined
        : await startServerProcess(root, { dataDir: site.services.config.dataDir }, secret, SPIKE.workers, siteEnv);
    const ownCpuMs = () => cpuMsSince({ user: 0, system: 0 });
    const serverCpuMs = served ? served.cpuMs : ownCpuMs;
    const servedBy = served
      ? `server.ts with ${served.processes.workers} process${served.processes.workers > 1 ? "es" : ""}` +
        (SPIKE.workers === undefined
          ? ` (production's default, from the ${served.processes.from})`
          : " (SPIKE_WORKERS)")
      : "the bench's own process";
    const base = { ...(await buyersBrief(site, secret, buyerCount)), ...(served && { origin: served.origin }) };
    const brief: SpikeBrief = { ...base, arrivalMs: SPIKE.arrivalMs, runMs: SPIKE.runMs, readingMs: SPIKE.readingMs };
    const buyers = fork(new URL("./bench-spike-buyers.ts", import.meta.url), {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    // The serving processes' CPU in the rush (its first SPIKE_ARRIVAL_SECONDS).
    const rushStart = serverCpuMs();
    let rushCpuMs: number | undefined;
    const rushTimer = setTimeout(() => (rushCpuMs = serverCpuMs() - rushStart), SPIKE.arrivalMs);
    const done = await new Promise<SpikeDone>((resolve, reject) => {
      buyers.once("message", (message: SpikeDone) => resolve(message));
      buyers.once("error", reject);
      buyers.once("exit", (code) => code !== 0 && reject(new Error(`bench: the spike's buyers exited with ${code}`)));
      buyers.send(brief);
    });
    clearTimeout(rushTimer);
    const alone = await oneAtATimeCosts(buyers, serverCpuMs);
    buyers.send({ kind: "exit" } satisfies OneAtATime);
    const costs = await underLoadCosts(base.origin, base.tickets, secret, serverCpuMs);

    // Places let go are deleted (issue 41): who was let in, and when, is the room's admissions
    // (kept for five minutes, longer than the run); what remains are those still in or waiting.
    const batches = await store.db
      .selectFrom("queue_admissions")
      .select(["admitted_at", "admitted"])
      .where("room_id", "=", "site")
      .execute();
    const admittedCount = batches.reduce((sum, batch) => sum + batch.admitted, 0);
    const times = batches.map((batch) => Date.parse(batch.admitted_at)).sort((a, b) => a - b);
    const minutes = times.length > 1 ? (times.at(-1)! - times[0]!) / 60_000 : 0;
    const room = await store.db
      .selectFrom("queue_rooms")
      .select("admitted_through")
      .where("id", "=", "site")
      .executeTakeFirstOrThrow();
    const entries = await store.db
      .selectFrom("queue_entries")
      .select(["position", "state"])
      .where("room_id", "=", "site")
      .execute();
    // In order: nobody still waiting holds a place at or before the last let in, and nobody let
    // in holds a place after it.
    const waiting = entries.filter((entry) => entry.state === "waiting");
    const lastAdmittedPlace = room.admitted_through;
    const firstWaitingPlace = Math.min(Number.POSITIVE_INFINITY, ...waiting.map((entry) => entry.position ?? 0));
    const outOfTurn = entries.filter(
      (entry) =>
        (entry.state === "admitted" && (entry.position ?? 0) > lastAdmittedPlace) ||
        (entry.state === "waiting" && (entry.position ?? 0) <= lastAdmittedPlace),
    );
    const inOrder = lastAdmittedPlace < firstWaitingPlace && outOfTurn.length === 0;
    const admitted = { length: admittedCount };

    const { tickets, oversold } = await ticketsSold(store, base.performanceId);

    const outcomes = { ordered: 0, noSeats: 0, stopped: 0, waiting: 0 };
    for (const buyer of done.buyers) outcomes[buyer.outcome] += 1;
    const waits = done.buyers.flatMap((buyer) => (buyer.waitedMs === null ? [] : [buyer.waitedMs]));
    const queued = done.buyers.filter((buyer) => buyer.firstPlace !== null).length;
    const label = `spike (sqlite, ${servedBy}, ${buyerCount} buyers in ${SPIKE.arrivalMs / 1000} s, ${SPIKE.active} at once, reading each page ${SPIKE.readingMs / 1000} s)`;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      `${label}: ${arrivalsPerSecond.toFixed(0)} arrivals a second` +
        (process.env.SPIKE_BUYERS === undefined ? " (one core's bare Remix pages a second)" : " (SPIKE_BUYERS)") +
        `; for information: ${queued} queued; let in ${admitted.length} at ${minutes > 0 ? (admitted.length / minutes).toFixed(0) : "n/a"} per minute; ` +
        `longest wait ${seconds(Math.max(0, ...waits))} (p50 ${seconds(percentile(waits, 50))}); ` +
        `${outcomes.ordered} orders, ${tickets} tickets; ${outcomes.noSeats} told no seats were left, ` +
        `${outcomes.stopped} stopped short, ${outcomes.waiting} still waiting at the end`,
    );
    console.log(
      `${label}: every buyer served or still waiting in order (last place let in ${lastAdmittedPlace}, ` +
        `first place still waiting ${Number.isFinite(firstWaitingPlace) ? firstWaitingPlace : "none"}): ` +
        `${outOfTurn.length} let in out of turn, oversold seats: ${oversold} (budget 0 each): ${verdict(inOrder && oversold === 0)}`,
    );
    // What buyers feel (design.md section 8): a first visit, and every step (the waiting page
    // included), under 300 ms at p95.
    const spread = (times: number[]) =>
      `p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms`;
    const firstVisitP95 = percentile(done.arrivals, 95);
    console.log(
      `${label}: ${done.arrivals.length} first visits (arrival, redirects, join) ${spread(done.arrivals)} ` +
        `(budget p95 < ${STEP_P95_BUDGET_MS} ms): ${verdict(firstVisitP95 < STEP_P95_BUDGET_MS)}`,
    );
    const p95s = [...STEPS, "waiting page" as const].map((name) => [name, percentile(done.times[name], 95)] as const);
    const slow = p95s.filter(([, p95]) => p95 >= STEP_P95_BUDGET_MS);
    console.log(
      `${label}: p95 per step while the queue holds the rest: ` +
        p95s.map(([name, p95]) => `${name} ${p95.toFixed(0)} ms`).join(", ") +
        ` (of the waiting page, ${done.refreshes.length} refreshes ${spread(done.refreshes)})` +
        (slow.length > 0 ? `; over: ${slow.map(([name]) => name).join(", ")}` : "") +
        ` (budget p95 < ${STEP_P95_BUDGET_MS} ms each): ${verdict(slow.length === 0)}`,
    );
    // What the door costs the serving processes, measured as the baselines are.
    const underLoad = `after the rush, ${LOAD.connections} connections from a separate process as the baselines`;
    console.log(
      cpuBudgetLine(
        label,
        `an arrival (tickets page, join, waiting page), ${underLoad}`,
        costs.arrivalMs,
        baselines,
        DOOR_BUDGET_PAGES.arrival,
      ),
    );
    console.log(
      cpuBudgetLine(
        label,
        `a waiting page's refresh, ${underLoad}`,
        costs.refreshMs,
        baselines,
        DOOR_BUDGET_PAGES.refresh,
      ),
    );
    const pages = (cpuMs: number) =>
      `${(cpuMs / baselines.remix.cpuMs).toFixed(2)} bare Remix pages (${cpuMs.toFixed(2)} ms)`;
    console.log(
      `${label}: for information, asked one at a time after the rush (each request alone, nothing shared with another): ` +
        `an arrival ${pages(alone.arrivalMs)}, a refresh ${pages(alone.refreshMs)}`,
    );
    if (rushCpuMs !== undefined)
      console.log(
        `${label}: for information: ${arrivalsPerSecond.toFixed(0)} arrivals a second at that cost ask ` +
          `${((arrivalsPerSecond * costs.arrivalMs) / 1000).toFixed(2)} of a core for arrivals alone; ` +
          `in the rush the serving processes used ${(rushCpuMs / SPIKE.arrivalMs).toFixed(2)} cores ` +
          `(each process's JavaScript runs on one)`,
      );
    const stops = Object.entries(done.stopped)
      .map(([why, count]) => `${count} at ${why}`)
      .join(", ");
    if (stops) console.log(`${label}: journeys stopped short: ${stops}`);
    if (done.unreachable > 0)
      console.log(`${label}: pages the buyers could not reach and asked for again: ${done.unreachable}`);
  } finally {
    await served?.stop();
    await site.close();
  }
}
