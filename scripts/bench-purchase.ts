// `npm run bench`'s purchase figures, on SQLite and on PostgreSQL: 50 buyers without script, in a
// process of their own (scripts/bench-buyers.ts), buy from one performance of the largest house
// until no seats are left for them. Prints completed orders per minute, the buyers told "no
// seats" while a block that fitted was free (must be 0), database statements per order, p95 per
// step, and seats sold twice (must be 0). Figures, not a test: nothing here passes or fails on time.
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { ServerBuild } from "@remix-run/node";
import type { DialectName } from "~/db/connection.server";
import { STEPS, type BuyersMessage } from "./bench-buyers";
import { buyersBrief, loadBuild, startSite } from "./bench-pages";

const BUYERS = Number(process.env.BENCH_BUYERS ?? 50);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function benchPurchaseOn(dialect: DialectName, build: ServerBuild, root: string) {
  const secret = randomBytes(32).toString("hex");
  // Secure cookies are sent over plain http by fetch, so production settings work locally.
  const site = await startSite(root, build, { SESSION_SECRET: secret }, dialect);
  try {
    const { store, seatSearch } = site.services;
    const brief = await buyersBrief(site, secret, BUYERS);
    const statementsBefore = store.statements();
    let refusedWhileFree = 0;
    const checks: Promise<void>[] = [];
    const buyers = fork(new URL("./bench-buyers.ts", import.meta.url), {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const done = await new Promise<Extract<BuyersMessage, { kind: "done" }>>((resolve, reject) => {
      buyers.on("message", (message: BuyersMessage) => {
        if (message.kind === "done") resolve(message);
        // Told "no seats": was a block that fitted free? Seats are only taken during the run (holds
        // outlast it), so one free now was free then.
        else
          checks.push(
            seatSearch.search(brief.performanceId, { quantity: message.quantity }).then((found) => {
              if (found && "seatIds" in found) refusedWhileFree += 1;
            }),
          );
      });
      buyers.once("error", reject);
      buyers.once("exit", (code) => code !== 0 && reject(new Error(`bench: the buyers' process exited with ${code}`)));
      buyers.send(brief);
    });
    await Promise.all(checks);
    const statements = store.statements() - statementsBefore;

    // A seat sold twice would be two tickets for one seat; the claims table's key forbids it, and
    // this counts it from the orders' side.
    const issued = await store.db
      .selectFrom("order_tickets")
      .innerJoin("orders", "orders.id", "order_tickets.order_id")
      .select("order_tickets.ref")
      .where("orders.performance_id", "=", brief.performanceId)
      .execute();
    const oversold = issued.length - new Set(issued.map((ticket) => ticket.ref)).size;
    const { orders, seconds } = done;
    console.log(
      `purchase (${dialect}): ${orders} orders by ${BUYERS} buyers without script in ${seconds.toFixed(1)} s: ` +
        `${((orders / seconds) * 60).toFixed(0)} orders/min (aim 1,500); ${issued.length} tickets; ` +
        `oversold seats: ${oversold}`,
    );
    console.log(`purchase (${dialect}): buyers refused while seats were free: ${refusedWhileFree}`);
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
}
