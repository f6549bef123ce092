// `npm run bench`'s purchase figures for several server processes (issue 20, decision 0030): the
// same 50 buyers without script (scripts/bench-buyers.ts, in a process of their own) buy from one
// performance of the largest house, on SQLite and on PostgreSQL, served by server.ts as an operator
// runs it, once with one process (WEB_CONCURRENCY=1) and once with production's default, one per
// core this machine lets it use (WEB_CONCURRENCY unset, decision 0057: a cluster's workers on one
// port; on SQLite all share the bench's file). Prints
// each run's orders per minute (for information: they are this machine's), the buyers refused while
// seats were free and the seats sold twice (both must be 0), then the two side by side.
import { fork, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { ServerBuild } from "@remix-run/node";
import type { DialectName, Store } from "~/db/connection.server";
import { usableCores } from "~/config/cores.server";
import { verdict } from "./bench-baselines";
import type { BuyersBrief, BuyersMessage } from "./bench-buyers";
import { buyersBrief, startSite } from "./bench-pages";

const BUYERS = Number(process.env.BENCH_BUYERS ?? 50);

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

type Database = { databaseUrl: string } | { dataDir: string };

/** A process's threads' CPU in ms: schedstat's nanoseconds, else stat's utime+stime in 10 ms ticks; 0 once it is gone. */
function processCpuMs(pid: number) {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce(
      (sum, thread) => sum + Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, "utf8").split(" ")[0]) / 1e6,
      0,
    );
  } catch {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return 0;
    }
  }
}

/**
 * The CPU, in ms, that process `pid` and every process under it (a cluster's primary and its
 * workers) have used so far, read from Linux's /proc: what serving cost, across processes.
 */
export function processTreeCpuMs(pid: number) {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone between the listing and the reading.
    }
  }
  const tree = [pid];
  for (let index = 0; index < tree.length; index += 1) tree.push(...(parents.get(tree[index]!) ?? []));
  return tree.reduce((sum, member) => sum + processCpuMs(member), 0);
}

/**
 * server.ts in production, with `workers` processes, on the given database; resolves once it
 * serves. `workers` undefined: production's default (WEB_CONCURRENCY unset, one per usable core).
 */
export async function startServerProcess(
  root: string,
  database: Database,
  secret: string,
  workers: number | undefined,
  env: Record<string, string> = {},
) {
  // What server.ts itself will choose, read the same way on the same machine, for the labels.
  const processes = workers === undefined ? usableCores() : { workers, from: "WEB_CONCURRENCY" as const };
  const port = await freePort();
  // On SQLite the processes share the bench's own file; on PostgreSQL the directory is theirs alone.
  const ownDir = "databaseUrl" in database ? mkdtempSync(join(tmpdir(), "box-office-bench-processes-")) : undefined;
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      APP_ENV: "production",
      SESSION_SECRET: secret,
      PAYMENT_PROVIDER: "sandbox",
      SANDBOX_IN_PRODUCTION: "yes",
      ...("databaseUrl" in database ? { DATABASE_URL: database.databaseUrl } : {}),
      DATA_DIR: "dataDir" in database ? database.dataDir : ownDir!,
      DEMO_CATALOGUE: "off",
      // As the in-process figures: no line per request, whose writing would be counted as serving.
      LOG_LEVEL: "warn",
      PORT: String(port),
      ...(workers === undefined ? {} : { WEB_CONCURRENCY: String(workers) }),
      ...env,
    },
  });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`bench: server.ts exited with ${child.exitCode}`);
    const ready = await fetch(`${origin}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error("bench: server.ts did not answer /readyz within 60 s");
    await sleep(200);
  }
  // The first worker answers as soon as it listens; give the others (started together) a moment.
  if (processes.workers > 1) await sleep(2_000);
  return {
    origin,
    /** How many processes serve, and what decided it. */
    processes,
    /** The CPU the server's processes have used so far, in ms (primary and workers). */
    cpuMs: () => processTreeCpuMs(child.pid!),
    async stop() {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
      if (ownDir) rmSync(ownDir, { recursive: true, force: true });
    },
  };
}

/**
 * The buyers, in a process of their own, buying through `brief.origin` until no seats are left for
 * them; each "no seats" checked against what is free. Their figures, and seats sold twice.
 */
/** The CPU this process has used since `start` (from `process.cpuUsage()`), in ms. */
export function cpuMsSince(start: NodeJS.CpuUsage) {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

export async function runBuyers(
  brief: BuyersBrief & { performanceId: string },
  site: Awaited<ReturnType<typeof startSite>>,
) {
  const { store, seatSearch } = site.services;
  let refusedWhileFree = 0;
  const checks: Promise<void>[] = [];
  const buyers = fork(new URL("./bench-buyers.ts", import.meta.url), {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const done = await new Promise<Extract<BuyersMessage, { kind: "done" }>>((resolve, reject) => {
    buyers.on("message", (message: BuyersMessage) => {
      if (message.kind === "done") resolve(message);
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
  return { ...done, refusedWhileFree, ...(await ticketsSold(store, brief.performanceId)) };
}

/**
 * The tickets issued for a performance, and how many seats among them were sold twice: two
 * tickets for one seat (the claims table's key forbids it; this counts it from the orders' side).
 */
export async function ticketsSold(store: Store, performanceId: string) {
  const issued = await store.db
    .selectFrom("order_tickets")
    .innerJoin("orders", "orders.id", "order_tickets.order_id")
    .select("order_tickets.ref")
    .where("orders.performance_id", "=", performanceId)
    .execute();
  return { tickets: issued.length, oversold: issued.length - new Set(issued.map((ticket) => ticket.ref)).size };
}

export async function benchProcesses(root: string, build: ServerBuild, dialect: DialectName) {
  const secret = randomBytes(32).toString("hex");
  // The demo catalogue in a throw-away database, and the bench's own view of it (for the buyers'
  // brief and the checks); the in-process site it also starts takes no requests.
  const site = await startSite(root, build, { SESSION_SECRET: secret }, dialect);
  const { databaseUrl, dataDir } = site.services.config;
  const database = databaseUrl ? { databaseUrl } : { dataDir };
  const perMinute: number[] = [];
  const byDefault = usableCores();
  try {
    // One process, then production's default, unless that is one process too.
    for (const workers of byDefault.workers > 1 ? [1, undefined] : [1]) {
      const server = await startServerProcess(root, database, secret, workers);
      const { workers: count } = server.processes;
      try {
        // Each run buys from the largest house's emptiest performance: one the earlier runs left alone.
        const brief = { ...(await buyersBrief(site, secret, BUYERS)), origin: server.origin };
        const result = await runBuyers(brief, site);
        const rate = (result.orders / result.seconds) * 60;
        perMinute.push(rate);
        const label = `purchase (${dialect}, ${count} server process${count > 1 ? "es" : ""}${workers === undefined ? `, production's default from the ${byDefault.from}` : ""})`;
        console.log(
          `${label}: ${result.orders} orders by ${BUYERS} buyers without script in ${result.seconds.toFixed(1)} s: ` +
            `${rate.toFixed(0)} orders/min, for information; ${result.tickets} tickets; oversold seats: ${result.oversold}; ` +
            `buyers refused while seats were free: ${result.refusedWhileFree} (budget 0 each): ` +
            verdict(result.oversold === 0 && result.refusedWhileFree === 0),
        );
        const stopped = Object.entries(result.stopped);
        if (stopped.length > 0)
          console.log(`${label}: buyers who stopped short: ${stopped.map(([why, n]) => `${n} at ${why}`).join(", ")}`);
      } finally {
        await server.stop();
      }
    }
    console.log(
      perMinute.length > 1
        ? `purchase (${dialect}): server.ts, 1 process ${perMinute[0]!.toFixed(0)} orders/min, ` +
            `${byDefault.workers} processes (production's default, from the ${byDefault.from}) ${perMinute[1]!.toFixed(0)} orders/min ` +
            `(×${(perMinute[1]! / perMinute[0]!).toFixed(2)}, on this machine's cores, shared with the buyers${dialect === "postgres" ? " and PostgreSQL" : ""})`
        : `purchase (${dialect}): production's default here is one server process (from the ${byDefault.from}): no second run`,
    );
  } finally {
    await site.close();
  }
}
