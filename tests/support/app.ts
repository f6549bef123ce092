import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import { loadConfig } from "~/config/env.server";
import type { Clock } from "~/clock";
import type { AppServices } from "~/web/context";
import { createServerApp } from "~/web/app.server";
import { createLogger, type Logger } from "~/logging/logger.server";
import { createAppServices } from "~/composition/app-services.server";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export const TEST_SECRET = "test-secret-that-is-long-enough-0123456789";

/**
 * The pictures the demo's import makes, shared by every test's data folder: their names come from
 * their content, so a picture made once (the first demo server of a run) is found by the rest,
 * and the demo loads without encoding its posters again.
 */
export const SHARED_IMAGES = join(tmpdir(), "box-office-test-images");

/** A fresh data folder whose images/ is the shared one. */
export function testDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "box-office-data-"));
  mkdirSync(SHARED_IMAGES, { recursive: true });
  symlinkSync(SHARED_IMAGES, join(dir, "images"), "dir");
  return dir;
}

/**
 * Services over a throw-away SQLite file, empty unless the test asks for the demo catalogue
 * (DEMO_CATALOGUE: "auto"). Close them when done.
 */
export async function testServices(
  env: Record<string, string | undefined> = {},
  clock?: Clock,
  logger: Logger = createLogger("silent"),
) {
  const config = loadConfig({
    APP_ENV: "test",
    SESSION_SECRET: TEST_SECRET,
    DATA_DIR: testDataDir(),
    DEMO_CATALOGUE: "off",
    // The sandbox takes the payments, also when a test runs as production (issue 39).
    PAYMENT_PROVIDER: "sandbox",
    SANDBOX_IN_PRODUCTION: "yes",
    ...env,
  });
  return createAppServices({ config, logger, root: ROOT, clock });
}

/**
 * What the server hands a loader, for calling loaders and actions directly; with the store beside
 * it for the test to seed (a loader's type has no store, as the server's context has none).
 */
export async function testContext(
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<AppLoadContext & Pick<AppServices, "store">> {
  return {
    ...(await testServices(env, clock)),
    logger: createLogger("silent"),
    requestId: "test-request",
    clientAddress: "127.0.0.1",
    cspNonce: "test-nonce",
    readOnce: (_key, read) => read(),
  };
}

/**
 * The production build, served as server.ts serves it, on a free port. Needs `npm run build`.
 * `env` overrides the test settings; a variable given as undefined is unset (APP_ENV's default).
 */
export async function startServer(
  env: Record<string, string | undefined> = {},
  options: {
    seed?: (services: AppServices) => Promise<void>;
    adjust?: (services: AppServices) => void;
    /** The clock every service reads (a fixedClock lets a test move time). */
    clock?: Clock;
    /** Where the server logs (silent unless a test wants to read the log: see `logLines`). */
    logger?: Logger;
  } = {},
) {
  const build = (await import(pathToFileURL(`${ROOT}build/index.js`).href)) as ServerBuild;
  // Listening first, so the site knows its own address (PUBLIC_URL) before it starts: a payment
  // provider's stand-in sends the buyer back there.
  const server = createHttpServer();
  // A test may spend longer than Node's 5 s between two requests (checking a big page): the
  // client would then reuse a connection the server is closing, and read ECONNRESET.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  const services = await testServices({ PUBLIC_URL: `http://127.0.0.1:${port}`, ...env }, options.clock);
  await options.seed?.(services);
  options.adjust?.(services);
  server.on(
    "request",
    createServerApp({ build, services, logger: options.logger ?? createLogger("silent"), root: ROOT }),
  );
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    services,
    close: async () => {
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      // Kept-alive connections (some with a response body the test never read) would otherwise
      // hold the server open for keepAliveTimeout: the tests are over, so they all go.
      server.closeAllConnections();
      await closed;
      await services.close();
    },
  };
}

/** A logger that keeps every line it writes, parsed, for a test to read. */
export function logLines(level = "info") {
  const lines: { level: string; msg: string; [field: string]: unknown }[] = [];
  const logger = createLogger(level, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** The Set-Cookie headers of a response, as a Cookie header a browser would send back. */
export function cookiesFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}
