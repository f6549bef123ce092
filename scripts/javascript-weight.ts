// The JavaScript a first visit to each page loads, gzipped: the entry, the route modules that
// render the page (the route and the routes it sits in) and everything they import statically.
// `import("…")` loads on demand, not on a first visit, so it is not counted. Shared by the bench
// (scripts/bench-pages.ts) and the budget test (tests/unit/javascript-weight.test.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { ServerBuild } from "@remix-run/node";

/** design.md section 8: no page ships more than 120 KB of gzipped JavaScript. */
export const JAVASCRIPT_BUDGET_KB = 120;
/** Issue 4's aim, tighter than design.md's budget. */
export const JAVASCRIPT_AIM_KB = 100;

export interface PageWeight {
  /** The page type: its route id without the routing mode ("tickets", "checkout/payment"). */
  page: string;
  /** Gzipped bytes a first visit loads. */
  bytes: number;
}

/** The files (URLs) a first visit to these route ids loads (none: what every page shares). */
export function filesOf(build: ServerBuild, root: string, routeIds: string[]): Map<string, Buffer> {
  const toLoad: string[] = [build.assets.entry.module, ...build.assets.entry.imports];
  for (const id of routeIds) {
    const route = build.assets.routes[id];
    if (!route) throw new Error(`no route ${id} in the build`);
    toLoad.push(route.module, ...(route.imports ?? []));
  }
  const fileOf = (url: string) => join(root, build.assetsBuildDirectory, url.slice(build.publicPath.length));
  const files = new Map<string, Buffer>();
  while (toLoad.length > 0) {
    const url = toLoad.pop()!;
    if (files.has(url)) continue;
    const source = readFileSync(fileOf(url));
    files.set(url, source);
    // Static imports only (`from "…"`, `import "…"`); `import("…")` is fetched on demand.
    for (const [, imported] of source.toString("utf8").matchAll(/\b(?:from|import)\s*"([^"]+\.js)"/g)) {
      toLoad.push(imported!);
    }
  }
  return files;
}

/** Gzipped bytes of the modules these route ids load (none: what every page shares). */
export function javaScriptOf(build: ServerBuild, root: string, routeIds: string[]): number {
  let gzipped = 0;
  for (const source of filesOf(build, root, routeIds).values()) gzipped += gzipSync(source).length;
  return gzipped;
}

/** A route and the routes it sits in, outermost first: what renders when it matches. */
export function matchedRoutes(build: ServerBuild, id: string): string[] {
  const parentId = build.assets.routes[id]?.parentId;
  return [...(parentId ? matchedRoutes(build, parentId) : []), id];
}

/**
 * Every page type of the build: each route that renders a page and has no routes inside it, read
 * from the build (a new route is measured without a list to edit). A route offered under several
 * routing modes (DEFAULT/tickets, SINGLE_SHOW/tickets…) is one page type: its heaviest.
 */
export function pageWeights(build: ServerBuild, root: string): PageWeight[] {
  const routes = Object.values(build.assets.routes);
  const parents = new Set(routes.map((route) => route.parentId).filter(Boolean));
  const weights = new Map<string, number>();
  for (const route of routes) {
    if (route.id === "root" || parents.has(route.id) || !build.routes[route.id]?.module.default) continue;
    const page = route.id.replace(/^(DEFAULT|MULTI_VENUE|SINGLE_VENUE|SINGLE_SHOW)\//, "");
    const bytes = javaScriptOf(build, root, matchedRoutes(build, route.id));
    weights.set(page, Math.max(weights.get(page) ?? 0, bytes));
  }
  return [...weights].map(([page, bytes]) => ({ page, bytes })).sort((a, b) => b.bytes - a.bytes);
}
