import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { startServer } from "../support/app";
import { smallCatalogue } from "../support/catalogue";
import { htmlDriver, validateAllPages } from "../support/html-driver";

// Issue 40 item 4, from the production build: schema.org events as JSON-LD on the show and
// tickets pages (in a data block that carries the CSP nonce and cannot be closed by a show's
// name), Open Graph and Twitter tags, /sitemap.xml and /robots.txt.

/** A name that would end a script element if it were written into the page as it is. */
const GIG = "Loud </script><script>alert(1)</script> & Co";

function catalogue(saleOpens: string) {
  const file = smallCatalogue();
  const play = file.shows[0]!;
  const later = laterSale(structuredClone(play), saleOpens);
  const gig = {
    ...structuredClone(play),
    slug: "loud-and-co",
    name: GIG,
    description: "A loud night out.",
    image: "/posters/loud.jpg",
    genre: "music" as const,
    performers: [
      { name: "The Loud Band", kind: "group" as const },
      { name: "DJ Quiet", kind: "person" as const },
    ],
  };
  // On general sale from the start: no presale.
  delete (gig.runs[0]!.schedule as { presale?: unknown }).presale;
  // Access performances (issue 43): the first date captioned and signed, the second relaxed.
  (play.runs[0] as Record<string, unknown>).access = [
    { days: "1", services: ["captioned", "signed"] },
    { days: "2", services: ["relaxed"] },
  ];
  return { ...file, shows: [{ ...play, genre: "play" as const }, gig, later] };
}

/** A show whose sale opens two days after the import, at a scheduled on-sale. */
function laterSale<
  Show extends { slug: string; name: string; runningTimeMinutes: number; runs: { schedule: object }[] },
>(show: Show, at: string): Show {
  show.slug = "later-show";
  show.name = "Later Show";
  show.runningTimeMinutes = 95;
  const schedule = show.runs[0]!.schedule as Record<string, unknown>;
  delete schedule.presale;
  schedule.onSale = { at, preQueueMinutes: 30, activeBuyers: 100 };
  return show;
}

/** When laterSale's sale opens: two days after the import, on the hour. */
const SALE_OPENS = (now: Date) =>
  new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000 + 2 * 86_400_000).toISOString();

type Event = Record<string, unknown> & {
  offers: Record<string, string>;
  location: { name: string; address: Record<string, string>; url?: string };
};

describe("found and shared: structured data, share cards, sitemap and robots.txt", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let origin: string;

  beforeAll(async () => {
    server = await startServer(
      { BRAND_NAME: "Riverside Tickets" },
      {
        seed: async (services) => {
          const now = services.clock.now();
          await importCatalogue(services.store, catalogue(SALE_OPENS(now)), fixedClock(now));
        },
      },
    );
    origin = server.url("");
  });
  afterAll(() => server.close());

  async function page(path: string) {
    const response = await fetch(server.url(path));
    expect(response.status, path).toBe(200);
    const html = await response.text();
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
    const document = new JSDOM(html).window.document;
    const links = (rel: string) =>
      [...document.querySelectorAll(`head link[rel="${rel}"]`)].map((link) => ({
        hreflang: link.getAttribute("hreflang"),
        href: link.getAttribute("href"),
      }));
    const blocks = [...document.querySelectorAll('script[type="application/ld+json"]')];
    return {
      html,
      document,
      nonce,
      blocks,
      events: blocks.flatMap((block) => JSON.parse(block.textContent ?? "") as Event[]),
      links,
      meta: (key: string) =>
        document.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute("content") ?? null,
    };
  }

  const performanceIds = async (titleSlug: string) =>
    (
      await server.services.store.db
        .selectFrom("performances")
        .innerJoin("runs", "runs.id", "performances.run_id")
        .innerJoin("titles", "titles.id", "runs.title_id")
        .select(["performances.id", "performances.presale_from"])
        .where("titles.slug", "=", titleSlug)
        .orderBy("performances.starts_at")
        .execute()
    ).map((row) => ({ id: row.id, presale: row.presale_from !== null }));

  it("a play's page lists its next performances as TheaterEvents with the catalogue's place and the all-in lowest price", async () => {
    const show = await page("/shows/test-show/test-hall");
    expect(show.blocks).toHaveLength(1);
    expect(show.blocks[0]!.getAttribute("nonce")).toBe(show.nonce);
    expect(show.events.length).toBe(5);
    const [first] = show.events;
    const [performance] = await performanceIds("test-show");
    expect(first).toMatchObject({
      "@context": "https://schema.org",
      "@type": "TheaterEvent",
      name: "Test Show",
      description: "A show for tests.",
      eventStatus: "https://schema.org/EventScheduled",
      eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
      url: `${origin}/shows/test-show/test-hall/tickets/${performance!.id}`,
      location: {
        "@type": "Place",
        name: "Test Hall",
        url: `${origin}/venues/test-hall`,
        address: {
          "@type": "PostalAddress",
          streetAddress: "1 Test Street",
          addressLocality: "London",
          postalCode: "SW1A 1AA",
          addressCountry: "GB",
        },
      },
      offers: {
        "@type": "Offer",
        url: `${origin}/shows/test-show/test-hall/tickets/${performance!.id}`,
        // The standing band's £25.00 face value and £2.00 booking fee: the cheapest, all in.
        price: "27.00",
        priceCurrency: "GBP",
        availability: "https://schema.org/InStock",
      },
      // The venue puts it on; the running time (two hours) gives its end.
      organizer: { "@type": "Organization", name: "Test Hall", url: `${origin}/venues/test-hall` },
      duration: "PT2H",
    });
    // The venue's own wall-clock time, with its offset from UTC.
    expect(first!.startDate).toMatch(/^\d{4}-\d\d-\d\dT(19:30|14:30|15:00):00[+-]\d\d:\d\d$/);
    for (const event of show.events) {
      const start = new Date(event.startDate as string).getTime();
      expect(new Date(event.endDate as string).getTime() - start).toBe(120 * 60_000);
      expect(event.endDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00[+-]\d\d:\d\d$/);
      expect(event).toHaveProperty("organizer");
    }
    // The catalogue said only "on sale now": the moment it was loaded is no on-sale date.
    expect(first!.offers).not.toHaveProperty("validFrom");
    expect(first).not.toHaveProperty("image");
    expect(first).not.toHaveProperty("performer");
  });

  it("the data block carries each response's own nonce, also once the page is kept and served again", async () => {
    for (let time = 0; time < 3; time += 1) {
      const show = await page("/shows/test-show/test-hall");
      expect(show.blocks[0]!.getAttribute("nonce")).toBe(show.nonce);
    }
  });

  it("a scheduled on-sale is the offer's validFrom, in the venue's time; a 95-minute show ends 95 minutes on", async () => {
    const show = await page("/shows/later-show/test-hall");
    expect(show.events.length).toBeGreaterThan(0);
    const opens = SALE_OPENS(server.services.clock.now());
    for (const event of show.events) {
      expect(new Date(event.offers.validFrom!).toISOString()).toBe(opens);
      expect(event.offers.validFrom).toMatch(/[+-]\d\d:\d\d$/);
      expect(event.duration).toBe("PT1H35M");
      expect(new Date(event.endDate as string).getTime() - new Date(event.startDate as string).getTime()).toBe(
        95 * 60_000,
      );
    }
  });

  it("a music show is a MusicEvent with its performers and image; its name cannot end the data block", async () => {
    const show = await page("/shows/loud-and-co/test-hall");
    expect(show.html).not.toContain("</script><script>alert(1)");
    expect(show.html).toContain("\\u003c/script>");
    expect(show.events[0]).toMatchObject({
      "@type": "MusicEvent",
      name: GIG,
      image: [`${origin}/posters/loud.jpg`],
      performer: [
        { "@type": "MusicGroup", name: "The Loud Band" },
        { "@type": "Person", name: "DJ Quiet" },
      ],
    });
  });

  it("an access performance says its captions and sign language; a relaxed one, which schema.org has no feature word for, says its audience", async () => {
    const show = await page("/shows/test-show/test-hall");
    expect(show.events[0]!.accessibilityFeature).toEqual(["captions", "signLanguage"]);
    expect(show.events[0]!.accessibilitySummary).toBe("Access: Captioned, BSL interpreted");
    expect(show.events[0]).not.toHaveProperty("audience");
    expect(show.events[1]).not.toHaveProperty("accessibilityFeature");
    expect(show.events[1]).toMatchObject({
      audience: [{ "@type": "Audience", audienceType: "Relaxed performance" }],
      accessibilitySummary: "Access: Relaxed performance",
    });
    // A performance with no access service says none of it.
    const plain = show.events.slice(2).filter((event) => !("accessibilitySummary" in event));
    expect(plain.length).toBeGreaterThan(0);
    for (const event of plain) {
      expect(event).not.toHaveProperty("audience");
      expect(event).not.toHaveProperty("accessibilityFeature");
    }
    const [first, second] = await performanceIds("test-show");
    const tickets = await page(`/shows/test-show/test-hall/tickets/${first!.id}`);
    expect(tickets.events[0]!.accessibilityFeature).toEqual(["captions", "signLanguage"]);
    expect(tickets.events[0]!.accessibilitySummary).toBe("Access: Captioned, BSL interpreted");
    const relaxed = await page(`/shows/test-show/test-hall/tickets/${second!.id}`);
    expect(relaxed.events[0]).toMatchObject({ audience: [{ audienceType: "Relaxed performance" }] });
  });

  it("a venue's page gives it as a schema.org Place: its address, phone and page", async () => {
    const venue = await page("/venues/test-hall");
    expect(venue.blocks).toHaveLength(1);
    expect(venue.blocks[0]!.getAttribute("nonce")).toBe(venue.nonce);
    expect(venue.events[0]).toEqual({
      "@context": "https://schema.org",
      "@type": "Place",
      name: "Test Hall",
      url: `${origin}/venues/test-hall`,
      address: {
        "@type": "PostalAddress",
        streetAddress: "1 Test Street",
        addressLocality: "London",
        postalCode: "SW1A 1AA",
        addressCountry: "GB",
      },
      telephone: "020 7946 0999",
    });
  });

  it("a tickets page gives its one performance, at its own address", async () => {
    const [performance] = await performanceIds("loud-and-co");
    const path = `/shows/loud-and-co/test-hall/tickets/${performance!.id}`;
    const tickets = await page(path);
    expect(tickets.events).toHaveLength(1);
    expect(tickets.events[0]).toMatchObject({ "@type": "MusicEvent", url: `${origin}${path}` });
    expect(tickets.events[0]!.offers).toMatchObject({ price: "27.00", url: `${origin}${path}` });
  });

  it("share cards: Open Graph and Twitter tags, the site's name from the brand, the image where there is one", async () => {
    const play = await page("/shows/test-show/test-hall");
    expect({
      title: play.meta("og:title"),
      type: play.meta("og:type"),
      url: play.meta("og:url"),
      description: play.meta("og:description"),
      image: play.meta("og:image"),
      siteName: play.meta("og:site_name"),
      card: play.meta("twitter:card"),
      twitterTitle: play.meta("twitter:title"),
    }).toEqual({
      title: "Test Show, Test Hall",
      type: "website",
      url: `${origin}/shows/test-show/test-hall`,
      description: "A show for tests.",
      image: null,
      siteName: "Riverside Tickets",
      card: "summary",
      twitterTitle: "Test Show, Test Hall",
    });
    const gig = await page("/shows/loud-and-co/test-hall");
    expect(gig.meta("og:image")).toBe(`${origin}/posters/loud.jpg`);
    expect(gig.meta("twitter:card")).toBe("summary_large_image");
    const [performance] = await performanceIds("loud-and-co");
    const tickets = await page(`/shows/loud-and-co/test-hall/tickets/${performance!.id}`);
    expect(tickets.meta("og:url")).toBe(`${origin}/shows/loud-and-co/test-hall/tickets/${performance!.id}`);
    // A page about no show has no card.
    expect((await page("/legal/terms-of-use")).meta("og:title")).toBeNull();
  });

  it("every public page has a description, one canonical address without lng, cfg, tracking or filters, and its address in each language", async () => {
    const [performance] = await performanceIds("test-show");
    const tickets = `/shows/test-show/test-hall/tickets/${performance!.id}`;
    const pages: [asked: string, canonical: string][] = [
      ["/", "/"],
      ["/?venue=test-hall&date=", "/"],
      ["/shows/test-show/test-hall", "/shows/test-show/test-hall"],
      ["/shows/test-show/test-hall/calendar?seats=2", "/shows/test-show/test-hall/calendar"],
      [`${tickets}?minPrice=&section=`, tickets],
      ["/venues", "/venues"],
      ["/venues/test-hall", "/venues/test-hall"],
      ["/access", "/access"],
      ["/access?venue=test-hall", "/access?venue=test-hall"],
      ["/legal/terms-of-use", "/legal/terms-of-use"],
      ["/membership", "/membership"],
    ];
    for (const [asked, path] of pages) {
      const joiner = asked.includes("?") ? "&" : "?";
      const found = await page(
        `${asked}${joiner}lng=en-US&cfg=regent&utm_source=newsletter&utm_medium=email&utm_campaign=winter&gclid=abc&fbclid=def`,
      );
      const canonical = `${origin}${path}`;
      const inLanguage = (language: string) => {
        const url = new URL(canonical);
        url.searchParams.set("lng", language);
        return url.toString();
      };
      expect({ asked, canonical: found.links("canonical") }).toEqual({
        asked,
        canonical: [{ hreflang: null, href: canonical }],
      });
      expect({ asked, alternates: found.links("alternate") }).toEqual({
        asked,
        alternates: [
          { hreflang: "en-GB", href: inLanguage("en-GB") },
          { hreflang: "en-US", href: inLanguage("en-US") },
          { hreflang: "x-default", href: canonical },
        ],
      });
      const description = found.meta("description");
      expect({ asked, description }).toEqual({ asked, description: expect.stringMatching(/\S/) });
      expect(description!.length, asked).toBeLessThanOrEqual(160);
      expect(found.document.querySelectorAll('meta[name="description"]'), asked).toHaveLength(1);
    }
  });

  it("descriptions: a show's is the catalogue's; the others in the page's language and with the page's show, venue and date", async () => {
    expect((await page("/shows/test-show/test-hall")).meta("description")).toBe("A show for tests.");
    expect((await page("/?lng=en-GB")).meta("description")).toMatch(/^What's on at Riverside Tickets: /);
    expect((await page("/?lng=en-US")).meta("description")).toMatch(/^What's playing at Riverside Tickets: /);
    expect((await page("/shows/test-show/test-hall/calendar")).meta("description")).toMatch(
      /^Every date of Test Show at Test Hall: /,
    );
    const [performance] = await performanceIds("test-show");
    expect((await page(`/shows/test-show/test-hall/tickets/${performance!.id}`)).meta("description")).toMatch(
      /^Choose your seats for Test Show at Test Hall, \w{3},? \d{1,2} \w{3} 2\d{3},? \d\d?:\d\d, on the seating plan/,
    );
    expect((await page("/venues/test-hall")).meta("description")).toMatch(/^Test Hall, London: /);
    expect((await page("/access?venue=test-hall")).meta("description")).toMatch(
      /^Accessible performances at Test Hall: /,
    );
    // A page for one buyer (the checkout, an account) is no search result: it has no canonical link.
    expect((await page("/account/sign-in")).links("canonical")).toEqual([]);
  });

  it("the sitemap lists every show, venue and performance page, absolute, with lastmod", async () => {
    const response = await fetch(server.url("/sitemap.xml"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/xml/);
    const body = await response.text();
    const document = new JSDOM(body, { contentType: "application/xml" }).window.document;
    const entries = [...document.getElementsByTagName("url")].map((url) => ({
      loc: url.getElementsByTagName("loc")[0]?.textContent ?? "",
      lastmod: url.getElementsByTagName("lastmod")[0]?.textContent ?? null,
    }));
    const locs = entries.map((entry) => entry.loc);
    expect(locs.every((loc) => loc.startsWith(`${origin}/`))).toBe(true);
    for (const path of [
      "/",
      "/shows/test-show/test-hall",
      "/shows/loud-and-co/test-hall",
      "/venues/test-hall",
      "/venues",
      "/shows/test-show/test-hall/calendar",
      "/shows/loud-and-co/test-hall/calendar",
      "/access",
      "/access?venue=test-hall",
    ])
      expect(locs).toContain(`${origin}${path}`);
    for (const title of ["test-show", "loud-and-co"])
      for (const { id } of await performanceIds(title))
        expect(locs).toContain(`${origin}/shows/${title}/test-hall/tickets/${id}`);
    const show = entries.find((entry) => entry.loc === `${origin}/shows/test-show/test-hall`)!;
    expect(show.lastmod).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(entries.find((entry) => entry.loc === `${origin}/venues/test-hall`)!.lastmod).toBeTruthy();
    expect(entries.find((entry) => entry.loc === `${origin}/venues`)!.lastmod).toBeTruthy();
    // Nobody's checkout, account or tickets.
    expect(locs.some((loc) => /\/(checkout|account|e-tickets|sandbox|waiting-room)/.test(loc))).toBe(false);
  });

  it("robots.txt allows the public pages, keeps crawlers out of a buyer's own, and points to the sitemap", async () => {
    const response = await fetch(server.url("/robots.txt"));
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe(
      [
        "User-agent: *",
        "Allow: /",
        "Disallow: /checkout",
        "Disallow: /account",
        "Disallow: /sandbox",
        "Disallow: /e-tickets",
        "Disallow: /waiting-room",
        "",
        `Sitemap: ${origin}/sitemap.xml`,
        "",
      ].join("\n"),
    );
  });

  it("the pages with structured data and share cards pass the Nu HTML Checker and axe", async () => {
    const [performance] = await performanceIds("loud-and-co");
    const buyer = htmlDriver(origin);
    await buyer.open("/shows/test-show/test-hall");
    await buyer.open("/shows/loud-and-co/test-hall");
    await buyer.open(`/shows/loud-and-co/test-hall/tickets/${performance!.id}`);
    await buyer.open("/venues/test-hall");
    await buyer.open("/shows/test-show/test-hall/calendar");
    await buyer.open("/");
    await validateAllPages();
  });
});
