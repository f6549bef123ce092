// `npm run bench`'s purchase figures, on SQLite and on PostgreSQL: 50 buyers without script, in a
// process of their own (scripts/bench-buyers.ts), buy from one performance of the largest house
// until no seats are left for them. Prints completed orders per minute, the serving process's CPU
// per order, the buyers told "no seats" while a block that fitted was free (must be 0), database
// statements per order, p95 per step, and seats sold twice (must be 0). Figures, not a test: nothing here passes or fails on time.
import { randomBytes } from "node:crypto";
import type { ServerBuild } from "@remix-run/node";
import type { DialectName } from "~/db/connection.server";
import { STEPS } from "./bench-buyers";
import { buyersBrief, loadBuild, startSite } from "./bench-pages";
import { benchProcesses, cpuMsSince, runBuyers } from "./bench-processes";

const BUYERS = Number(process.env.BENCH_BUYERS ?? 50);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** Completed no-script purchases per minute for one performance on this machine (design.md section 8). */
const ORDERS_PER_MINUTE_BUDGET: Record<DialectName, number> = { sqlite: 1_500, postgres: 1_000 };

async function benchPurchaseOn(dialect: DialectName, build: ServerBuild, root: string) {
  const secret = randomBytes(32).toString("hex");
  // Secure cookies are sent over plain http by fetch, so production settings work locally.
  const site = await startSite(root, build, { SESSION_SECRET: secret }, dialect);
  try {
    const { store } = site.services;
    const brief = await buyersBrief(site, secret, BUYERS);
    const statementsBefore = store.statements();
    // This process serves the buyers and does nothing else meanwhile: its CPU is the site's.
    const cpuBefore = process.cpuUsage();
    const done = await runBuyers(brief, site);
    const cpuMs = cpuMsSince(cpuBefore);
    const statements = store.statements() - statementsBefore;

    const { orders, seconds } = done;
    const perMinute = (orders / seconds) * 60;
    const budget = ORDERS_PER_MINUTE_BUDGET[dialect];
    console.log(
      `purchase (${dialect}): ${orders} orders by ${BUYERS} buyers without script in ${seconds.toFixed(1)} s: ` +
        `${perMinute.toFixed(0)} orders/min (budget ≥ ${budget.toLocaleString("en-GB")})` +
        `${perMinute < budget ? " OVER BUDGET" : ""}; ${done.tickets} tickets; oversold seats: ${done.oversold}`,
    );
    console.log(`purchase (${dialect}): buyers refused while seats were free: ${done.refusedWhileFree}`);
    // Beside orders a minute, what bounds them on this machine: one process's JavaScript runs on
    // one core (its other threads, the collector's, take a little more).
    if (orders)
      console.log(
        `purchase (${dialect}): the serving process's CPU per order: ${(cpuMs / orders).toFixed(1)} ms (all its threads); ` +
          `it used ${(cpuMs / (seconds * 1000)).toFixed(2)} cores in the run, and ${budget.toLocaleString("en-GB")} orders/min ` +
          `at this cost would need ${(((budget / 60) * (cpuMs / orders)) / 1000).toFixed(2)}`,
      );
    console.log(
      `purchase (${dialect}): database statements per order: ${orders ? (statements / orders).toFixed(1) : "n/a"}` +
        (dialect === "postgres" ? " (budget ≤ 40)" + (orders && statements / orders > 40 ? " OVER BUDGET" : "") : ""),
    );
    const stops = Object.entries(done.stopped)
      .map(([why, count]) => `${count} at ${why}`)
      .join(", ");
    if (stops) console.log(`purchase (${dialect}): journeys stopped short: ${stops}`);
    const perStep = STEPS.map((name) => `${name} ${percentile(done.times[name], 95).toFixed(0)} ms`).join(", ");
    console.log(`purchase (${dialect}): p95 per step: ${perStep}`);
  } finally {
    await site.close();
  }
}

export async function benchPurchase(root: string, dialects: DialectName[]) {
  const build = await loadBuild(root);
  for (const dialect of dialects) await benchPurchaseOn(dialect, build, root);
  // Several server processes on one database (decision 0030): one and two, side by side.
  for (const dialect of dialects) await benchProcesses(root, build, dialect);
}
