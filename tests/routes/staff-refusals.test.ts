import { beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { may, STAFF_ROLES, type StaffAction, type StaffRole } from "~/ticketing/staff-roles";
import { SHARED_ROUTES } from "~/urls/route-table.js";
import { buyerBrowser, type BuyerBrowser } from "../support/browser";
import {
  expectNotFoundEverywhere,
  expectNotFromPageCache,
  forgeStaffCookie,
  paidETicketOrder,
  signedInBuyer,
  signedInStaff,
  useStaffServer,
  type StaffServer,
} from "../support/staff";

// Every staff route, one row each (issue 55 item 6): a signed-out visitor, a signed-in buyer (and
// a buyer's token put in the staff cookie) and every role below the one the route needs get the
// site's 404 for each GET and each POST; the least role that may gets its page, never from the
// page cache. A staff route added to the route table without a row here fails the first test.

interface Seeded {
  performanceId: string;
  orderNumber: string;
}

interface Posted {
  path: string;
  fields: Record<string, string>;
}

interface RouteCase {
  /** The route table's name for it. */
  route: string;
  /** What the route needs; null: any member of staff. */
  action: StaffAction | null;
  /** Addresses to GET (as the least role that may, each must answer 200). */
  get: (seeded: Seeded) => string[];
  /** Addresses to POST, with a form that would do something for a member who may. */
  post: (seeded: Seeded) => Posted[];
}

const CASES: RouteCase[] = [
  { route: "staff", action: null, get: () => ["/staff"], post: () => [{ path: "/staff", fields: {} }] },
  {
    route: "staff/sign-out",
    action: null,
    get: () => [],
    post: () => [{ path: "/staff/sign-out", fields: {} }],
  },
  {
    route: "staff/door",
    action: "checkIn",
    get: ({ performanceId }) => ["/staff/door", `/staff/door?performance=${performanceId}&door=Stalls`],
    post: ({ performanceId }) => [
      { path: "/staff/door", fields: { performance: performanceId, door: "Stalls", code: "ABCDE" } },
    ],
  },
  {
    route: "staff/orders",
    action: "viewOrders",
    get: () => ["/staff/orders", "/staff/orders?q=jo%40example.com"],
    post: () => [{ path: "/staff/orders", fields: { q: "jo@example.com" } }],
  },
  {
    route: "staff/orders/order",
    action: "viewOrders",
    get: ({ orderNumber }) => [`/staff/orders/${orderNumber}`],
    post: ({ orderNumber }): Posted[] => [
      { path: `/staff/orders/${orderNumber}`, fields: { intent: "refund", scope: "whole" } },
      { path: `/staff/orders/${orderNumber}`, fields: { intent: "resend", resent: "0" } },
    ],
  },
  {
    route: "staff/house-seats",
    action: "holdSeats",
    get: ({ performanceId }) => ["/staff/house-seats", `/staff/house-seats?performance=${performanceId}`],
    post: ({ performanceId }) => [
      { path: "/staff/house-seats", fields: { performance: performanceId, reason: "Press", seat: "1" } },
    ],
  },
  {
    route: "staff/comps",
    action: "issueComp",
    get: ({ performanceId }) => ["/staff/comps", `/staff/comps?performance=${performanceId}`],
    post: ({ performanceId }) => [
      {
        path: "/staff/comps",
        fields: { performance: performanceId, name: "Jo", email: "jo@example.com", reason: "Press", seat: "1" },
      },
    ],
  },
  {
    route: "staff/audit",
    action: "manageStaff",
    get: ({ orderNumber }) => ["/staff/audit", `/staff/audit?order=${orderNumber}`],
    post: () => [{ path: "/staff/audit", fields: {} }],
  },
  {
    route: "staff/performances",
    action: "viewReports",
    get: () => ["/staff/performances"],
    post: () => [{ path: "/staff/performances", fields: {} }],
  },
  {
    route: "staff/performances/report",
    action: "viewReports",
    get: ({ performanceId }) => [`/staff/performances/${performanceId}`],
    post: ({ performanceId }) => [{ path: `/staff/performances/${performanceId}`, fields: {} }],
  },
  {
    route: "staff/performances/access",
    action: "viewReports",
    get: ({ performanceId }) => [`/staff/performances/${performanceId}/access`],
    post: ({ performanceId }) => [{ path: `/staff/performances/${performanceId}/access`, fields: {} }],
  },
  {
    route: "staff/performances/orders-csv",
    action: "viewReports",
    get: ({ performanceId }) => [`/staff/performances/${performanceId}/orders.csv`],
    post: ({ performanceId }) => [{ path: `/staff/performances/${performanceId}/orders.csv`, fields: {} }],
  },
];

/** Routes anyone may open: the sign-in page (answers every visitor alike, and is checked for no-store below). */
const OPEN_TO_ALL = new Set(["staff/sign-in"]);

/** The roles that may not do `action`, and the least that may. */
function rolesFor(action: StaffAction | null): { refused: StaffRole[]; least: StaffRole } {
  const allowed = STAFF_ROLES.filter((role) => action === null || may(role, action));
  return { refused: STAFF_ROLES.filter((role) => !allowed.includes(role)), least: allowed[0]! };
}

describe("every staff route refuses everyone it is not for", () => {
  let server: StaffServer;
  let seeded: Seeded;
  const clock = fixedClock(new Date());
  const signedIn = new Map<StaffRole, BuyerBrowser>();

  useStaffServer(clock, (made) => {
    server = made.server;
    seeded = { performanceId: made.performanceId, orderNumber: "" };
  });
  beforeAll(async () => {
    const order = await paidETicketOrder(server.services, seeded.performanceId, "B", ["7", "8"]);
    seeded.orderNumber = order.number;
  });

  /** One browser per role, signed in once (sign-out is posted only by a role's own fresh browser). */
  async function staffBrowser(role: StaffRole): Promise<BuyerBrowser> {
    if (!signedIn.has(role)) signedIn.set(role, (await signedInStaff(server, role)).browser);
    return signedIn.get(role)!;
  }

  /** The site's own 404 page for each GET (the orders' CSV, a download, answers a bare 404), a 404 for each POST. */
  const expectRefused = (browser: BuyerBrowser, routeCase: RouteCase, who: string) =>
    expectNotFoundEverywhere(browser, {
      get: routeCase.get(seeded),
      post: routeCase.post(seeded),
      who,
      sitePage: routeCase.route !== "staff/performances/orders-csv",
    });

  it("has a row for every staff route in the route table", () => {
    const staffRoutes = SHARED_ROUTES.filter((route) => route.path?.startsWith("staff")).map((route) => route.name);
    const covered = new Set([...CASES.map((routeCase) => routeCase.route), ...OPEN_TO_ALL]);
    expect(staffRoutes.filter((name) => !covered.has(name))).toEqual([]);
  });

  it.each(CASES)("$route: a signed-out visitor gets 404", async (routeCase) => {
    await expectRefused(buyerBrowser(server.url), routeCase, "visitor");
  });

  it.each(CASES)("$route: a signed-in buyer gets 404, also with their token in the staff cookie", async (routeCase) => {
    const { browser: buyer, token } = await signedInBuyer(server);
    await expectRefused(buyer, routeCase, "buyer");
    await forgeStaffCookie(server, buyer, token);
    await expectRefused(buyer, routeCase, "buyer's token as staff");
  });

  it.each(CASES)("$route: every role below the one it needs gets 404", async (routeCase) => {
    for (const role of rolesFor(routeCase.action).refused)
      await expectRefused(await staffBrowser(role), routeCase, role);
  });

  it.each(CASES)("$route: the least role that may gets it, never from the page cache", async (routeCase) => {
    const browser = await staffBrowser(rolesFor(routeCase.action).least);
    for (const path of routeCase.get(seeded))
      for (let visit = 0; visit < 3; visit++) {
        const response = await browser.get(path);
        await response.arrayBuffer();
        expect(response.status, `GET ${path}`).toBe(200);
        expect(response.headers.get("Cache-Control"), path).toBe("no-store");
        expectNotFromPageCache(response, path);
      }
  });

  it("puts nothing of a signed-in member of staff on a buyer's page, cached or not", async () => {
    const { browser, staff } = await signedInStaff(server, "manager");
    for (const path of ["/", `/shows/test-show/test-hall/tickets/${seeded.performanceId}`, "/account/sign-in"]) {
      const asStaff = await browser.get(path);
      const html = await asStaff.text();
      expect(asStaff.status, path).toBe(200);
      for (const staffDetail of [staff.name, staff.email, "/staff", "Sign out"])
        expect(html, `${path}: ${staffDetail}`).not.toContain(staffDetail);
    }
  });

  it("serves the sign-in page to anyone, never from the page cache", async () => {
    for (let visit = 0; visit < 3; visit++) {
      const response = await fetch(server.url("/staff/sign-in"));
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      expectNotFromPageCache(response);
    }
  });
});
