// The URL patterns of every routing mode, as data. remix.config.js mounts them all in one build
// (so a deployment can change ROUTING_TYPE without rebuilding) and the server keeps only the
// active mode's routes at start-up (app/web/build.server.ts). Plain JS because remix.config.js
// reads it before any TypeScript is compiled.

/** @typedef {"DEFAULT" | "MULTI_VENUE" | "SINGLE_VENUE" | "SINGLE_SHOW"} RoutingMode */
/** @typedef {{ name: string, file: string, path?: string, index?: boolean, children?: RouteEntry[] }} RouteEntry */

/** @type {readonly RoutingMode[]} */
export const ROUTING_MODES = ["DEFAULT", "MULTI_VENUE", "SINGLE_VENUE", "SINGLE_SHOW"];

/**
 * The show page with its calendar and tickets pages beneath it.
 * @param {string} base the show page's path, "" for the site root
 * @returns {RouteEntry[]}
 */
function showPages(base) {
  const prefix = base ? `${base}/` : "";
  return [
    base
      ? { name: "show", path: base, file: "routes/show.tsx" }
      : { name: "show", index: true, file: "routes/show.tsx" },
    { name: "calendar", path: `${prefix}calendar/:date?`, file: "routes/calendar.tsx" },
    { name: "tickets", path: `${prefix}tickets/:performanceId`, file: "routes/tickets.tsx" },
  ];
}

/** @type {RouteEntry} */
const home = { name: "home", index: true, file: "routes/home.tsx" };

/** @type {Record<RoutingMode, RouteEntry[]>} */
export const MODE_ROUTES = {
  DEFAULT: [
    home,
    ...showPages("shows/:titleSlug/:venueSlug"),
    { name: "venues", path: "venues", file: "routes/venues.tsx" },
    { name: "venue", path: "venues/:venueSlug", file: "routes/venue.tsx" },
  ],
  MULTI_VENUE: [home, ...showPages("events/:titleSlug/:venueSlug")],
  SINGLE_VENUE: [home, ...showPages("events/:titleSlug")],
  SINGLE_SHOW: showPages(""),
};

/**
 * The checkout's pages, each mounted under /checkout/ by its name. Which comes when, and which
 * a buyer belongs on, is ticketing/checkout-steps.ts's to say; this list only gives them addresses.
 */
export const CHECKOUT_STEPS = /** @type {const} */ ([
  "reservations",
  "extras",
  "ticket-protection",
  "collection",
  "contacts",
  "payment",
  "verify",
  "confirmation",
  "failed",
]);

/**
 * A page under /checkout/: a step's, or the hold's (the reservation's own actions).
 * @typedef {(typeof CHECKOUT_STEPS)[number] | "hold"} CheckoutPageName
 */

/** Each step's route module. @type {Record<string, string>} */
const STEP_FILES = {
  reservations: "routes/checkout.reservations.tsx",
  extras: "routes/checkout.extras.tsx",
  "ticket-protection": "routes/checkout.protection.tsx",
  collection: "routes/checkout.collection.tsx",
  contacts: "routes/checkout.contacts.tsx",
  payment: "routes/checkout.payment.tsx",
  verify: "routes/checkout.verify.tsx",
  confirmation: "routes/checkout.confirmation.tsx",
  failed: "routes/checkout.failed.tsx",
};

/** Routes that answer in every mode. @type {RouteEntry[]} */
export const SHARED_ROUTES = [
  {
    name: "checkout",
    path: "checkout",
    file: "routes/checkout.tsx",
    children: [
      ...CHECKOUT_STEPS.map((step) => ({
        name: `checkout/${step}`,
        path: step,
        file: STEP_FILES[step] ?? "",
      })),
      // The reservation's own actions and confirmation pages (extend, release, empty the cart,
      // reselect after expiry), shared by every step and the tickets page.
      { name: "checkout/hold", path: "hold", file: "routes/checkout.hold.tsx" },
    ],
  },
  // The waiting room (issue 20): where buyers wait for their turn at a tickets page.
  { name: "waiting-room", path: "waiting-room", file: "routes/waiting-room.tsx" },
  { name: "membership", path: "membership", file: "routes/membership.tsx" },
  // Access performances (issue 43): every mode's, limited to its venue or show where it has one.
  { name: "access", path: "access", file: "routes/access.tsx" },
  // Customer accounts: the same paths in every routing mode.
  { name: "account", path: "account", file: "routes/account._index.tsx" },
  { name: "account/sign-in", path: "account/sign-in", file: "routes/account.sign-in.tsx" },
  { name: "account/register", path: "account/register", file: "routes/account.register.tsx" },
  { name: "account/sign-out", path: "account/sign-out", file: "routes/account.sign-out.tsx" },
  { name: "account/details", path: "account/details", file: "routes/account.details.tsx" },
  {
    name: "account/forgotten-password",
    path: "account/forgotten-password",
    file: "routes/account.forgotten-password.tsx",
  },
  { name: "account/reset-password", path: "account/reset-password/:token", file: "routes/account.reset-password.tsx" },
  // The emailed link that creates an account (issue 53): nothing exists until it is followed.
  { name: "account/create", path: "account/create/:token", file: "routes/account.create.tsx" },
  // A paid order's e-tickets, by the secret key in the confirmation email's link.
  { name: "e-tickets", path: "e-tickets/:key", file: "routes/e-tickets.tsx" },
  // Its performance as a calendar entry (.ics), by the same key.
  { name: "e-tickets/calendar", path: "e-tickets/:key/calendar.ics", file: "routes/e-tickets.calendar.ts" },
  // The built-in sandbox gateway's own pages (device data collection, 3-D Secure challenge,
  // PayPal approval): what a real provider would host on its own site.
  { name: "sandbox/device-data", path: "sandbox/device-data/:reference", file: "routes/sandbox.device-data.tsx" },
  { name: "sandbox/challenge", path: "sandbox/challenge/:reference", file: "routes/sandbox.challenge.tsx" },
  { name: "sandbox/paypal", path: "sandbox/paypal/:reference", file: "routes/sandbox.paypal.tsx" },
  // The sandbox's dashboard: every payment it holds, as a provider's test-mode dashboard shows them.
  { name: "sandbox/payments", path: "sandbox/payments", file: "routes/sandbox.payments.tsx" },
  { name: "legal", path: "legal/:document", file: "routes/legal.tsx" },
  // The venue's staff (issue 55): a 404 to anyone not signed in as staff, but for sign-in.
  { name: "staff", path: "staff", file: "routes/staff._index.tsx" },
  { name: "staff/sign-in", path: "staff/sign-in", file: "routes/staff.sign-in.tsx" },
  { name: "staff/sign-out", path: "staff/sign-out", file: "routes/staff.sign-out.tsx" },
  { name: "staff/door", path: "staff/door", file: "routes/staff.door.tsx" },
  // The box office's orders (issue 55 item 3): search, and one order with its refund and resend.
  { name: "staff/orders", path: "staff/orders", file: "routes/staff.orders._index.tsx" },
  { name: "staff/orders/order", path: "staff/orders/:number", file: "routes/staff.orders.$number.tsx" },
  // Sales and access lists (issue 55 item 4): the performances, each one's report, access list
  // and orders' CSV (a resource route: the file itself).
  { name: "staff/performances", path: "staff/performances", file: "routes/staff.performances._index.tsx" },
  {
    name: "staff/performances/report",
    path: "staff/performances/:performanceId",
    file: "routes/staff.performances.$performanceId.tsx",
  },
  {
    name: "staff/performances/access",
    path: "staff/performances/:performanceId/access",
    file: "routes/staff.performances.$performanceId.access.tsx",
  },
  {
    name: "staff/performances/orders-csv",
    path: "staff/performances/:performanceId/orders.csv",
    file: "routes/staff.performances.$performanceId.orders-csv.ts",
  },
  // House seats and complimentary tickets (issue 55 item 5): box office and managers.
  { name: "staff/house-seats", path: "staff/house-seats", file: "routes/staff.house-seats.tsx" },
  { name: "staff/comps", path: "staff/comps", file: "routes/staff.comps.tsx" },
  // The audit log (issue 55 item 1), for managers: read-only, newest first.
  { name: "staff/audit", path: "staff/audit", file: "routes/staff.audit.tsx" },
  { name: "not-found", path: "*", file: "routes/not-found.tsx" },
];

/**
 * The staff's frame (their own header, no buyer's links): a layout route without a path of its
 * own, in which every shared route at /staff or under /staff/ is mounted, by its path, so a staff
 * page added to the list above is in it without saying so.
 * @type {RouteEntry}
 */
export const STAFF_FRAME = { name: "staff-frame", file: "routes/staff-frame.tsx" };

/** @param {RouteEntry} entry */
export const isStaffRoute = (entry) => entry.path === "staff" || Boolean(entry.path?.startsWith("staff/"));

const MODE_ID_SEPARATOR = "/";

/**
 * @param {RoutingMode} mode
 * @param {string} name
 */
export function modeRouteId(mode, name) {
  return `${mode}${MODE_ID_SEPARATOR}${name}`;
}

/**
 * The routing mode a route id belongs to, or null for a route shared by every mode.
 * @param {string} id
 * @returns {RoutingMode | null}
 */
export function modeOfRouteId(id) {
  const prefix = id.split(MODE_ID_SEPARATOR, 1)[0];
  return ROUTING_MODES.find((mode) => mode === prefix) ?? null;
}

/**
 * Mounts every mode's routes and the shared ones through remix.config.js's defineRoutes.
 * @param {(path: string | undefined, file: string, options?: { id?: string, index?: boolean }, children?: () => void) => void} route
 */
export function mountRoutes(route) {
  /** @param {RouteEntry} entry @param {string} id */
  const mount = (entry, id) =>
    route(
      entry.index ? undefined : entry.path,
      entry.file,
      { id, index: entry.index },
      entry.children ? () => entry.children?.forEach((child) => mount(child, child.name)) : undefined,
    );
  for (const mode of ROUTING_MODES) {
    for (const entry of MODE_ROUTES[mode]) mount(entry, modeRouteId(mode, entry.name));
  }
  const staffPages = SHARED_ROUTES.filter(isStaffRoute);
  for (const entry of SHARED_ROUTES) {
    // The staff's pages sit in the staff's frame, mounted where the first of them is listed.
    if (entry === staffPages[0]) mount({ ...STAFF_FRAME, children: staffPages }, STAFF_FRAME.name);
    if (!isStaffRoute(entry)) mount(entry, entry.name);
  }
}
