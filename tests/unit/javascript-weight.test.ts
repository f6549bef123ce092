import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { JAVASCRIPT_BUDGET_KB, filesOf, matchedRoutes, pageWeights } from "../../scripts/javascript-weight";

// Reads the production build `npm test` makes before vitest runs (design.md section 8, issue 16
// item 8): sizes, not times, so it is as steady as the build.
const root = join(__dirname, "../..");
const serverBuild = join(root, "build/index.js");
let build: ServerBuild;

beforeAll(async () => {
  if (!existsSync(serverBuild)) throw new Error("no production build: run `npm run build` first");
  build = (await import(/* @vite-ignore */ pathToFileURL(serverBuild).href)) as ServerBuild;
});

describe("the JavaScript a first visit loads", () => {
  it(`is at most ${JAVASCRIPT_BUDGET_KB} KB gzipped on every page type`, () => {
    const weights = pageWeights(build, root);
    // Checkout steps, confirmation and accounts included: the build's routes, not a list.
    expect(weights.map(({ page }) => page)).toEqual(
      expect.arrayContaining(["checkout/payment", "checkout/confirmation", "account/details", "tickets"]),
    );
    const over = weights
      .filter(({ bytes }) => bytes > JAVASCRIPT_BUDGET_KB * 1024)
      .map(({ page, bytes }) => `${page} ${(bytes / 1024).toFixed(1)} KB`);
    expect(over).toEqual([]);
  });

  it("leaves the form checks (zod, libphonenumber's metadata) to be fetched when a form is used", () => {
    // The markers are there to find: the checks' own chunk, which pages fetch with import(), has both.
    const checksDir = join(root, build.assetsBuildDirectory, "_shared");
    const checks = readdirSync(checksDir).filter((name) => /^checks-\w+\.js$/.test(name));
    expect(checks).toHaveLength(1);
    const checksText = readFileSync(join(checksDir, checks[0]!), "utf8");
    expect(checksText).toContain("country_calling_codes");
    expect(checksText).toContain("invalid_type");

    const routeIds = Object.keys(build.assets.routes).filter((id) => /account\/|checkout\/|membership/.test(id));
    expect(routeIds.length).toBeGreaterThan(10);
    for (const id of routeIds) {
      for (const [url, source] of filesOf(build, root, matchedRoutes(build, id))) {
        const text = source.toString("utf8");
        // A key of libphonenumber's metadata and a zod issue code: neither is mangled by a minifier.
        expect({ id, url, libphonenumber: text.includes("country_calling_codes") }).toMatchObject({
          libphonenumber: false,
        });
        expect({ id, url, zod: text.includes("invalid_type") }).toMatchObject({ zod: false });
      }
    }
  });

  it("loads no empty stand-in for a server module, but where the root expects one (patches/@remix-run+dev)", () => {
    // The compiler puts `module.exports = {}` where a route imports a `.server` module or
    // @remix-run/node. Unpatched, each such import was a chunk of its own that every page fetched
    // and ran for nothing. One that a component reads is undefined in the browser: only the root's
    // polyfill loader is meant to be (see app/root.tsx); any other would break the page's script.
    const rootModule = build.assets.routes.root!.module;
    const stubs: string[] = [];
    // A resource route (no component, such as a CSV download) is fetched as a document: the
    // browser never loads its module, stand-in or not.
    const pages = Object.keys(build.assets.routes).filter((id) => build.routes[id]?.module.default);
    for (const id of pages) {
      for (const [url, source] of filesOf(build, root, matchedRoutes(build, id))) {
        const found = source.toString("utf8").match(/exports\s*=\s*\{\s*\}/g)?.length ?? 0;
        if (found > (url === rootModule ? 1 : 0)) stubs.push(`${id}: ${url}`);
      }
    }
    expect([...new Set(stubs)]).toEqual([]);
  });
});
