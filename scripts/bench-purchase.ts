// `npm run bench`'s purchase figures, on SQLite and on PostgreSQL: 50 buyers without script, in a
// process of their own (scripts/bench-buyers.ts), buy from one performance of the largest house
// until no seats are left for them. Prints the serving process's CPU per order in bare Remix pages
// (the run's baseline, scripts/bench-baselines.ts; budget ≤ 25), the buyers told "no seats" while a
// block that fitted was free (must be 0), database statements per order, and seats sold twice
// (must be 0); and, for information, orders per minute and p95 per step, which are this machine's.
import { randomBytes } from "node:crypto";
import type { ServerBuild } from "@remix-run/node";
import type { DialectName } from "~/db/connection.server";
import { cpuBudgetLine, machine, percentile, verdict, type Baselines } from "./bench-baselines";
import { STEPS } from "./bench-buyers";
import { buyersBrief, loadBuild, startSite } from "./bench-pages";
import { benchProcesses, cpuMsSince, runBuyers } from "./bench-processes";

const BUYERS = Number(process.env.BENCH_BUYERS ?? 50);

/** A completed no-script order's server CPU, in bare Remix pages (design.md section 8). */
const ORDER_BUDGET_PAGES = 25;
/** Database statements per order on PostgreSQL (decision 0027; tests/routes/statements.test.ts). */
const STATEMENTS_BUDGET = 40;

async function benchPurchaseOn(dialect: DialectName, build: ServerBuild, root: string, baselines: Baselines) {
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
    const label = `purchase (${dialect})`;
    // Orders a minute are this machine's, for information (design.md section 8): read them beside
    // its cores and load, and the cores the serving process used (its JavaScript runs on one).
    console.log(
      `${label}: ${orders} orders by ${BUYERS} buyers without script in ${seconds.toFixed(1)} s: ` +
        `${((orders / seconds) * 60).toFixed(0)} orders/min, for information; the serving process used ` +
        `${(cpuMs / (seconds * 1000)).toFixed(2)} cores; ${machine()} at the end`,
    );
    console.log(
      orders
        ? cpuBudgetLine(
            label,
            "a completed no-script order (every request from best available to the confirmation; the serving process's threads)",
            cpuMs / orders,
            baselines,
            ORDER_BUDGET_PAGES,
          )
        : `${label}: a completed no-script order: no order was completed: OVER BUDGET`,
    );
    console.log(
      `${label}: ${done.tickets} tickets; oversold seats: ${done.oversold}; buyers refused while seats were free: ` +
        `${done.refusedWhileFree} (budget 0 each): ${verdict(done.oversold === 0 && done.refusedWhileFree === 0)}`,
    );
    const perOrder = orders ? statements / orders : Number.NaN;
    console.log(
      `${label}: database statements per order: ${orders ? perOrder.toFixed(1) : "n/a"}` +
        (dialect === "postgres"
          ? ` (budget ≤ ${STATEMENTS_BUDGET}): ${verdict(perOrder <= STATEMENTS_BUDGET)}`
          : " (for information; the budget is PostgreSQL's)"),
    );
    const stops = Object.entries(done.stopped)
      .map(([why, count]) => `${count} at ${why}`)
      .join(", ");
    if (stops) console.log(`${label}: journeys stopped short: ${stops}`);
    const perStep = STEPS.map((name) => `${name} ${percentile(done.times[name], 95).toFixed(0)} ms`).join(", ");
    console.log(`${label}: p95 per step, for information: ${perStep}`);
  } finally {
    await site.close();
  }
}

export async function benchPurchase(root: string, dialects: DialectName[], baselines: Baselines) {
  const build = await loadBuild(root);
  for (const dialect of dialects) await benchPurchaseOn(dialect, build, root, baselines);
  // Several server processes on one database (decision 0030): one and two, side by side.
  for (const dialect of dialects) await benchProcesses(root, build, dialect);
}
