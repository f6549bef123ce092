import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { firstPerformanceId, seedSmall } from "../support/seed";

// The small test catalogue: "test-show" at "test-hall". {ID} is its first performance.
const ID = "{ID}";

// Each mode answers its own URL patterns (spec section 2) and 404s everyone else's.
const MODES = {
  DEFAULT: {
    env: {},
    ok: [
      "/",
      "/shows/test-show/test-hall",
      "/shows/test-show/test-hall/",
      "/shows/test-show/test-hall/calendar",
      "/shows/test-show/test-hall/calendar/2026-12-01",
      `/shows/test-show/test-hall/tickets/${ID}`,
      "/venues/test-hall",
    ],
    notFound: ["/events/test-show/test-hall", "/events/test-show", "/calendar", `/tickets/${ID}`],
  },
  MULTI_VENUE: {
    env: { ROUTING_TYPE: "MULTI_VENUE" },
    ok: [
      "/",
      "/events/test-show/test-hall",
      "/events/test-show/test-hall/calendar",
      "/events/test-show/test-hall/calendar/2026-12-01?pc=SPRING",
      `/events/test-show/test-hall/tickets/${ID}`,
    ],
    notFound: ["/shows/test-show/test-hall", "/venues/test-hall", "/events/test-show", "/calendar"],
  },
  SINGLE_VENUE: {
    env: { ROUTING_TYPE: "SINGLE_VENUE", VENUE_SLUG: "test-hall" },
    ok: [
      "/",
      "/events/test-show",
      "/events/test-show/calendar",
      "/events/test-show/calendar/2026-12-01",
      `/events/test-show/tickets/${ID}`,
    ],
    notFound: ["/shows/test-show/test-hall", "/venues/test-hall", "/events/test-show/test-hall", "/calendar"],
  },
  SINGLE_SHOW: {
    env: { ROUTING_TYPE: "SINGLE_SHOW", VENUE_SLUG: "test-hall", TITLE_SLUG: "test-show" },
    ok: ["/", "/calendar", "/calendar/2026-12-01", `/tickets/${ID}`],
    notFound: ["/shows/test-show/test-hall", "/events/test-show", "/events/test-show/test-hall", "/venues/test-hall"],
  },
} as const;

// Routes every mode shares.
const SHARED_OK = [
  "/checkout/reservations",
  "/checkout/confirmation",
  "/membership",
  "/access",
  "/legal/privacy-policy",
];

// Checkout steps that need a basket: without one, every mode says the basket is empty.
const EMPTY_BASKET = [
  "/checkout/extras",
  "/checkout/ticket-protection",
  "/checkout/collection",
  "/checkout/contacts",
  "/checkout/payment",
];

// The payment's own pages, with no payment under way, send the buyer to pay.
const TO_PAYMENT = ["/checkout/verify", "/checkout/failed"];

// Invalid parameters, written for the default mode's patterns.
const INVALID = [
  "/shows/ham%20let/test-hall",
  `/shows/${"a".repeat(256)}/test-hall`,
  "/shows/test-show/test%3Chall",
  "/shows/test-show/test-hall/tickets/0D5A1C2E-3B4F-4A6D-8E9F-0A1B2C3D4E5",
  "/shows/test-show/test-hall/tickets/0D5A1C2E-3B4F-4A6D-8E9F-0A1B2C3D4E5FF",
  "/shows/test-show/test-hall/tickets/GD5A1C2E-3B4F-4A6D-8E9F-0A1B2C3D4E5F",
  "/shows/test-show/test-hall/calendar/2026-02-30",
  "/shows/test-show/test-hall/calendar/2026-13-01",
  "/shows/test-show/test-hall/calendar/26-12-01",
  "/venues/test%20hall",
  "/legal/not-a-document",
];

async function status(url: string) {
  const response = await fetch(url, { redirect: "manual" });
  await response.arrayBuffer();
  return response.status;
}

for (const [mode, { env, ok, notFound }] of Object.entries(MODES)) {
  describe(`routing mode ${mode}`, () => {
    let server: Awaited<ReturnType<typeof startServer>>;
    let id: string;
    beforeAll(async () => {
      server = await startServer(env, { seed: seedSmall });
      id = await firstPerformanceId(server.services);
    });
    afterAll(() => server.close());

    it.each([...ok, ...SHARED_OK])("answers %s", async (path) => {
      expect(await status(server.url(path.replace(ID, id)))).toBe(200);
    });

    it.each(EMPTY_BASKET)("says the basket is empty at %s", async (path) => {
      const response = await fetch(server.url(path));
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("Your basket is empty.");
    });

    it.each(TO_PAYMENT)("sends %s on to the payment step", async (path) => {
      const response = await fetch(server.url(path), { redirect: "manual" });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/checkout/payment");
    });

    it.each(notFound)("404s another mode's %s", async (path) => {
      expect(await status(server.url(path.replace(ID, id)))).toBe(404);
    });
  });
}

describe("invalid route parameters", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall });
  });
  afterAll(() => server.close());

  it.each(INVALID)("%s is the not-found page with status 404", async (path) => {
    const response = await fetch(server.url(path));
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page not found");
    expect(html).toContain("We are sorry, but we can&#x27;t find the page that you are looking for");
  });

  it("a show that does not play at the venue, or a performance of another show, is a 404 too", async () => {
    expect(await status(server.url("/shows/test-show/another-hall"))).toBe(404);
    expect(await status(server.url("/shows/another-show/test-hall/calendar"))).toBe(404);
    expect(await status(server.url("/shows/test-show/test-hall/tickets/0D5A1C2E-3B4F-4A6D-8E9F-0A1B2C3D4E5F"))).toBe(
      404,
    );
  });
});
