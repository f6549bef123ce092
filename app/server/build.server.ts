import type { ActionFunctionArgs, ServerBuild } from "@remix-run/node";
import { modeOfRouteId, type RoutingMode } from "~/routing/route-table.js";

type ServerRoute = ServerBuild["routes"][string];

/**
 * Fits the one build to this deployment, once, at start-up:
 *
 * - keeps only the routes of the active routing mode (and those every mode shares), on the server
 *   and in the manifest the browser gets, so the other modes' URLs are plain 404s;
 * - puts the CSRF check in front of every route's action. A route without an action still gets
 *   the check, then a 405, so no POST anywhere reaches code without a valid token, and no new
 *   route can forget it.
 *
 * See docs/decisions/0001-one-build-routing-modes.md and 0002-csrf-on-every-action.md.
 */
export function prepareBuild(
  build: ServerBuild,
  mode: RoutingMode,
  verifyCsrf: (request: Request) => Promise<void>,
): ServerBuild {
  const active = (id: string) => {
    const routeMode = modeOfRouteId(id);
    return routeMode === null || routeMode === mode;
  };
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (active(id)) routes[id] = guardActions(route, verifyCsrf);
  }
  const manifestRoutes = Object.fromEntries(Object.entries(build.assets.routes).filter(([id]) => active(id)));
  return { ...build, routes, assets: { ...build.assets, routes: manifestRoutes } };
}

function guardActions(route: ServerRoute, verifyCsrf: (request: Request) => Promise<void>): ServerRoute {
  const action = route.module.action;
  return {
    ...route,
    module: {
      ...route.module,
      action: async (args: ActionFunctionArgs) => {
        await verifyCsrf(args.request);
        if (!action) throw new Response(null, { status: 405, statusText: "Method Not Allowed" });
        return action(args);
      },
    },
  };
}
