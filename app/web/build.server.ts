import type { ActionFunctionArgs, HeadersArgs, LoaderFunctionArgs, ServerBuild } from "@remix-run/node";
import { methodNotAllowed } from "~/urls/params";
import { modeOfRouteId, type RoutingMode } from "~/urls/route-table";
import { isStoreUnreachable } from "~/ticketing/errors";
import { REFUSED_FORM } from "~/views/refusals";

type ServerRoute = ServerBuild["routes"][string];

/**
 * Fits the one build to this deployment, once, at start-up:
 *
 * - keeps only the routes of the active routing mode (and those every mode shares), on the server
 *   and in the manifest the browser gets, so the other modes' URLs are plain 404s;
 * - puts the checks every form must pass in front of every route's action: not sent from another
 *   site (403), no larger than `formBodyLimit` (413, before anything parses it), and the CSRF
 *   token (403). A route without an action still gets the checks, then a 405, so no POST anywhere
 *   reaches code without a valid token, and no new route can forget it;
 * - answers a store that cannot be reached, in any loader or action, with 503 and `Retry-After`
 *   (the site's error page, or its page data), logged with its stack: a buyer is told to come
 *   back in a moment, not that their seat was taken, and no new route can forget it.
 *
 * See docs/decisions/0001-one-build-routing-modes.md, 0002-csrf-on-every-action.md and
 * 0011-safe-return-paths-and-request-limits.md.
 */
export function prepareBuild(
  build: ServerBuild,
  mode: RoutingMode,
  verifyCsrf: (request: Request) => Promise<void>,
  formBodyLimit = FORM_BODY_LIMIT,
): ServerBuild {
  const active = (id: string) => {
    const routeMode = modeOfRouteId(id);
    return routeMode === null || routeMode === mode;
  };
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (active(id)) routes[id] = answerOutages(guardActions(route, verifyCsrf, formBodyLimit));
  }
  const manifestRoutes = Object.fromEntries(Object.entries(build.assets.routes).filter(([id]) => active(id)));
  return { ...build, routes, assets: { ...build.assets, routes: manifestRoutes } };
}

/**
 * The largest form body accepted, in bytes. The largest real form, the seat map with every seat of
 * the largest venue (2,341, Regent Palace) ticked, measured at 22,365 bytes; every other form is a
 * few hundred.
 */
export const FORM_BODY_LIMIT = 64 * 1024;

function guardActions(
  route: ServerRoute,
  verifyCsrf: (request: Request) => Promise<void>,
  formBodyLimit: number,
): ServerRoute {
  const action = route.module.action;
  return {
    ...route,
    module: {
      ...route.module,
      action: async (args: ActionFunctionArgs) => {
        // Set by the server's own origin check (app.server.ts), which answers in Remix's place.
        if (args.context.formFromAnotherSite)
          throw new Response(REFUSED_FORM.crossSite, { status: 403, statusText: "Forbidden" });
        const request = await withBoundedBody(args.request, formBodyLimit);
        if (!request) {
          // A warning: a real form this large would mean the limit is wrong, not the buyer.
          args.context.logger.warn({ limit: formBodyLimit }, "form refused: its body is over the limit");
          throw new Response(REFUSED_FORM.tooLarge, { status: 413, statusText: "Content Too Large" });
        }
        await verifyCsrf(request);
        if (!action) throw methodNotAllowed();
        return action({ ...args, request });
      },
    },
  };
}

/**
 * How long a buyer (or a crawler, or a proxy) is asked to wait after a store outage: a PostgreSQL
 * restart or failover takes tens of seconds.
 */
const STORE_RETRY_AFTER_SECONDS = 30;

function answerOutages(route: ServerRoute): ServerRoute {
  const { loader, action, headers } = route.module;
  const unavailable = (error: unknown, context: LoaderFunctionArgs["context"]) => {
    if (!isStoreUnreachable(error)) return error;
    // Remix does not pass a thrown Response to handleError: the outage is logged here instead.
    context.logger.error({ err: error }, "store unreachable");
    return new Response(null, {
      status: 503,
      statusText: "Service Unavailable",
      headers: { "Retry-After": String(STORE_RETRY_AFTER_SECONDS) },
    });
  };
  const answering =
    <Args extends { context: LoaderFunctionArgs["context"] }, Answer>(run: (args: Args) => Answer) =>
    async (args: Args) => {
      try {
        return await run(args);
      } catch (error) {
        throw unavailable(error, args.context);
      }
    };
  return {
    ...route,
    module: {
      ...route.module,
      ...(loader && { loader: answering(loader) }),
      ...(action && { action: answering(action) }),
      // A thrown Response's headers reach the answer only through the headers of the route that
      // shows the error; without a headers export of its own, a route passes its parent's on.
      headers: (args: HeadersArgs) => {
        const own = new Headers(typeof headers === "function" ? headers(args) : (headers ?? args.parentHeaders));
        const retryAfter = args.errorHeaders?.get("Retry-After");
        if (retryAfter) own.set("Retry-After", retryAfter);
        return own;
      },
    },
  };
}

/**
 * The request with its body read into memory, or null as soon as the body is known to be larger
 * than `limit`: at once from a Content-Length, and by counting for a chunked body, so no more than
 * `limit` bytes are ever held and nothing parses a body that is too large.
 */
async function withBoundedBody(request: Request, limit: number): Promise<Request | null> {
  const length = request.headers.get("Content-Length");
  const declared = Number(length ?? 0);
  if (declared > limit) return null;
  // A declared length is the body's length: Node's HTTP parser reads that many bytes and no more
  // (and refuses a request that also says chunked). Such a body, within the limit, goes on as it
  // came: copying it into a new Request, with an abort signal of its own, cost a form about 5% of
  // its CPU (issue 54). Only a body of unknown length is counted as it is read.
  if (!request.body || (length !== null && /^\d+$/.test(length))) return request;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    // Not cancelled: cancelling destroys the socket, and the 413 page could not be sent. The
    // server discards what is left once the answer has gone (app.server.ts).
    if (size > limit) return null;
    chunks.push(value);
  }
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: Buffer.concat(chunks),
    signal: request.signal,
  });
}
