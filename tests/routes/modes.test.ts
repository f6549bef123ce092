import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";

const ID = "0D5A1C2E-3B4F-4A6D-8E9F-0A1B2C3D4E5F";

// Each mode answers its own URL patterns (spec section 2) and 404s everyone else's.
const MODES = {
  DEFAULT: {
    env: {},
    ok: [
      "/",
      "/shows/hamlet/regent-palace",
      "/shows/hamlet/regent-palace/",
      "/shows/hamlet/regent-palace/calendar",
      "/shows/hamlet/regent-palace/calendar/2026-12-01",
      `/shows/hamlet/regent-palace/tickets/${ID}`,
      "/venues/regent-palace",
    ],
    notFound: ["/events/hamlet/regent-palace", "/events/hamlet", "/calendar", `/tickets/${ID}`],
  },
  MULTI_VENUE: {
    env: { ROUTING_TYPE: "MULTI_VENUE" },
    ok: [
      "/",
      "/events/hamlet/regent-palace",
      "/events/hamlet/regent-palace/calendar",
      "/events/hamlet/regent-palace/calendar/2026-12-01?pc=SPRING",
      `/events/hamlet/regent-palace/tickets/${ID}`,
    ],
    notFound: ["/shows/hamlet/regent-palace", "/venues/regent-palace", "/events/hamlet", "/calendar"],
  },
  SINGLE_VENUE: {
    env: { ROUTING_TYPE: "SINGLE_VENUE", VENUE_SLUG: "regent-palace" },
    ok: [
      "/",
      "/events/hamlet",
      "/events/hamlet/calendar",
      "/events/hamlet/calendar/2026-12-01",
      `/events/hamlet/tickets/${ID}`,
    ],
    notFound: ["/shows/hamlet/regent-palace", "/venues/regent-palace", "/events/hamlet/regent-palace", "/calendar"],
  },
  SINGLE_SHOW: {
    env: { ROUTING_TYPE: "SINGLE_SHOW", VENUE_SLUG: "regent-palace", TITLE_SLUG: "hamlet" },
    ok: ["/", "/calendar", "/calendar/2026-12-01", `/tickets/${ID}`],
    notFound: [
      "/shows/hamlet/regent-palace",
      "/events/hamlet",
      "/events/hamlet/regent-palace",
      "/venues/regent-palace",
    ],
  },
} as const;

// Routes every mode shares.
const SHARED_OK = [
  "/checkout/reservations",
  "/checkout/extras",
  "/checkout/ticket-protection",
  "/checkout/collection",
  "/checkout/contacts",
  "/checkout/payment",
  "/checkout/verify",
  "/checkout/confirmation",
  "/checkout/failed",
  "/membership",
  "/legal/privacy-policy",
];

// Invalid parameters, written for the default mode's patterns.
const INVALID = [
  "/shows/ham%20let/regent-palace",
  `/shows/${"a".repeat(256)}/regent-palace`,
  "/shows/hamlet/regent%3Cpalace",
  "/shows/hamlet/regent-palace/tickets/0D5A1C2E-3B4F-4A6D-8E9F-0A1B2C3D4E5",
  "/shows/hamlet/regent-palace/tickets/0D5A1C2E-3B4F-4A6D-8E9F-0A1B2C3D4E5FF",
  "/shows/hamlet/regent-palace/tickets/GD5A1C2E-3B4F-4A6D-8E9F-0A1B2C3D4E5F",
  "/shows/hamlet/regent-palace/calendar/2026-02-30",
  "/shows/hamlet/regent-palace/calendar/2026-13-01",
  "/shows/hamlet/regent-palace/calendar/26-12-01",
  "/venues/regent%20palace",
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
    beforeAll(async () => {
      server = await startServer(env);
    });
    afterAll(() => server.close());

    it.each([...ok, ...SHARED_OK])("answers %s", async (path) => {
      expect(await status(server.url(path))).toBe(200);
    });

    it.each(notFound)("404s another mode's %s", async (path) => {
      expect(await status(server.url(path))).toBe(404);
    });
  });
}

describe("invalid route parameters", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it.each(INVALID)("%s is the not-found page with status 404", async (path) => {
    const response = await fetch(server.url(path));
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page not found");
    expect(html).toContain("We are sorry, but we can&#x27;t find the page that you are looking for");
  });

  it("a slug of 255 characters and every allowed punctuation mark is accepted", async () => {
    expect(await status(server.url(`/shows/${"a".repeat(255)}/regent-palace`))).toBe(200);
    expect(await status(server.url("/shows/a!b.c+d&e-f/regent-palace"))).toBe(200);
  });
});
