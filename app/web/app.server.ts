import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { imagesDirOf, pictureFiles, PICTURES_PATH } from "./picture-files.server";
import { extname, join } from "node:path";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import { namedCache } from "~/caches.server";
import type { Logger } from "pino";
import type { AppServices } from "~/web/context";
import { WALLET_ORIGINS } from "~/config/env.server";
import { prepareBuild } from "./build.server";
import { createDoor, type DoorPages } from "./door.server";
import { randomToken } from "./random-tokens.server";
import { createPolyfillBundler } from "./polyfills.server";
import { requestReads } from "./request-reads.server";
import { clientAddress, forwardedHostFromTrustedProxiesOnly } from "./client-address.server";
import { robotsTxt, sitemapXml } from "~/use-cases/sitemap.server";
import { constants } from "node:zlib";
import { STATUS_CODES } from "node:http";
import { matchRoutes, type RouteObject } from "react-router-dom";
import type { Metrics } from "~/monitoring/metrics.server";

/**
 * How many new connections may wait to be accepted. Node's default, 511, overflowed in an
 * on-sale rush (`npm run bench -- spike`, 2,000 buyers arriving within 10 s on two cores: the
 * kernel counted thousands of listen-queue overflows): a busy server accepts once per turn of its
 * event loop, the kernel drops what does not fit, and the buyer's browser gives up after seconds
 * of silence ("this site can't be reached"; 90 such pages in one run). In a longer queue they are
 * answered late instead. Linux caps it at net.core.somaxconn, 4096 on current kernels.
 */
export const LISTEN_BACKLOG = 4096;

/**
 * Brotli with a 256 KB window instead of 4 MB: each response's encoder then holds far less
 * memory, which V8 counts against its heap (with the default, pages asked for with "br" forced a
 * full garbage collection every few requests). Quality 2, not `compression`'s 4: half the CPU on
 * the largest seat map for 0.4% more bytes (docs/decisions/0028-brotli-window.md).
 */
export const BROTLI_PARAMS = {
  [constants.BROTLI_PARAM_QUALITY]: 2,
  [constants.BROTLI_PARAM_LGWIN]: 18,
};

/** The site's compression: also the bench's bare page's, so the two are compared like for like. */
export const compressResponses = () => compression({ brotli: { params: BROTLI_PARAMS } });

export interface ServerAppOptions {
  build: ServerBuild;
  services: AppServices;
  logger: Logger;
  /** The project's root folder: public/ and locales/ are read from it. */
  root: string;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

export function createServerApp({ build, services, logger, root }: ServerAppOptions) {
  const { config } = services;
  const app = express();
  app.disable("x-powered-by");
  // Query strings as flat name=value pairs (node:querystring), all any handler here reads: qs's
  // nested objects and arrays cost every request its parse, the door's refreshes most of all.
  app.set("query parser", "simple");
  app.set("trust proxy", config.trustProxy);
  app.use(forwardedHostFromTrustedProxiesOnly);

  const prepared = prepareBuild(build, config.routingType, services.sessions.verifyCsrf);
  services.metrics.watchCache(services.i18n.localeStats);
  app.use(requestLogging(logger));
  app.use(requestDurations(services.metrics, routeOf(prepared, services.metrics)));
  app.use(
    securityHeaders(
      config.production,
      config.wallets.map((wallet) => WALLET_ORIGINS[wallet]),
      brandImageOrigins(config.brand.logoUrl),
    ),
  );
  app.use(onlyTheSitesMethods);
  // The on-sale door (issue 54): a waiting room's pages, answered before anything else is asked,
  // and not compressed: a waiting page is a few KB, which one round trip carries whole either
  // way, while making a compressor for it cost more than the rest of the answer (decision 0056).
  const doorPages = doorPagesOf(build, services);
  if (doorPages) {
    for (const stats of doorPages.caches) services.metrics.watchCache(stats);
    app.use(createDoor(services, doorPages));
  }
  app.use(compressResponses());

  app.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").type("text/plain").send("ok");
  });
  // Prometheus's scrape (docs/operating.md, "Metrics"): this process's counters and gauges.
  app.get("/metrics", async (req, res) => {
    res.set("Cache-Control", "no-store");
    // Without a token, production has not chosen to publish the figures (decision 0046).
    if (!config.metricsToken && config.production) return void res.status(404).type("text/plain").send("Not found");
    if (config.metricsToken && !bearerIs(req.get("Authorization"), config.metricsToken))
      return void res
        .status(401)
        .set("WWW-Authenticate", 'Bearer realm="metrics"')
        .type("text/plain")
        .send("Unauthorised");
    try {
      const { registry } = services.metrics;
      res.set("Content-Type", registry.contentType).send(await registry.metrics());
    } catch (error) {
      (res.locals.logger as Logger).error({ err: error }, "metrics failed");
      res.status(503).type("text/plain").send("unavailable");
    }
  });
  app.get("/readyz", async (_req, res) => {
    const ready = await services.ready().catch(() => false);
    res
      .set("Cache-Control", "no-store")
      .status(ready ? 200 : 503)
      .type("text/plain")
      .send(ready ? "ready" : "not ready");
  });

  // The waiting room for monitoring, as /readyz is. Anyone: every room's numbers summed, at most
  // a second old, so asking often costs the store nothing. The operator (Authorization: Bearer
  // QUEUE_STATUS_TOKEN): each room, whether it queues, how many wait and are in, how long the last
  // in line can expect to wait. Counts only: nothing about anyone (issue 41).
  app.get("/queuez", async (req, res) => {
    res.set("Cache-Control", "no-store");
    const authorization = req.get("Authorization");
    try {
      if (!/^Bearer ./.test(authorization ?? "")) {
        res.json(await services.waitingRoom.totals());
        return;
      }
      if (!bearerIs(authorization, config.waitingRoom.statusToken)) {
        res.status(401).set("WWW-Authenticate", 'Bearer realm="queuez"').json({ error: "unauthorised" });
        return;
      }
      const rooms = await services.waitingRoom.roomStatuses();
      res.json({ queueing: rooms.some((room) => room.queueing), rooms });
    } catch (error) {
      logger.warn({ err: error }, "waiting room status failed");
      res.status(503).json({ error: "unavailable" });
    }
  });

  // For search engines (issue 40 item 4): the public pages, and what to leave alone. Outside Remix:
  // neither is a page, and neither needs a session, a CSRF token or a nonce.
  app.get("/sitemap.xml", async (_req, res) => {
    try {
      res
        .set("Cache-Control", "public, max-age=3600")
        .type("application/xml")
        .send(await sitemapXml(services));
    } catch (error) {
      (res.locals.logger as Logger).error({ err: error }, "sitemap failed");
      res.set("Cache-Control", "no-store").status(503).type("text/plain").send("unavailable");
    }
  });
  const robots = robotsTxt(config);
  app.get("/robots.txt", (_req, res) => {
    res.set("Cache-Control", "public, max-age=3600").type("text/plain").send(robots);
  });

  // Fingerprinted by the compiler: the name changes whenever the content does.
  app.use("/build", express.static(join(root, "public/build"), { immutable: true, maxAge: "1y", index: false }));
  app.use("/locales", localeFiles(services.i18n));
  // The shows' pictures: content-hashed names, so cached for a year.
  app.use(PICTURES_PATH, pictureFiles(imagesDirOf(services.config, root)));
  const polyfills = createPolyfillBundler(join(root, "public/polyfills"));
  app.get("/polyfills.js", (req, res) => {
    const features = typeof req.query.features === "string" ? req.query.features : "";
    res.set("Cache-Control", "public, max-age=86400").type("application/javascript").send(polyfills.bundle(features));
  });
  // Only a path with a file extension is looked for in public/: a page's never has one, and asking
  // the disk about every page request costs a file system call each (issue 19). Nor does a page's
  // data, which a browser with script asks for at the page's path plus ".data" (Remix's single
  // fetch): each was a failed look on disk, with an error and its stack, 9% of such a request.
  const publicFiles = express.static(join(root, "public"), { maxAge: "1h", index: false });
  app.use((req, res, next) => {
    const extension = extname(req.path);
    return extension && extension !== ".data" ? publicFiles(req, res, next) : next();
  });

  // The payment gateway's notifications (webhooks): a server calling, not a buyer's form, so
  // outside Remix and its CSRF check; the gateway adapter checks the notification's signature.
  app.post("/payments/notifications", express.text({ type: "*/*", limit: "64kb" }), async (req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const log = res.locals.logger as Logger;
    try {
      const accepted = await services.payments.notify(typeof req.body === "string" ? req.body : "", headers);
      if (!accepted) log.warn("payment notification refused: not a genuine notification about one of our payments");
      res.status(accepted ? 204 : 400).end();
    } catch (error) {
      // A 5xx makes the gateway send it again later.
      log.error({ err: error }, "payment notification failed");
      res.status(500).end();
    }
  });

  app.use(privatePagesUncached);

  app.use(sameOriginForms);
  app.use(discardUnreadBody);
  // The request context carries every service but the store: pages go through the services.
  const { store: _store, ...requestServices } = services;
  app.all(
    "*",
    createRequestHandler({
      build: prepared,
      // In every APP_ENV: in development mode Remix sends a failed loader's or action's message
      // and stack (SQL, file paths) to the browser, in the page's data and the error page. The
      // stack is in the log line instead (handleError, app/entry.server.tsx).
      mode: "production",
      getLoadContext: (req, res) => ({
        ...requestServices,
        clientAddress: clientAddress(req),
        logger: res.locals.logger as Logger,
        requestId: res.locals.requestId as string,
        cspNonce: res.locals.cspNonce as string,
        formFromAnotherSite: res.locals.formFromAnotherSite === true,
        readOnce: requestReads(req.method),
      }),
    }),
  );

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const log = (res.locals.logger as Logger | undefined) ?? logger;
    const status = clientErrorStatus(error);
    if (status === undefined) {
      log.error({ err: error }, "unhandled error");
      if (!res.headersSent) res.status(500).type("text/plain").send("Internal server issue");
      return;
    }
    // What the client sent is at fault, not the site: a warning, without a stack.
    log.warn(
      { method: req.method, path: req.path, status, reason: (error as Error).message },
      "request refused: it cannot be read",
    );
    if (!res.headersSent) res.status(status).type("text/plain").send(STATUS_CODES[status]);
  });

  return app;
}

/**
 * The door's page writer: the waiting room route's (it renders with the site's components, which
 * this layer does not import), found in the build by its export.
 */
function doorPagesOf(build: ServerBuild, services: AppServices): DoorPages | undefined {
  for (const route of Object.values(build.routes)) {
    const make = (route.module as { doorPages?: (context: Pick<AppServices, "config" | "i18n">) => DoorPages })
      .doorPages;
    if (typeof make === "function") return make(services);
  }
  return undefined;
}

/**
 * The 4xx an error from Express or a body parser carries (http-errors' `status`): 400 for a path
 * whose %-encoding is malformed, 413 for a body over its limit, 400 for a body cut short.
 */
function clientErrorStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500 ? status : undefined;
}

/** What the site answers: pages (GET, HEAD) and forms (POST). */
const ALLOWED_METHODS = "GET, HEAD, POST";

/**
 * Any other method is answered here, before Remix, which fails on OPTIONS and TRACE with an error
 * in the log: OPTIONS is told what is allowed (204, no CORS headers, so no other site's script
 * may call), the rest refused with 405. A warning each: someone probing, or a misconfigured client.
 */
function onlyTheSitesMethods(req: Request, res: Response, next: NextFunction) {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "POST") return next();
  const status = req.method === "OPTIONS" ? 204 : 405;
  (res.locals.logger as Logger).warn(
    { method: req.method, path: req.path, status },
    "request refused: method not answered",
  );
  res.status(status).set("Allow", ALLOWED_METHODS).end();
}

/**
 * The pages that hold one person's details (a basket, an order, an account, e-tickets, a
 * membership, a sandbox payment, the staff's pages), and their data as script asks for it (the path plus `.data`):
 * no cache, the browser's included, may keep them (issue 53).
 */
const PRIVATE_PAGES = /^\/(?:checkout|account|e-tickets|membership|sandbox|staff)(?:[/.]|$)/;

function privatePagesUncached(req: Request, res: Response, next: NextFunction) {
  if (PRIVATE_PAGES.test(req.path)) res.set("Cache-Control", "no-store");
  next();
}

/**
 * Remix refuses a form whose Origin is not this host, but with a bare 500, an empty page and an
 * error in the log, while every cross-site form a browser sends gets there. The same comparison is
 * made here, first: such a form is logged as the warning it is, and goes on without its Origin (so
 * Remix's own check passes) but marked, for the actions' guard (build.server.ts) to answer with a
 * 403 page that says what happened. Remix's check stays behind it, so anything this misses is
 * still refused. See docs/decisions/0011-safe-return-paths-and-request-limits.md.
 */
function sameOriginForms(req: Request, res: Response, next: NextFunction) {
  const origin = req.headers.origin;
  if (req.method === "GET" || req.method === "HEAD" || origin === undefined) return next();
  // Only a trusted proxy's X-Forwarded-Host is still here (forwardedHostFromTrustedProxiesOnly).
  const host = (req.get("x-forwarded-host")?.split(",")[0]?.trim() || req.get("host")) ?? "";
  const claimed = originHost(origin);
  if (claimed !== "" && claimed !== host) {
    (res.locals.logger as Logger).warn(
      { method: req.method, path: req.path, origin, host },
      "form from another site refused: its origin is not this host",
    );
    delete req.headers.origin;
    res.locals.formFromAnotherSite = true;
  }
  next();
}

/** The host an Origin names, as Remix reads it: "" (no host, as file://) passes its check. */
function originHost(origin: string): string | null {
  if (origin === "null") return "null";
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * A form refused before it was read (too large, another site) leaves its body unread, and the
 * connection would wait on it: once the answer has gone, read the rest and drop it.
 */
function discardUnreadBody(req: Request, res: Response, next: NextFunction) {
  res.on("finish", () => {
    if (req.complete) return;
    req.removeAllListeners("data");
    req.resume();
  });
  next();
}

/** One JSON line per request, with a request id that also goes back to the client. */
function requestLogging(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const started = process.hrtime.bigint();
    res.locals.requestId = requestId;
    res.locals.logger = logger.child({ requestId });
    res.set("X-Request-Id", requestId);
    res.on("finish", () => {
      // The path only: query strings can carry personal details (crmEmail) and codes.
      (res.locals.logger as Logger).info(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        },
        "request",
      );
    });
    next();
  };
}

/**
 * Each response's time, by what answered it: the Remix route id that matched the path, or the
 * fixed name of a handler outside Remix. Never the path itself: every seat map and order would
 * be a series of its own, and a visitor's made-up paths would add more without end.
 */
function requestDurations(metrics: Metrics, route: (path: string) => string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const stop = metrics.requestDuration.startTimer();
    res.on("finish", () => stop({ route: route(req.path), method: req.method, status: String(res.statusCode) }));
    next();
  };
}

const OUTSIDE_REMIX: [prefix: string, route: string][] = [
  ["/build/", "static:build"],
  ["/locales/", "static:locales"],
  [`${PICTURES_PATH}/`, "static:images"],
  ["/polyfills.js", "polyfills"],
  ["/healthz", "healthz"],
  ["/readyz", "readyz"],
  ["/metrics", "metrics"],
  ["/queuez", "queuez"],
  ["/sitemap.xml", "sitemap"],
  ["/robots.txt", "robots"],
  ["/payments/notifications", "payment-notifications"],
];

/** The route a path reaches, as a bounded label: the handler outside Remix, or Remix's route id. */
function routeOf(build: ServerBuild, metrics: Pick<Metrics, "watchCache">): (path: string) => string {
  const children = (parentId: string | undefined): RouteObject[] =>
    Object.values(build.routes)
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, path: route.path, index: true }
          : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: children(route.id) },
      );
  const tree = children(undefined);
  // React Router ranks the whole route table again on every match (a tenth of a first visit's CPU
  // in an on-sale rush): the label of a path, once found, is kept. It depends on the path alone.
  const labels = namedCache<string>("route-labels", {
    reason: "the metrics' route label of a path, without ranking the route table on every request",
    maxBytes: 256 * 1024,
    sizeOf: (label) => label.length,
  });
  metrics.watchCache(labels.stats);
  return (path) => {
    const outside = OUTSIDE_REMIX.find(([prefix]) => path === prefix || path.startsWith(prefix));
    if (outside) return outside[1];
    // Script's requests for a page's data (single fetch) ask for the page's path plus ".data".
    const page = path.endsWith(".data") ? path.slice(0, -".data".length) || "/" : path;
    if (extname(page)) return "static";
    // Refused with 400 before any route: React Router would warn on the console about each.
    if (!decodable(page)) return "malformed";
    return labels.getOrMake(page, () => matchRoutes(tree, page)?.at(-1)?.route.id ?? "unmatched")!;
  };
}

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** A brand logo on another site (BRAND_LOGO_URL): the page's images must be allowed from there. */
function brandImageOrigins(logoUrl: string | undefined): string[] {
  return logoUrl && /^https?:/.test(logoUrl) ? [new URL(logoUrl).origin] : [];
}

function securityHeaders(production: boolean, walletOrigins: string[], imageOrigins: string[]) {
  const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.cspNonce as string}'`;
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // strict-dynamic lets the nonce'd entry script load its own chunks; 'self' only
        // matters to browsers too old for strict-dynamic.
        scriptSrc: [nonce, "'strict-dynamic'", "'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", ...imageOrigins],
        fontSrc: ["'self'"],
        connectSrc: [...(production ? ["'self'"] : ["'self'", "ws:"]), ...walletOrigins],
        formAction: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'self'"],
      },
    },
    // Only over https (below): HSTS on a plain-http answer is ignored by browsers anyway and
    // would be wrong on a developer's machine.
    strictTransportSecurity: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
  });
  return (req: Request, res: Response, next: NextFunction) => {
    res.locals.cspNonce = randomToken(16, "base64");
    if (req.secure) res.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    headers(req, res, next);
  };
}

/**
 * Translation files for the browser. A request that names the current version may be cached for a
 * year; any other is an old page asking, and gets a short-lived answer.
 */
function localeFiles(i18n: Pick<AppServices["i18n"], "file" | "version">) {
  // From memory, not the folder: `common` carries the deployment's brand (i18n.server.ts).
  return (req: Request, res: Response, next: NextFunction) => {
    const file = i18n.file(req.path.replace(/^\//, ""));
    if (file === undefined || (req.method !== "GET" && req.method !== "HEAD")) return next();
    res.set(
      "Cache-Control",
      req.query.v === i18n.version ? "public, max-age=31536000, immutable" : "public, max-age=60",
    );
    res.type("application/json").send(file);
  };
}

/** Whether a presented token is the configured one, in constant time; never when none is configured. */
/**
 * Whether an Authorization header carries exactly this bearer token (an operator's, for /metrics
 * and /queuez). Digests compared in constant time, so neither the token nor its length leaks; an
 * unset token ("") matches nothing.
 */
function bearerIs(authorization: string | undefined, expected: string): boolean {
  const given = /^Bearer (.+)$/.exec(authorization ?? "")?.[1];
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return given !== undefined && expected !== "" && timingSafeEqual(digest(given), digest(expected));
}
