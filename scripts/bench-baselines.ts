// The baselines every speed budget of `npm run bench` is a ratio to (design.md section 8): a bare
// `node:http` request (a fixed small HTML answer) and a bare Remix page (one root route rendering
// a minimal document, served as the site is), measured once per run on the same machine, each
// served by this process while the load comes from a separate one (scripts/bench-load.mjs), the
// same way the pages part measures every page's server CPU. Machines differ by more than our
// budgets' margins and are shared, so a budget in milliseconds or orders a minute could not hold
// from one machine to the next; a ratio to what the same machine does with the least a request
// can be, measured in the same run, can.
import { fork } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import { PassThrough } from "node:stream";
import { createRequestHandler } from "@remix-run/express";
import { createReadableStreamFromReadable, type EntryContext, type ServerBuild } from "@remix-run/node";
import { Links, Meta, RemixServer, Scripts } from "@remix-run/react";
import express, { type RequestHandler } from "express";
import { createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { compressResponses, LISTEN_BACKLOG } from "~/web/app.server";

// Rounds alternate between the servers compared, so a change in the machine's load (other
// processes) falls on both figures rather than on one. Five, not three: on this shared machine a
// round's ratio moved by a fifth either way, and the median of three with it.
export const LOAD = { connections: 8, warmupMs: 500, durationMs: 2_000, rounds: 5 };
// As a browser asks: the server streams to browsers and compresses for them.
export const BROWSER_HEADERS = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  "accept-encoding": "gzip, deflate, br",
  accept: "text/html",
};

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** The end of every budget line, so that `grep 'OVER BUDGET$'` finds every budget missed. */
export const verdict = (within: boolean) => (within ? "within budget" : "OVER BUDGET");

/** How busy the machine is, and how many cores it has: what every absolute figure is read beside. */
export const machine = () =>
  `load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(", ")} (1, 5, 15 minutes) on ${availableParallelism()} cores`;
export const machineLine = (part: string) => `${part}: ${machine()}`;

export async function listen(server: Server) {
  server.listen(0, "127.0.0.1", LISTEN_BACKLOG);
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

export interface Load {
  /** Requests per second. */
  rate: number;
  /** The server's CPU time (user and system) per request, in milliseconds. */
  cpuMs: number;
}

/** The CPU, in ms, this process has used so far. */
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * One URL under load from a separate process keeping LOAD.connections requests in flight: the
 * rate, and the CPU the server spent per request while it was measured: this process's (the
 * servers' only) unless `serverCpuMs` counts another's (server.ts's processes, all together).
 * `numbered`: each request's address ends in a number of its own (the URL ends where it goes), so
 * that no two ask for the same page.
 */
export async function measureLoad(
  url: string,
  headers: Record<string, string>,
  { numbered = false, serverCpuMs = ownCpuMs }: { numbered?: boolean; serverCpuMs?: () => number } = {},
): Promise<Load> {
  const child = fork(new URL("./bench-load.mjs", import.meta.url), [
    JSON.stringify({
      url,
      headers,
      connections: LOAD.connections,
      warmupMs: LOAD.warmupMs,
      durationMs: LOAD.durationMs,
      numbered,
    }),
  ]);
  let cpuAtStart = serverCpuMs();
  const result = await new Promise<{ completed: number; failed: Record<string, number>; seconds: number }>(
    (resolve, reject) => {
      child.on(
        "message",
        (message: { kind: string; completed: number; failed: Record<string, number>; seconds: number }) => {
          if (message.kind === "measuring") cpuAtStart = serverCpuMs();
          else resolve(message);
        },
      );
      child.once("error", reject);
      child.once("exit", (code) => code !== 0 && reject(new Error(`bench: the load process exited with ${code}`)));
    },
  );
  const cpuMs = serverCpuMs() - cpuAtStart;
  const failures = Object.entries(result.failed);
  if (failures.length > 0)
    throw new Error(`${url}: requests failed under load (${failures.map(([s, n]) => `${n} × ${s}`).join(", ")})`);
  return { rate: result.completed / result.seconds, cpuMs: cpuMs / result.completed };
}

/** The median rate and the median CPU per request of several rounds' loads. */
export const medianLoad = (loads: Load[]): Load => ({
  rate: percentile(
    loads.map((load) => load.rate),
    50,
  ),
  cpuMs: percentile(
    loads.map((load) => load.cpuMs),
    50,
  ),
});

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

/** A bare Remix page on express, with the site's compression; `future` as the site's build has it. */
export async function startBareRemix(future: ServerBuild["future"], compress: RequestHandler = compressResponses()) {
  const app = express();
  app.use(compress);
  app.all("*", createRequestHandler({ build: bareRemixBuild(future), mode: "production" }));
  return listen(createServer(app));
}

const BARE_HTML = '<!DOCTYPE html><html lang="en"><head><title>Hello</title></head><body><h1>Hello</h1></body></html>';

/** A bare `node:http` request: the same small HTML document, whatever is asked. */
export function startBareHttp() {
  return listen(
    createServer((_, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(BARE_HTML);
    }),
  );
}

export interface Baselines {
  http: Load;
  remix: Load;
  /** Bare Remix pages one core serves a second: the spike's arrival rate. */
  remixPagesPerCoreSecond: number;
}

/**
 * Both baselines, in LOAD.rounds alternating rounds after one warm-up load each; prints their
 * figures beside the machine's cores and load.
 */
export async function measureBaselines(future: ServerBuild["future"]): Promise<Baselines> {
  console.log(machineLine("baselines"));
  const http = await startBareHttp();
  const remix = await startBareRemix(future);
  try {
    const servers = [`${http.origin}/`, `${remix.origin}/`];
    for (const url of servers) await measureLoad(url, BROWSER_HEADERS);
    const rounds: [Load[], Load[]] = [[], []];
    for (let round = 0; round < LOAD.rounds; round += 1)
      for (const [index, url] of servers.entries()) rounds[index]!.push(await measureLoad(url, BROWSER_HEADERS));
    const measured = { http: medianLoad(rounds[0]), remix: medianLoad(rounds[1]) };
    const baselines = { ...measured, remixPagesPerCoreSecond: 1000 / measured.remix.cpuMs };
    const spread = (loads: Load[]) =>
      `rounds ${Math.min(...loads.map((load) => load.cpuMs)).toFixed(3)}–${Math.max(...loads.map((load) => load.cpuMs)).toFixed(3)} ms`;
    console.log(
      `baselines: server CPU per request (${LOAD.connections} connections from a separate process, medians of ${LOAD.rounds} alternating rounds): ` +
        `a bare node:http request ${baselines.http.cpuMs.toFixed(3)} ms (${spread(rounds[0])}; ${baselines.http.rate.toFixed(0)} req/s), ` +
        `a bare Remix page ${baselines.remix.cpuMs.toFixed(3)} ms (${spread(rounds[1])}; ${baselines.remix.rate.toFixed(0)} req/s, ` +
        `${(baselines.remix.cpuMs / baselines.http.cpuMs).toFixed(1)} bare requests); ` +
        `one core serves ${baselines.remixPagesPerCoreSecond.toFixed(0)} bare Remix pages a second`,
    );
    return baselines;
  } finally {
    await remix.close();
    await http.close();
  }
}

/**
 * A budget line for a server cost: `label: what: N bare Remix pages of server CPU (X ms; budget ≤ B): verdict`.
 */
export function cpuBudgetLine(label: string, what: string, cpuMs: number, baselines: Baselines, budget: number) {
  const ratio = cpuMs / baselines.remix.cpuMs;
  return (
    `${label}: ${what}: ${ratio.toFixed(2)} bare Remix pages of server CPU ` +
    `(${cpuMs.toFixed(2)} ms beside ${baselines.remix.cpuMs.toFixed(3)} ms; budget ≤ ${budget}): ${verdict(ratio <= budget)}`
  );
}
