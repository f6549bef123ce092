// The browsing pages of issue 40 as HTML, over the demo catalogue: show cards with their posters
// (every size and format, long-cached), the "from" price as the domain prices it, the home page's
// filters as GET forms, the venues list and a venue's page.
import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDateTime, formatMoney } from "~/i18n/format";
import { bandPricesOfPlans } from "~/ticketing/queries.server";
import { venueDay } from "~/urls/venue-days";
import { startDemoServer, DEMO_NOW, type DemoServer } from "../support/demo-journey";

const words = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

describe("the home, venue and show pages", () => {
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer();
  }, 120_000);
  afterAll(async () => {
    await server.close();
  });

  async function page(path: string, language = "en-GB") {
    const response = await fetch(server.url(path), { headers: { "Accept-Language": language } });
    expect(response.status, path).toBe(200);
    return new JSDOM(await response.text()).window.document;
  }

  /** Each run's performances still selling at the demo's moment, with their price plans. */
  async function runsOnSale() {
    const now = new Date(DEMO_NOW).toISOString();
    const rows = await server.services.store.db
      .selectFrom("performances")
      .innerJoin("runs", "runs.id", "performances.run_id")
      .innerJoin("titles", "titles.id", "runs.title_id")
      .innerJoin("venues", "venues.id", "runs.venue_id")
      .select([
        "titles.name",
        "venues.name as venue",
        "venues.slug as venueSlug",
        "venues.currency",
        "venues.time_zone as timeZone",
        "performances.starts_at as startsAt",
        "performances.price_plan_id as planId",
      ])
      .where("performances.starts_at", ">", now)
      .where("performances.on_sale_until", ">", now)
      .where("performances.status", "=", "on_sale")
      .execute();
    const runs = new Map<string, typeof rows>();
    for (const row of rows)
      runs.set(`${row.name}|${row.venue}`, [...(runs.get(`${row.name}|${row.venue}`) ?? []), row]);
    return runs;
  }

  const cardsOf = (document: Document) => [...document.querySelectorAll<HTMLElement>(".show-card")];
  const cardKey = (card: HTMLElement) =>
    `${words(card.querySelector(".show-card__name a")?.firstChild?.textContent)}|${words(card.querySelector(".show-card__venue a")?.textContent)}`;

  it("gives every show card a poster: an <img> with alt, width, height and srcset, and AVIF and WebP sources", async () => {
    const document = await page("/");
    const cards = cardsOf(document);
    expect(cards.length).toBe((await runsOnSale()).size);
    for (const card of cards) {
      const img = card.querySelector("picture img")!;
      expect(img, cardKey(card)).not.toBeNull();
      expect(img.getAttribute("alt")).toMatch(/^Poster for /);
      expect(Number(img.getAttribute("width"))).toBeGreaterThan(0);
      expect(Number(img.getAttribute("height"))).toBeGreaterThan(Number(img.getAttribute("width")));
      expect(img.getAttribute("srcset")).toMatch(/\.jpg 320w, .*\.jpg 640w, .*\.jpg 960w$/);
      expect(img.getAttribute("sizes")).toBeTruthy();
      const types = [...card.querySelectorAll("picture source")].map((source) => source.getAttribute("type"));
      expect(types).toEqual(["image/avif", "image/webp"]);
    }
  });

  it("serves each picture with a year's immutable caching and its own content type, and nothing else there", async () => {
    const document = await page("/");
    const card = cardsOf(document)[0]!;
    const urls = [
      ...[...card.querySelectorAll("picture source")].map((source) => source.getAttribute("srcset")!),
      card.querySelector("img")!.getAttribute("srcset")!,
    ].flatMap((srcset) => srcset.split(", ").map((entry) => entry.split(" ")[0]!));
    expect(urls).toHaveLength(9);
    for (const url of urls) {
      const response = await fetch(server.url(url));
      expect(response.status, url).toBe(200);
      expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
      const type = { avif: "image/avif", webp: "image/webp", jpg: "image/jpeg" }[url.split(".").pop()!];
      expect(response.headers.get("Content-Type")).toBe(type);
      const bytes = Buffer.from(await response.arrayBuffer());
      // The file is what it says: JPEG's marker, RIFF/WEBP, or an ISO box of brand avif.
      if (type === "image/jpeg") expect(bytes.subarray(0, 2).toString("hex")).toBe("ffd8");
      if (type === "image/webp") expect(bytes.subarray(8, 12).toString()).toBe("WEBP");
      if (type === "image/avif") expect(bytes.subarray(8, 12).toString()).toBe("avif");
    }
    expect((await fetch(server.url("/images/not-a-picture.jpg"))).status).toBe(404);
    expect((await fetch(server.url("/images/..%2Fbox-office.sqlite"))).status).toBe(404);
  });

  it.each([
    { language: "en-GB", symbol: "£" },
    { language: "en-US", symbol: "$" },
  ])(
    "$language: says each card's \"From\" price, the domain's lowest all-in price of its run",
    async ({ language }) => {
      const document = await page("/", language);
      const runs = await runsOnSale();
      for (const card of cardsOf(document)) {
        const run = runs.get(cardKey(card))!;
        expect(run, cardKey(card)).toBeDefined();
        const prices = await bandPricesOfPlans(server.services.store.db, [...new Set(run.map((row) => row.planId))]);
        const lowest = Math.min(...prices.values());
        expect(words(card.querySelector(".show-card__price")?.textContent)).toBe(
          `From ${formatMoney(lowest, run[0]!.currency, language)}`,
        );
      }
      // The wording the issue asks for, in each language's own money.
      const gb = cardsOf(await page("/", "en-GB")).find((card) => cardKey(card).endsWith("|Harbour Playhouse"))!;
      expect(words(gb.querySelector(".show-card__price")?.textContent)).toMatch(/^From £\d+\.\d\d$/);
      const us = cardsOf(await page("/", "en-US")).find((card) => cardKey(card).endsWith("|Liberty Theatre"))!;
      expect(words(us.querySelector(".show-card__price")?.textContent)).toMatch(/^From \$\d+\.\d\d$/);
    },
  );

  it("filters the shows by venue and by date with a GET form", async () => {
    const home = await page("/");
    const form = home.querySelector<HTMLFormElement>("form.show-filters")!;
    expect(form.getAttribute("method")).toBe("get");
    expect(form.querySelector("select[name=venue]")).not.toBeNull();
    expect(form.querySelector("input[name=date][type=date]")).not.toBeNull();
    const venueNames = [...form.querySelectorAll("select[name=venue] option")].map((option) =>
      words(option.textContent),
    );
    expect(venueNames).toEqual([
      "All venues",
      "Foundry Hall",
      "Harbour Playhouse",
      "Liberty Theatre",
      "Regent Palace Theatre",
    ]);

    const atFoundry = cardsOf(await page("/?venue=foundry-hall&date="));
    expect(atFoundry.length).toBe(
      [...(await runsOnSale()).values()].filter((run) => run[0]!.venueSlug === "foundry-hall").length,
    );
    for (const card of atFoundry) expect(cardKey(card)).toMatch(/\|Foundry Hall$/);

    // A Sunday: the shows playing that day, each card's dates that day's.
    const day = "2026-11-29";
    const runs = await runsOnSale();
    const playing = [...runs.entries()].filter(([, rows]) =>
      rows.some((row) => venueDay(row.startsAt, row.timeZone, "yyyy-MM-dd") === day),
    );
    const onDay = await page(`/?venue=&date=${day}`);
    expect(cardsOf(onDay).map(cardKey).sort()).toEqual(playing.map(([key]) => key).sort());
    expect(playing.length).toBeGreaterThan(0);
    expect(playing.length).toBeLessThan(runs.size);
    for (const time of onDay.querySelectorAll(".show-card__dates time"))
      expect(time.getAttribute("datetime")!.slice(0, 10)).toMatch(/^2026-11-(29|30)$/);
    expect(onDay.querySelector<HTMLInputElement>("input[name=date]")!.getAttribute("value")).toBe(day);

    // Both at once, and a filter that fits nothing (an unknown venue, no such date) is said plainly.
    const both = cardsOf(await page(`/?venue=foundry-hall&date=${day}`));
    for (const card of both) expect(cardKey(card)).toMatch(/\|Foundry Hall$/);
    expect(words((await page("/?venue=nowhere")).querySelector(".home__shows")?.textContent)).toContain(
      "No shows on sale",
    );
    expect(cardsOf(await page("/?date=2026-02-30")).length).toBe(runs.size);
  });

  it("shows the performances of the coming week in a strip", async () => {
    const document = await page("/");
    const strip = document.querySelector("section.this-week")!;
    expect(words(strip.querySelector("h2")?.textContent)).toBe("This week");
    const times = [...strip.querySelectorAll("time")].map((time) => time.getAttribute("datetime")!);
    expect(times.length).toBeGreaterThan(0);
    expect([...times].sort()).toEqual(times);
    const weekEnd = new Date(Date.parse(DEMO_NOW) + 7 * 86_400_000).toISOString();
    for (const time of times) expect(time < weekEnd && time > DEMO_NOW).toBe(true);
  });

  it("lists every venue at /venues, each linking to its page", async () => {
    const document = await page("/venues");
    const venues = await server.services.store.db
      .selectFrom("venues")
      .select(["slug", "name"])
      .orderBy("name")
      .execute();
    const links = [...document.querySelectorAll<HTMLAnchorElement>(".venue-list__name a")];
    expect(links.map((link) => [words(link.textContent), link.getAttribute("href")])).toEqual(
      venues.map((venue) => [venue.name, `/venues/${venue.slug}`]),
    );
    expect(words(document.querySelector("h1")?.textContent)).toBe("Venues");
    expect((await page("/")).querySelector('a[href="/venues"]')).not.toBeNull();
  });

  it("gives a venue's page its address, a map link, access and travel information, and its shows", async () => {
    const document = await page("/venues/harbour-playhouse");
    const text = words(document.querySelector("main")?.textContent);
    const address = document.querySelector("address")!;
    expect(address.innerHTML.split(/<br>/).map((line) => words(line.replace(/<[^>]+>/g, "")))).toEqual([
      "Harbour Playhouse",
      "Quay Head",
      "Harbourside",
      "Bristol BS1 4RN",
    ]);
    const map = document.querySelector<HTMLAnchorElement>(".venue-map a")!;
    expect(map.getAttribute("href")).toBe(
      "https://www.openstreetmap.org/search?query=Harbour%20Playhouse%2C%20Quay%20Head%2C%20Harbourside%2C%20Bristol%20BS1%204RN",
    );
    expect(words(map.textContent)).toBe("Harbour Playhouse on a map (OpenStreetMap)");
    const headings = [...document.querySelectorAll("h2")].map((heading) => words(heading.textContent));
    expect(headings).toEqual(expect.arrayContaining(["Address", "Access", "Getting here", "What's on here"]));
    expect(text).toContain("Hearing loop in the auditorium");
    expect(text).toContain("Bristol Temple Meads");
    expect(cardsOf(document).map(cardKey).sort()).toEqual([
      "A Winter's Crossing|Harbour Playhouse",
      "The Tide Tables|Harbour Playhouse",
    ]);
    // The American wording of the same headings.
    const us = await page("/venues/liberty-theatre", "en-US");
    expect([...us.querySelectorAll("h2")].map((heading) => words(heading.textContent))).toEqual(
      expect.arrayContaining(["Accessibility", "Getting there"]),
    );
  });

  it("gives search engines and share cards the poster: its largest JPEG, absolute, and served", async () => {
    const document = await page("/shows/a-winters-crossing/harbour-playhouse");
    const events = [...document.querySelectorAll('script[type="application/ld+json"]')].flatMap(
      (script) => JSON.parse(script.textContent ?? "[]") as { image?: string[] }[],
    );
    expect(events.length).toBeGreaterThan(0);
    const image = events[0]!.image?.[0] ?? "";
    expect(image).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/images\/a-winters-crossing-poster-[0-9a-f]+-960\.jpg$/);
    expect(events.every((event) => event.image?.[0] === image)).toBe(true);
    expect(document.querySelector('meta[property="og:image"]')?.getAttribute("content")).toBe(image);
    const served = await fetch(image);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
  });

  it("gives every event of every demo show its end, running time and organizer, its performers where the catalogue names them, and each access date its data (issue 56 item 7)", async () => {
    const sitemap = await (await fetch(server.url("/sitemap.xml"))).text();
    const shows = [...sitemap.matchAll(/<loc>[^<]*?(\/shows\/[\w-]+\/[\w-]+)<\/loc>/g)].map((match) => match[1]!);
    expect(shows.length).toBeGreaterThan(5);
    let accessDates = 0;
    for (const path of shows) {
      const document = await page(path);
      const events = [...document.querySelectorAll('script[type="application/ld+json"]')].flatMap(
        (script) => JSON.parse(script.textContent ?? "[]") as Record<string, unknown>[],
      );
      expect(events.length, path).toBeGreaterThan(0);
      for (const event of events) {
        expect(event, path).toMatchObject({
          endDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/),
          duration: expect.stringMatching(/^PT(\d+H)?(\d+M)?$/),
          organizer: { "@type": "Organization", name: expect.any(String), url: expect.any(String) },
        });
        if (event.accessibilitySummary) {
          accessDates += 1;
          expect(
            Boolean(event.accessibilityFeature) || Boolean(event.audience),
            `${path} ${String(event.startDate)}`,
          ).toBe(true);
        }
      }
      // The bands and DJs of the demo's concerts are named in its catalogue.
      if (events[0]!["@type"] === "MusicEvent") expect(events[0]!.performer, path).toBeTruthy();
    }
    expect(accessDates).toBeGreaterThan(0);
  });

  it("gives a show's page its poster, facts, access information and next dates with availability", async () => {
    const document = await page("/shows/the-tide-tables/harbour-playhouse");
    const poster = document.querySelector(".show__poster img")!;
    expect(poster.getAttribute("alt")).toMatch(/^Poster for The Tide Tables/);
    expect(poster.getAttribute("width")).toBeTruthy();
    expect(poster.getAttribute("height")).toBeTruthy();
    const text = words(document.querySelector("main")?.textContent);
    const facts = [...document.querySelectorAll(".show__facts dd")].map((fact) => words(fact.textContent));
    expect(facts).toEqual(["8 and up", "95 minutes"]);
    expect(text).toContain("Hearing loop in the auditorium");
    expect(document.querySelector(".venue-map a")).not.toBeNull();
    expect(document.querySelectorAll(".show__performances li").length).toBe(5);
    expect(words(document.querySelector(".show__performances")?.textContent)).toMatch(/availability|Sold out/);
  });

  /**
   * Every all-in price a tickets page names for a place: each seat's label ends with its price,
   * each standing area's label has its own.
   */
  const placePrices = (document: Document, symbol: string) =>
    [
      ...[...document.querySelectorAll<HTMLInputElement>('input[name="seat"]')].map((input) => input.labels?.[0]),
      ...document.querySelectorAll(".standing label"),
    ].flatMap((label) => {
      const amount = words(label?.textContent).match(new RegExp(`\\${symbol}([\\d,]+\\.\\d\\d)`));
      return amount ? [Number(amount[1]!.replace(/,/g, ""))] : [];
    });

  it.each([
    { language: "en-GB", symbol: "£", path: "/shows/the-tide-tables/harbour-playhouse", show: "The Tide Tables" },
    { language: "en-US", symbol: "$", path: "/shows/northern-static/foundry-hall", show: "Northern Static" },
  ])(
    "$language: sells from the top of a show's page: the all-in from-price, the next three dates with Book, all dates",
    async ({ language, symbol, path, show }) => {
      const document = await page(path, language);
      // Reading order (and a phone's, where the page is one column): name, facts, booking, then the poster.
      const h1 = document.querySelector("h1")!;
      const facts = document.querySelector(".show__facts")!;
      const book = document.querySelector<HTMLElement>(".show__book")!;
      const poster = document.querySelector(".show__poster")!;
      expect(words(h1.textContent)).toBe(show);
      const follows = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & 4);
      expect(follows(h1, facts)).toBe(true);
      expect(follows(facts, book)).toBe(true);
      expect(follows(book, poster)).toBe(true);
      expect(follows(book, document.querySelector(".show__about")!)).toBe(true);
      expect(document.querySelector(`#${book.getAttribute("aria-labelledby")}`)?.textContent).toBe("Book tickets");

      // The next three bookable dates, each with its own Book link to its tickets page, named with its date.
      const dates = [...book.querySelectorAll<HTMLElement>(".show__book-dates li")];
      expect(dates).toHaveLength(3);
      const bookLinks = dates.map((date) => date.querySelector<HTMLAnchorElement>("a")!);
      expect(bookLinks.map((link) => words(link.textContent))).toEqual(["Book", "Book", "Book"]);
      const listed = [...document.querySelectorAll<HTMLAnchorElement>(".show__performances a")].map((link) =>
        link.getAttribute("href"),
      );
      expect(bookLinks.map((link) => link.getAttribute("href"))).toEqual(listed.slice(0, 3));
      for (const [index, link] of bookLinks.entries()) {
        expect(link.getAttribute("href")).toMatch(new RegExp(`^${path}/tickets/[0-9A-F-]{36}$`));
        // Its accessible name: "Book" and the date beside it.
        const names = link.getAttribute("aria-labelledby")!.split(" ");
        expect(names.map((id) => words(document.getElementById(id)?.textContent))).toEqual([
          "Book",
          words(dates[index]!.querySelector(".show__book-when")?.textContent),
        ]);
      }
      const all = [...book.querySelectorAll("a")].find((link) => words(link.textContent) === "All dates")!;
      expect(all.getAttribute("href")).toBe(`${path}/calendar`);

      // The all-in from-price: the cheapest place the first date's tickets page shows, and the show's card's.
      const from = words(book.querySelector(".show__from-price")?.textContent);
      expect(from).toMatch(new RegExp(`^From \\${symbol}\\d+\\.\\d\\d$`));
      const tickets = await page(bookLinks[0]!.getAttribute("href")!, language);
      const cheapest = Math.min(...placePrices(tickets, symbol));
      expect(Number(from.slice(`From ${symbol}`.length))).toBe(cheapest);
      const card = cardsOf(await page("/", language)).find((candidate) =>
        candidate.querySelector(`a[href="${path}"]`),
      )!;
      expect(words(card.querySelector(".show-card__price")?.textContent)).toBe(from);
    },
  );

  it.each([
    {
      language: "en-GB",
      path: "/shows/the-tide-tables/harbour-playhouse",
      show: "The Tide Tables",
      venue: "Harbour Playhouse",
    },
    { language: "en-US", path: "/shows/northern-static/foundry-hall", show: "Northern Static", venue: "Foundry Hall" },
  ])(
    "$language: titles a tickets page with the show, the venue and the date and time",
    async ({ language, path, show, venue }) => {
      const showPage = await page(path, language);
      const href = showPage.querySelector<HTMLAnchorElement>(".show__book-dates a")!.getAttribute("href")!;
      const id = href.split("/").pop()!;
      const performance = await server.services.store.db
        .selectFrom("performances")
        .innerJoin("runs", "runs.id", "performances.run_id")
        .innerJoin("venues", "venues.id", "runs.venue_id")
        .select(["performances.starts_at as startsAt", "venues.time_zone as timeZone"])
        .where("performances.id", "=", id)
        .executeTakeFirstOrThrow();
      const when = formatDateTime(performance.startsAt, performance.timeZone, language);
      const tickets = await page(href, language);
      // The venue's wording set names the site after the venue too.
      expect(words(tickets.title)).toBe(`Select your tickets: ${show}, ${venue}, ${when} – ${venue}`);
      expect(words(tickets.querySelector("h1")?.textContent)).toBe("Select your tickets");
    },
  );
});
