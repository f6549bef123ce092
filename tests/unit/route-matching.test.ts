// Route matching on the server through the patched @remix-run/router (patches/, decision 0025): the
// same matches as the unpatched router for the site's real route table, and proof that the patch is
// applied.
//
// The patch keeps the flattened, ranked branches of a routes array per array (by identity), and
// each compiled path per (path, caseSensitive, end). Its contract: a routes array and the routes in
// it are not changed after they are first matched (Remix builds its arrays once, from the build),
// except through the router's own patchRoutes, which drops the kept branches.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as RouterModule from "@remix-run/router";
import type { AgnosticDataRouteObject as RouteObject } from "@remix-run/router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MODE_ROUTES, SHARED_ROUTES } from "~/routing/route-table.js";

type Router = typeof RouterModule;

// The patched copy: what @remix-run/server-runtime require()s (dist/router.cjs.js, the package's
// main). The browser's bundle takes the package's ES module (dist/router.js), left unpatched (the
// JavaScript budget): here it is the unpatched router the server's answers are checked against.
const require = createRequire(import.meta.url);
const router = require("@remix-run/router") as Router;
const unpatchedRouterFile = join(dirname(require.resolve("@remix-run/router")), "router.js");
const unpatchedRouter = (await import(pathToFileURL(unpatchedRouterFile).href)) as Router;

interface Entry {
  name: string;
  path?: string;
  index?: boolean;
  children?: Entry[];
}

/** The DEFAULT mode's routes as Remix hands them to the router: a root layout (path "") over
 * the mode's routes and the shared ones, each with id, path, index and caseSensitive. */
function defaultModeRoutes(): RouteObject[] {
  const toRoute = (entry: Entry, id: string): RouteObject =>
    ({
      id,
      path: entry.index ? undefined : entry.path,
      index: entry.index,
      caseSensitive: undefined,
      // As @remix-run/server-runtime's createRoutes, except that an index route has none (the
      // router refuses children on an index route when it makes a router of them).
      ...(entry.index ? {} : { children: (entry.children ?? []).map((child) => toRoute(child, child.name)) }),
    }) as RouteObject;
  return [
    {
      id: "root",
      path: "",
      children: [
        ...MODE_ROUTES.DEFAULT.map((entry) => toRoute(entry, `DEFAULT/${entry.name}`)),
        ...SHARED_ROUTES.map((entry) => toRoute(entry, entry.name)),
      ],
    },
  ];
}

/** What a match says: the route ids from the root down, the leaf's params and pathname. */
function described(router: Router, routes: RouteObject[], url: string) {
  const matches = router.matchRoutes(routes, url);
  if (!matches) return null;
  const leaf = matches[matches.length - 1]!;
  return { ids: matches.map((match) => match.route.id), params: leaf.params, pathname: leaf.pathname };
}

const SHOW = "/shows/the-lantern-keeper/regent-palace";
const showParams = { titleSlug: "the-lantern-keeper", venueSlug: "regent-palace" };

// What the unpatched router 1.23.3 answers for these paths (checked against it below).
const EXPECTED: [string, ReturnType<typeof described>][] = [
  ["/", { ids: ["root", "DEFAULT/home"], params: {}, pathname: "/" }],
  [SHOW, { ids: ["root", "DEFAULT/show"], params: showParams, pathname: SHOW }],
  [`${SHOW}/`, { ids: ["root", "DEFAULT/show"], params: showParams, pathname: `${SHOW}/` }],
  [
    `${SHOW}/calendar`,
    { ids: ["root", "DEFAULT/calendar"], params: { ...showParams, date: undefined }, pathname: `${SHOW}/calendar` },
  ],
  [
    `${SHOW}/calendar/2026-12-01`,
    {
      ids: ["root", "DEFAULT/calendar"],
      params: { ...showParams, date: "2026-12-01" },
      pathname: `${SHOW}/calendar/2026-12-01`,
    },
  ],
  [
    `${SHOW}/tickets/42`,
    {
      ids: ["root", "DEFAULT/tickets"],
      params: { ...showParams, performanceId: "42" },
      pathname: `${SHOW}/tickets/42`,
    },
  ],
  [
    "/venues/regent-palace",
    { ids: ["root", "DEFAULT/venue"], params: { venueSlug: "regent-palace" }, pathname: "/venues/regent-palace" },
  ],
  ...["reservations", "extras", "ticket-protection", "collection", "contacts", "payment", "verify", "confirmation"].map(
    (step): [string, ReturnType<typeof described>] => [
      `/checkout/${step}`,
      { ids: ["root", "checkout", `checkout/${step}`], params: {}, pathname: `/checkout/${step}` },
    ],
  ),
  ["/checkout/hold", { ids: ["root", "checkout", "checkout/hold"], params: {}, pathname: "/checkout/hold" }],
  // Matching ignores case and a trailing slash, and decodes the path.
  ["/Checkout/Payment/", { ids: ["root", "checkout", "checkout/payment"], params: {}, pathname: "/Checkout/Payment/" }],
  [
    "/legal/terms%20of%20sale",
    { ids: ["root", "legal"], params: { document: "terms of sale" }, pathname: "/legal/terms of sale" },
  ],
  [
    "/account/reset-password/abc",
    { ids: ["root", "account/reset-password"], params: { token: "abc" }, pathname: "/account/reset-password/abc" },
  ],
  // Not found: a URL no page has, a checkout step that does not exist, another mode's URL.
  ["/no/such/page", { ids: ["root", "not-found"], params: { "*": "no/such/page" }, pathname: "/no/such/page" }],
  ["/checkout/nope", { ids: ["root", "not-found"], params: { "*": "checkout/nope" }, pathname: "/checkout/nope" }],
  [
    "/events/the-lantern-keeper",
    {
      ids: ["root", "not-found"],
      params: { "*": "events/the-lantern-keeper" },
      pathname: "/events/the-lantern-keeper",
    },
  ],
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe("route matching on the server", () => {
  it("matches the site's real paths as the unpatched router does, first time and again", () => {
    const routes = defaultModeRoutes();
    for (const [url, expected] of EXPECTED) {
      expect(described(unpatchedRouter, defaultModeRoutes(), url), `${url}, unpatched`).toEqual(expected);
      expect(described(router, routes, url), url).toEqual(expected);
      expect(described(router, routes, url), `${url}, again`).toEqual(expected);
    }
    // And through a basename, which the kept branches do not depend on.
    expect(router.matchRoutes(routes, "/box/checkout/extras", "/box")?.map((match) => match.route.id)).toEqual([
      "root",
      "checkout",
      "checkout/extras",
    ]);
    expect(router.matchRoutes(routes, "/elsewhere/checkout/extras", "/box")).toBeNull();
  });

  it("keeps a compiled path per path, caseSensitive and end", () => {
    expect(router.matchPath({ path: "/checkout", end: false }, "/checkout/extras")?.pathname).toBe("/checkout");
    expect(router.matchPath({ path: "/checkout", end: true }, "/checkout/extras")).toBeNull();
    expect(router.matchPath({ path: "/checkout", caseSensitive: false }, "/CHECKOUT")?.pathname).toBe("/CHECKOUT");
    expect(router.matchPath({ path: "/checkout", caseSensitive: true }, "/CHECKOUT")).toBeNull();
    expect(router.matchPath("/checkout", "/checkout")?.pathname).toBe("/checkout");
  });

  it("gives each caller matches of its own: changing them changes nobody else's", () => {
    const routes = defaultModeRoutes();
    const first = router.matchRoutes(routes, "/legal/privacy")!;
    expect(first.map((match) => match.params)).toEqual([{ document: "privacy" }, { document: "privacy" }]);
    (first[1]!.params as Record<string, string>).document = "changed";
    first[1]!.pathname = "/changed";
    first.pop();
    const again = router.matchRoutes(routes, "/legal/privacy")!;
    expect(again.map((match) => [match.route.id, match.params, match.pathname])).toEqual([
      ["root", { document: "privacy" }, "/"],
      ["legal", { document: "privacy" }, "/legal/privacy"],
    ]);
    expect(router.matchRoutes(routes, "/no/such/page")?.map((match) => match.route.id)).toEqual(["root", "not-found"]);
  });

  it("sees routes patched in at navigation (patchRoutes) in an array it has already matched", () => {
    const routes = defaultModeRoutes();
    const router_ = router.createRouter({ routes, history: router.createMemoryHistory() });
    const before = router_.routes;
    expect(described(router, before, "/checkout/gift")?.ids).toEqual(["root", "not-found"]);
    router_.patchRoutes("checkout", [{ id: "checkout/gift", path: "gift" }]);
    expect(described(router, before, "/checkout/gift")?.ids).toEqual(["root", "checkout", "checkout/gift"]);
    router_.dispose();
  });

  // The proof that the patch is applied, by behaviour: these fail on the unpatched router.
  describe("the patch (decision 0025) is applied", () => {
    it("keeps a routes array's branches: a route changed in place afterwards is not seen", () => {
      const routes = defaultModeRoutes();
      expect(described(router, routes, "/checkout/extras")?.ids).toEqual(["root", "checkout", "checkout/extras"]);
      const extras = routes[0]!
        .children!.find((route) => route.id === "checkout")!
        .children!.find((route) => route.id === "checkout/extras")!;
      extras.path = "add-ons"; // Against the contract: route arrays do not change once matched.
      // The same array: its branches were kept, so the old path still matches...
      expect(described(router, routes, "/checkout/extras")?.ids).toEqual(["root", "checkout", "checkout/extras"]);
      expect(described(router, routes, "/checkout/add-ons")?.ids).toEqual(["root", "not-found"]);
      // ...while a new array (of the same route objects) is flattened afresh and sees the change.
      expect(described(router, [...routes], "/checkout/add-ons")?.ids).toEqual(["root", "checkout", "checkout/extras"]);
      expect(described(router, [...routes], "/checkout/extras")?.ids).toEqual(["root", "not-found"]);
    });

    it("compiles a path once: its warning is given once, not on every match", () => {
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      const pattern = "/route-matching-test*"; // Warned about: a `*` must follow a `/`.
      expect(router.matchPath(pattern, "/route-matching-test/a")?.params).toEqual({ "*": "a" });
      expect(router.matchPath(pattern, "/somewhere-else")).toBeNull();
      router.matchPath(pattern, "/somewhere-else");
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toContain(`Route path "${pattern}" will be treated as if it were`);
    });
  });
});
