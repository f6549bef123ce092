// The production entry: validate the configuration, build the services, serve the Remix build
// through express, and shut down cleanly on SIGTERM.
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { ConfigError, loadConfig } from "~/config/env.server";
import { createServerApp } from "~/web/app.server";
import { createLogger } from "~/logging/logger.server";
import { createAppServices } from "~/composition/app-services.server";

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

const config = readConfig();
const logger = createLogger(config.logLevel);
const build = (await import(pathToFileURL(`${root}/build/index.js`).href)) as ServerBuild;
const services = await createAppServices({ config, logger, root });
const app = createServerApp({ build, services, logger, root });

const server = app.listen(config.port, () => {
  const { port } = server.address() as AddressInfo;
  logger.info({ port, routingType: config.routingType, appEnv: config.appEnv }, "listening");
});

const SHUTDOWN_GRACE_MS = 10_000;
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

process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
