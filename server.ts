// The production entry: validate the configuration, build the services, serve the Remix build
// through express, and shut down cleanly on SIGTERM. With more than one process (WEB_CONCURRENCY,
// or unset in staging and production, one per core the container may use: serverProcesses), this
// process becomes a cluster's primary: it prepares the store once, then starts that many workers,
// each running the rest of this file, serving the same port.
import cluster from "node:cluster";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import type { Logger } from "pino";
import { ConfigError, loadConfig, type Config } from "~/config/env.server";
import { serverProcesses } from "~/config/cores.server";
import { createServerApp, LISTEN_BACKLOG } from "~/web/app.server";
import { createLogger } from "~/logging/logger.server";
import { createAppServices, openServerStore, prepareStore } from "~/composition/app-services.server";

// The project's folder: this file's own, or two above when it runs compiled from build/server/.
const here = dirname(fileURLToPath(import.meta.url));
const root = existsSync(`${here}/package.json`) ? here : resolve(here, "../..");

function readConfig() {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

const SHUTDOWN_GRACE_MS = 10_000;

const config = readConfig();
const logger = createLogger(config.logLevel);
// Decided once, by the first process: a worker runs this file again and only serves.
const processes = cluster.isPrimary ? serverProcesses(config) : undefined;
if (processes) logger.info(processes, "server processes");
if (processes && processes.workers > 1) await runPrimary(config, logger, processes.workers);
else if (cluster.isWorker) await serve(logger.child({ worker: cluster.worker!.id, pid: process.pid }), false);
else await serve(logger, true);

/** Serves the build from this process; `prepare`: migrate and load the demo first (no primary did). */
async function serve(logger: Logger, prepare: boolean) {
  const build = (await import(pathToFileURL(`${root}/build/index.js`).href)) as ServerBuild;
  const services = await createAppServices({ config, logger, root, prepare });
  const app = createServerApp({ build, services, logger, root });

  const server = app.listen({ port: config.port, backlog: LISTEN_BACKLOG }, () => {
    const { port } = server.address() as AddressInfo;
    logger.info({ port, routingType: config.routingType, appEnv: config.appEnv }, "listening");
  });

  let stopping = false;

  function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    // Stop accepting, let in-flight requests finish, then close what the services hold.
    server.close(() => {
      services
        .close()
        .then(() => {
          logger.info("stopped");
          process.exit(0);
        })
        .catch((error: unknown) => {
          logger.error({ err: error }, "error while closing services");
          process.exit(1);
        });
    });
    // Keep-alive connections would hold the server open until they time out: close each one as soon
    // as its last response has gone.
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 250).unref();
    setTimeout(() => {
      logger.warn("in-flight requests did not finish in time; exiting");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
  }

  // A worker hears the signal from its primary (and, in a terminal, Ctrl-C's SIGINT as well).
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

/**
 * The cluster's primary: serves nothing itself. It prepares the store before any worker starts
 * (so they never race to migrate), keeps `workers` workers running, replacing one that
 * dies, and on SIGTERM passes the signal on and exits once every worker has stopped: 0 when all
 * stopped cleanly.
 */
async function runPrimary(config: Config, logger: Logger, workers: number) {
  const store = openServerStore(config, logger, root);
  try {
    await prepareStore(store, { config, logger, root });
  } finally {
    await store.close();
  }

  const startedAt = new Map<number, number>();
  let quickDeaths = 0;
  let stopping = false;
  let failed = false;
  let listening = 0;

  const start = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };

  cluster.on("listening", (worker, address) => {
    listening += 1;
    if (listening === workers) logger.info({ port: address.port, workers }, "all workers listening");
  });

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) {
      if (code !== 0) failed = true;
      if (startedAt.size === 0) {
        logger.info("stopped");
        process.exit(failed ? 1 : 0);
      }
      return;
    }
    // A worker that dies at start-up would die again at once: wait before the next, longer each time.
    quickDeaths = lived < 10_000 ? quickDeaths + 1 : 0;
    const delay = quickDeaths === 0 ? 0 : Math.min(500 * 2 ** (quickDeaths - 1), 30_000);
    logger.error({ worker: worker.id, code, signal, restartInMs: delay }, "worker died; starting another");
    setTimeout(() => {
      if (!stopping) start();
    }, delay).unref();
  });

  for (let index = 0; index < workers; index += 1) start();

  function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: startedAt.size }, "shutting down");
    if (startedAt.size === 0) process.exit(0);
    // Each worker finishes its requests in flight and closes its services, as a lone server does.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    setTimeout(() => {
      logger.warn("workers did not stop in time; exiting");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + 2_000).unref();
  }

  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
