import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { loader as calendarLoader } from "~/routes/calendar";
import { loader as homeLoader } from "~/routes/home";
import { loader as showLoader } from "~/routes/show";
import { loader as venueLoader } from "~/routes/venue";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { createInventory } from "~/ticketing/inventory.server";
import { startServer, testContext } from "../support/app";
import { smallCatalogue } from "../support/catalogue";
import { insertPromo } from "../support/money";
import { seedSmall } from "../support/seed";

// The small catalogue imported on Monday 23 November 2026, playing for two weeks: eight
// performances in November (24th to 30th) and eight in December (1st to 7th). The last two days
// (6 and 7 December) are newly released: in presale for members and promo code holders until
// general sale opens on 26 November. A second show plays the same dates at the same hall.
const NOW = "2026-11-23T10:00:00.000Z";
const SHOW = { titleSlug: "test-show", venueSlug: "test-hall" };

function twoWeekCatalogue() {
  const catalogue = smallCatalogue();
  const run = catalogue.shows[0]!.runs[0]!;
  run.schedule.days = 14;
  catalogue.shows.push({
    ...structuredClone(catalogue.shows[0]!),
    slug: "second-show",
    name: "Second Show",
  });
  return catalogue;
}

type Page = Awaited<ReturnType<typeof calendarLoader>>;

describe("the calendar loader", () => {
  let context: Awaited<ReturnType<typeof testContext>>;
  const clock = fixedClock(NOW);
  let performances: { id: string; starts_at: string; slug: string }[];
  let sections: Map<string, string>;

  async function load(
    query = "",
    { date, cookie, params = SHOW }: { date?: string; cookie?: string; params?: object } = {},
  ) {
    const request = new Request(
      `http://localhost/shows/test-show/test-hall/calendar${date ? `/${date}` : ""}${query}`,
      {
        headers: cookie ? { Cookie: cookie } : {},
      },
    );
    const result: Page = await calendarLoader({ request, params: { ...params, date }, context });
    const headers = new Headers(result.init?.headers);
    return { page: result.data, setCookies: headers.getSetCookie() };
  }

  const ofShow = (slug: string) => performances.filter((performance) => performance.slug === slug);
  const events = (page: Page["data"]) => page.trackedEvents.map((event) => event.event);

  beforeAll(async () => {
    // Every service that reads the time reads this clock: holds made at NOW must still count
    // whatever the real time is.
    context = await testContext({}, clock);
    await importCatalogue(context.store, twoWeekCatalogue(), clock);
    performances = await context.store.db
      .selectFrom("performances")
      .innerJoin("runs", "runs.id", "performances.run_id")
      .innerJoin("titles", "titles.id", "runs.title_id")
      .select(["performances.id", "performances.starts_at", "titles.slug"])
      .orderBy("starts_at")
      .execute();
    sections = new Map(
      (await context.store.db.selectFrom("sections").select(["id", "name"]).execute()).map((row) => [row.name, row.id]),
    );
    const promo = (code: string, values: Parameters<typeof insertPromo>[1] = {}) =>
      insertPromo(context.store, { code, ...values });
    await promo("SPRING20", { percent: 20 });
    await promo("OLDCODE", { valid_until: "2026-06-01T00:00:00.000Z" });
    await promo("OTHERSHOW", { scope_kind: "show", scope_ref: "another-show" });
    await promo("HALLONLY", { scope_kind: "venue", scope_ref: "test-hall" });
    await promo("TENDOLLARS", { rule_key: "amountOff", percent: null, amount: 1000, currency: "USD" });
    await promo("ONCEONLY", { usage_limit: 1, used_count: 1 });
    await promo("EARLYBIRD", { rule_key: "unlockPresale", percent: null });
    await promo("FULL50", {
      rule_key: "specialPrice",
      percent: null,
      price_option_kind: "full",
      special_face_value: 5000,
    });
    await promo("THISNIGHT", { scope_kind: "performance", scope_ref: ofShow("test-show")[3]!.id });
    await promo("THATNIGHT", { scope_kind: "performance", scope_ref: ofShow("second-show")[3]!.id });

    // The first performance: row A's seven standard seats held (its wheelchair space, companion and
    // access seats are left), and all but one place in the standing area.
    const inventory = createInventory(context.store, clock);
    const first = ofShow("test-show")[0]!.id;
    const rowA = await context.store.db
      .selectFrom("seats")
      .select("id")
      .where("row_name", "=", "A")
      .where("seat_type", "=", "standard")
      .where("restrictions", "=", "")
      .orderBy("id")
      .execute();
    expect(
      await inventory.holdSeats({ basketId: "b1", performanceId: first, seatIds: rowA.slice(0, 4).map((s) => s.id) }),
    ).toMatchObject({ ok: true });
    expect(
      await inventory.holdSeats({ basketId: "b2", performanceId: first, seatIds: rowA.slice(4).map((s) => s.id) }),
    ).toMatchObject({ ok: true });
    expect(
      await inventory.holdStanding({
        basketId: "b3",
        performanceId: first,
        sectionId: sections.get("Standing")!,
        quantity: 4,
      }),
    ).toMatchObject({ ok: true });
  });
  afterAll(() => context.close());

  describe("the month", () => {
    it("opens on the month of the next performance on sale, each performance on its day in the venue's time zone", async () => {
      const { page } = await load();
      expect(page.month).toBe("2026-11");
      expect(page.performances).toHaveLength(8);
      expect(page.performances[0]).toMatchObject({
        day: "2026-11-24",
        state: "onSale",
        href: `/shows/test-show/test-hall/tickets/${ofShow("test-show")[0]!.id}`,
      });
      expect(page.performances.map((performance) => performance.day)).toContain("2026-11-28");
      expect(page.show).toMatchObject({ name: "Test Show", timeZone: "Europe/London", currency: "GBP" });
      expect(page.show.href).toBe("/shows/test-show/test-hall");
    });

    it("a date in the address chooses its month, with a link back to the month before", async () => {
      const { page } = await load("", { date: "2026-12-15" });
      expect(page.month).toBe("2026-12");
      expect(page.performances.map((performance) => performance.day)).toEqual([
        "2026-12-01",
        "2026-12-02",
        "2026-12-03",
        "2026-12-04",
        "2026-12-05",
        "2026-12-05",
        "2026-12-06",
        "2026-12-07",
      ]);
      expect(page.previous).toEqual({ month: "2026-11", href: "/shows/test-show/test-hall/calendar/2026-11-01" });
      expect(page.next).toBeNull();
      expect(page.formAction).toBe("/shows/test-show/test-hall/calendar/2026-12-15");
    });

    it("November links on to December only: nothing plays before it", async () => {
      const { page } = await load("", { date: "2026-11-01" });
      expect(page.previous).toBeNull();
      expect(page.next).toEqual({ month: "2026-12", href: "/shows/test-show/test-hall/calendar/2026-12-01" });
    });

    it("a month with nothing in it is shown empty, with links to the nearest months that have performances", async () => {
      const later = await load("", { date: "2027-03-10" });
      expect(later.page.month).toBe("2027-03");
      expect(later.page.performances).toEqual([]);
      expect(later.page.previous).toMatchObject({ month: "2026-12" });
      expect(later.page.next).toBeNull();

      const earlier = await load("", { date: "2026-09-01" });
      expect(earlier.page.performances).toEqual([]);
      expect(earlier.page.previous).toBeNull();
      expect(earlier.page.next).toMatchObject({ month: "2026-11" });
    });

    it("previous and next links keep the filter", async () => {
      const { page } = await load(`?seats=2&section=${sections.get("Stalls")}&from=4750&to=6800`, {
        date: "2026-11-01",
      });
      expect(page.next?.href).toBe(
        `/shows/test-show/test-hall/calendar/2026-12-01?seats=2&section=${sections.get("Stalls")}&from=4750&to=6800`,
      );
    });

    it("a show that does not play at the venue, or a date that is not a date, is a 404", async () => {
      await expect(load("", { params: { titleSlug: "test-show", venueSlug: "elsewhere" } })).rejects.toMatchObject({
        status: 404,
      });
      await expect(load("", { date: "2026-02-30" })).rejects.toMatchObject({ status: 404 });
    });

    it("records fetchCalendar request and success", async () => {
      const { page } = await load();
      expect(events(page)).toEqual(["fetchCalendar.request", "fetchCalendar.success"]);
      expect(page.trackedEvents[0]).toEqual({ event: "fetchCalendar.request", show: "test-show", venue: "test-hall" });
    });
  });

  describe("filters", () => {
    const first = () => ofShow("test-show")[0]!.id;
    const level = (page: Page["data"], id: string) =>
      page.performances.find((performance) => performance.id === id)?.level;

    it("offers the month's prices, parts of the house and up to the seat limit", async () => {
      const { page } = await load();
      expect(page.options).toEqual({
        // All-in: face value + booking fee, as the basket charges them.
        prices: [2700, 4750, 6800],
        sections: [
          { id: sections.get("Stalls"), name: "Stalls" },
          { id: sections.get("Standing"), name: "Standing" },
        ],
        maxSeats: 4,
        currency: "GBP",
        // The venue's country: its signed performances are BSL interpreted.
        country: "GB",
      });
      expect(page.filterActive).toBe(false);
    });

    it("part of the house: availability counts only its places", async () => {
      // 13 places left of 24 in all; in the Standing area, 1 of 5.
      expect(level((await load()).page, first())).toBe("good");
      const standing = await load(`?section=${sections.get("Standing")}`);
      expect(level(standing.page, first())).toBe("medium");
      expect(standing.page.sectionName).toBe("Standing");
      expect(standing.page.filterActive).toBe(true);
    });

    it("price range: availability counts only the places priced within it", async () => {
      // From £60 up only row A (£68 with its booking fee) counts, and it has 3 of its 10 seats left.
      const rowA = await load("?from=6000");
      expect(level(rowA.page, first())).toBe("medium");
      expect(rowA.page.filter).toMatchObject({ minPrice: 6000 });
      // Up to £47.50: row B (£47.50) and the standing area (£27), 10 of 14 left.
      const cheap = await load("?to=4750");
      expect(level(cheap.page, first())).toBe("good");
      // A range the wrong way round is read the right way round.
      expect((await load("?from=6500&to=6000")).page.filter).toMatchObject({ minPrice: 6000, maxPrice: 6500 });
    });

    it("a price range with nothing in it is sold out throughout, and says so", async () => {
      const { page } = await load("?from=7000");
      expect(page.noMatch).toBe(true);
      expect(
        page.performances.every((performance) => performance.level === "soldOut" && performance.href === null),
      ).toBe(true);
    });

    it("number of seats: a performance with fewer places left that fit the filter is sold out for it", async () => {
      const standing = sections.get("Standing");
      const one = await load(`?seats=1&section=${standing}`);
      expect(level(one.page, first())).toBe("medium");
      const two = await load(`?seats=2&section=${standing}`);
      expect(level(two.page, first())).toBe("soldOut");
      expect(two.page.performances[0]!.href).toBeNull();
      // The other performances keep their level.
      expect(level(two.page, ofShow("test-show")[1]!.id)).toBe("good");
      // In the Stalls, row A's three seats and row B's nine are enough for four; row A alone is not.
      expect(level((await load(`?seats=4&section=${sections.get("Stalls")}`)).page, first())).toBe("good");
      expect((await load(`?seats=4&section=${sections.get("Stalls")}&from=6500`)).page.performances[0]!.level).toBe(
        "soldOut",
      );
    });

    it("ignores filter values that cannot be right: more seats than the limit, unknown parts of the house, nonsense", async () => {
      const { page } = await load("?seats=9&section=nowhere&from=abc&to=-5");
      expect(page.filter).toEqual({
        quantity: undefined,
        sectionId: undefined,
        minPrice: undefined,
        maxPrice: undefined,
      });
      expect(level(page, first())).toBe("good");
    });
  });

  describe("sale states", () => {
    it("presale performances are marked and still link to their tickets page", async () => {
      const { page } = await load("", { date: "2026-12-01" });
      const presale = page.performances.filter((performance) => performance.state === "presale");
      expect(presale.map((performance) => performance.day)).toEqual(["2026-12-06", "2026-12-07"]);
      expect(presale.every((performance) => performance.href?.includes("/tickets/"))).toBe(true);
      expect(page.presale).toEqual({ shown: true, unlocked: false, unlockedBy: "code" });
    });

    it("a promo code that unlocks presale shows presale performances as bookable", async () => {
      const { page } = await load("?pc=EARLYBIRD", { date: "2026-12-01" });
      expect(page.performances.filter((performance) => performance.state === "presaleUnlocked")).toHaveLength(2);
      expect(page.presale).toEqual({ shown: false, unlocked: true, unlockedBy: "code" });
    });

    it("performances not yet on sale say when they go on sale, with no link", async () => {
      // Hours before the catalogue's sale opened.
      clock.set("2026-11-23T06:00:00.000Z");
      try {
        const { page } = await load("", { date: "2026-11-01" });
        expect(page.performances[0]).toMatchObject({ state: "notYetOnSale", onSaleFrom: NOW, href: null });
      } finally {
        clock.set(NOW);
      }
    });
  });

  describe("a promo code in the link (?pc=)", () => {
    const promoCookie = async (setCookies: string[]) =>
      context.sessions.promoCookie.parse(setCookies.map((cookie) => cookie.split(";")[0]).join("; "));

    it("a valid code is applied: a banner naming it and what it does, the promo cookie, promoSuccess", async () => {
      const { page, setCookies } = await load("?pc=spring20");
      expect(page.promo).toEqual({
        outcome: "applied",
        code: "SPRING20",
        rule: { kind: "percentageOff", percent: 20 },
        fromLink: true,
      });
      expect(await promoCookie(setCookies)).toBe("SPRING20");
      expect(events(page)).toContain("promoSuccess");
      expect(JSON.stringify(page.trackedEvents)).not.toMatch(/spring20/i);
    });

    it("a special price is stated as the basket charges it, booking fee included", async () => {
      // Only Band A's Full Price (£65 + £3) is dearer than £50: it comes to £50 + £3.
      expect((await load("?pc=FULL50")).page.promo).toMatchObject({
        outcome: "applied",
        rule: { kind: "specialPrice", price: { min: 5300, max: 5300 }, currency: "GBP" },
      });
    });

    it("a code for this venue, or for one of this show's performances, is applied here", async () => {
      expect((await load("?pc=HALLONLY")).page.promo).toMatchObject({ outcome: "applied", code: "HALLONLY" });
      expect((await load("?pc=THISNIGHT")).page.promo).toMatchObject({ outcome: "applied", code: "THISNIGHT" });
    });

    it.each([
      ["an unknown code", "NOSUCHCODE", "invalid", "promoDeeplinkError"],
      ["an expired code", "OLDCODE", "invalid", "promoDeeplinkError"],
      ["a code for another show", "OTHERSHOW", "notForEvent", "promoDeeplinkError"],
      ["a code for another show's performance", "THATNIGHT", "notForEvent", "promoDeeplinkError"],
      ["an amount off in another currency", "TENDOLLARS", "notForEvent", "promoDeeplinkError"],
      ["a single-use code already used", "ONCEONLY", "alreadyUsed", "promoSingleUseError"],
      ["an empty code", "", "invalidLink", "promoDeeplinkError"],
      ["a code that cannot be a code", "not%20a%20code!", "invalidLink", "promoDeeplinkError"],
    ])("%s (%s): %s, no cookie, %s", async (_, code, outcome, event) => {
      const { page, setCookies } = await load(`?pc=${code}`);
      expect(page.promo).toEqual({ outcome });
      expect(setCookies).toEqual([]);
      expect(events(page)).toContain(event);
      expect(events(page)).not.toContain("promoSuccess");
      if (code) expect(JSON.stringify(page.trackedEvents)).not.toContain(code);
      // The calendar itself is still there.
      expect(page.performances).toHaveLength(8);
    });

    it("a buyer who already holds a code for this show sees it applied, without a banner or an event", async () => {
      const { setCookies } = await load("?pc=EARLYBIRD");
      const cookie = setCookies.map((value) => value.split(";")[0]).join("; ");
      const { page } = await load("", { cookie, date: "2026-12-01" });
      expect(page.promo).toMatchObject({ outcome: "applied", code: "EARLYBIRD", fromLink: false });
      expect(page.presale.unlocked).toBe(true);
      expect(events(page)).not.toContain("promoSuccess");
      // A broken link does not take away the code they hold.
      const broken = await load("?pc=NOSUCHCODE", { cookie, date: "2026-12-01" });
      expect(broken.page.promo).toEqual({ outcome: "invalid" });
      expect(broken.page.presale.unlocked).toBe(true);
    });
  });

  describe("the show page", () => {
    it("says where and when the show plays, with its next performances and the calendar", async () => {
      const page = await showLoader({
        request: new Request("http://localhost/shows/test-show/test-hall"),
        params: SHOW,
        context,
      });
      expect(page.show).toMatchObject({
        name: "Test Show",
        ageGuidance: "8 and up",
        runningTimeMinutes: 120,
        venueName: "Test Hall",
        addressLines: ["1 Test Street"],
        city: "London",
        postcode: "SW1A 1AA",
      });
      expect(page.venueHref).toBe("/venues/test-hall");
      expect(page.span).toEqual({
        first: ofShow("test-show")[0]!.starts_at,
        last: ofShow("test-show").at(-1)!.starts_at,
      });
      expect(page.performances).toHaveLength(5);
      expect(page.performances[1]!.href).toBe(`/shows/test-show/test-hall/tickets/${ofShow("test-show")[1]!.id}`);
      expect(page.calendarHref).toBe("/shows/test-show/test-hall/calendar");
      expect(page.trackedEvents.map((event) => event.event)).toEqual(["fetchShow.request", "fetchShow.success"]);
    });

    it("a show that does not play there is a 404", async () => {
      await expect(
        showLoader({
          request: new Request("http://localhost/shows/test-show/elsewhere"),
          params: { titleSlug: "test-show", venueSlug: "elsewhere" },
          context,
        }),
      ).rejects.toMatchObject({ status: 404 });
    });
  });

  describe("the venue page", () => {
    it("gives the address and what is on", async () => {
      const page = await venueLoader({
        request: new Request("http://localhost/venues/test-hall"),
        params: { venueSlug: "test-hall" },
        context,
      });
      expect(page.venue).toMatchObject({
        name: "Test Hall",
        lines: ["1 Test Street", "London SW1A 1AA"],
        phone: "020 7946 0999",
        access: null,
        travel: null,
      });
      expect(page.shows.map((show) => show.name)).toEqual(["Second Show", "Test Show"]);
    });
  });
});

describe("the home page in single-venue mode", () => {
  it("goes straight to the configured show", async () => {
    const context = await testContext({
      ROUTING_TYPE: "SINGLE_VENUE",
      VENUE_SLUG: "test-hall",
      TITLE_SLUG: "test-show",
    });
    try {
      const response = await homeLoader({ request: new Request("http://localhost/"), params: {}, context }).catch(
        (thrown: unknown) => thrown,
      );
      expect(response).toBeInstanceOf(Response);
      expect((response as Response).status).toBe(302);
      expect((response as Response).headers.get("Location")).toBe("/events/test-show");
    } finally {
      await context.close();
    }
  });

  it("without a configured show, lists the venue's shows", async () => {
    const context = await testContext({ ROUTING_TYPE: "SINGLE_VENUE", VENUE_SLUG: "test-hall" });
    try {
      const page = await homeLoader({ request: new Request("http://localhost/"), params: {}, context });
      // Nothing on, and no venue to choose: a single venue's site filters by date alone.
      expect(page).toMatchObject({ cards: [], thisWeek: [], venues: null, filter: { venue: "", day: "" } });
    } finally {
      await context.close();
    }
  });
});

describe("the calendar page as served", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let failing = false;
  beforeAll(async () => {
    // Production, as deployed: an error's message and stack never reach the page.
    server = await startServer(
      { APP_ENV: "production", SESSION_SECRET: "s".repeat(40) },
      {
        seed: seedSmall,
        adjust: (services) => {
          const runSpan = services.catalogue.runSpan;
          services.catalogue.runSpan = async (...args) => {
            if (failing) throw new Error("connection to the database was lost");
            return runSpan(...args);
          };
        },
      },
    );
  });
  afterAll(() => server.close());

  it("is a month table with a caption and weekday headers, and the filter in words", async () => {
    const stalls = await server.services.store.db
      .selectFrom("sections")
      .select("id")
      .where("name", "=", "Stalls")
      .executeTakeFirstOrThrow();
    const response = await fetch(
      server.url(`/shows/test-show/test-hall/calendar?seats=2&section=${stalls.id}&from=4750&to=6800`),
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<table class="calendar-month"><caption[^>]*>\w+ \d{4}<\/caption>/);
    expect(html.match(/<th scope="col"/g)).toHaveLength(7);
    expect(html).toContain("Showing availability for 2 seats in the Stalls from £47.50 to £68.00");
    expect(html).toContain("Prices include booking fees. A £2.50 transaction fee is added once per order.");
    expect(html).toMatch(/Good availability|Medium availability|Low availability/);
  });

  it("a promo link's outcome is a status message", async () => {
    const html = await (await fetch(server.url("/shows/test-show/test-hall/calendar?pc=%20"))).text();
    expect(html).toMatch(/role="status"><p class="calendar-promo__title">Invalid link<\/p>/);
  });

  it("when the calendar cannot load: the spec's words, a way back to the show, status 500", async () => {
    failing = true;
    try {
      const response = await fetch(server.url("/shows/test-show/test-hall/calendar"));
      expect(response.status).toBe(500);
      const html = await response.text();
      expect(html).toContain("Sorry, something went wrong");
      expect(html).toContain("We can&#x27;t load the calendar for this event. Please go back and try again.");
      expect(html).toContain('href="/shows/test-show/test-hall"');
      expect(html).not.toContain("connection to the database");
    } finally {
      failing = false;
    }
  });

  it("a 404 is still the site's not-found page", async () => {
    const response = await fetch(server.url("/shows/test-show/nowhere/calendar"));
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Page not found");
    expect(html).not.toContain("We can&#x27;t load the calendar");
  });
});
