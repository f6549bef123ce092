import type { AddressInfo } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import { loadConfig } from "~/config/env.server";
import type { AppServices } from "~/context";
import { createServerApp } from "~/server/app.server";
import { createLogger } from "~/server/logger.server";
import { createAppServices } from "~/services.server";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export const TEST_SECRET = "test-secret-that-is-long-enough-0123456789";

export function testServices(env: Record<string, string> = {}) {
  const config = loadConfig({ APP_ENV: "test", SESSION_SECRET: TEST_SECRET, ...env });
  return createAppServices({ config, logger: createLogger("silent"), root: ROOT });
}

/** What the server hands a loader, for calling loaders and actions directly. */
export function testContext(env: Record<string, string> = {}): AppLoadContext {
  return { ...testServices(env), logger: createLogger("silent"), requestId: "test-request", cspNonce: "test-nonce" };
}

/** The production build, served as server.ts serves it, on a free port. Needs `npm run build`. */
export async function startServer(
  env: Record<string, string> = {},
  adjust: (services: AppServices) => void = () => {},
) {
  const build = (await import(pathToFileURL(`${ROOT}build/index.js`).href)) as ServerBuild;
  const services = testServices(env);
  adjust(services);
  const app = createServerApp({ build, services, logger: createLogger("silent"), root: ROOT });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** The Set-Cookie headers of a response, as a Cookie header a browser would send back. */
export function cookiesFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}
