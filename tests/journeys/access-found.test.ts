import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateAllPages } from "../support/html-driver";
import { DEMO_NOW, demoBuyer, pathOf, startDemoServer, type DemoServer } from "../support/demo-journey";
import { heard, words } from "../support/read-text";

// Issue 43, "found" and "said to machines": a buyer without script finds access performances from
// the home page, a show's page, a venue's page and the footer of any page; `/access?venue=` lists
// one venue's; a filtered calendar's month links keep the filter; a show's page says its hazards
// in words and in its schema.org data. The demo imports on Monday 23 November 2026: day 1 is
// Tuesday 24 November, so A Winter's Crossing's audio-described matinee (days 8-14, 14:00) is
// Thursday 3 December; The Lantern Keeper's captioned matinees are in December, its BSL ones in January.

const SHOW = "/shows/a-winters-crossing/harbour-playhouse";
const CALENDAR = `${SHOW}/calendar`;
const LANTERN = "/shows/the-lantern-keeper/regent-palace/calendar";

describe.each(["en-GB", "en-US"] as const)("access performances found from every page, %s", (language) => {
  let server: DemoServer;
  /** The access performances still on sale, soonest first, as the store has them: what the pages must list. */
  let stored: { starts_at: string; venue: string; title: string }[];
  beforeAll(async () => {
    server = await startDemoServer();
    const now = new Date(DEMO_NOW).toISOString();
    stored = await server.services.store.db
      .selectFrom("performances")
      .innerJoin("runs", "runs.id", "performances.run_id")
      .innerJoin("venues", "venues.id", "runs.venue_id")
      .innerJoin("titles", "titles.id", "runs.title_id")
      .select(["performances.starts_at", "venues.slug as venue", "titles.slug as title"])
      .where("access_services", "!=", "")
      .where("performances.starts_at", ">", now)
      .where("performances.on_sale_until", ">", now)
      .orderBy("performances.starts_at")
      .execute();
  });
  afterAll(async () => {
    await validateAllPages();
    await server.close();
  });

  const listed = (within: Element | null | undefined) =>
    [...(within?.querySelectorAll(".access-list__item") ?? [])].map((item) => ({
      at: item.querySelector("time")?.getAttribute("datetime"),
      text: heard(item),
    }));
  const sectionOf = (buyer: ReturnType<typeof demoBuyer>, heading: string) =>
    [...buyer.document.querySelectorAll("h2")].find((h2) => words(h2.textContent) === heading)?.closest("section");

  it("the home page lists the next three, soonest first, and leads to all of them", async () => {
    const buyer = demoBuyer(server, language);
    await buyer.open("/");
    const next = listed(sectionOf(buyer, "Next access performances"));
    expect(next.map((item) => item.at)).toEqual(stored.slice(0, 3).map((row) => row.starts_at));
    for (const item of next) expect(item.text).toMatch(/ at .+Access: \w/);
    await buyer.follow("See all access performances");
    expect(pathOf(buyer)).toBe("/access");
    expect(listed(buyer.document.body).map((item) => item.at)).toEqual(stored.map((row) => row.starts_at));

    // The home page filtered to a venue lists that venue's, and leads to all of that venue's.
    await buyer.open("/?venue=liberty-theatre");
    const liberty = stored.filter((row) => row.venue === "liberty-theatre");
    expect(listed(sectionOf(buyer, "Next access performances")).map((item) => item.at)).toEqual(
      liberty.slice(0, 3).map((row) => row.starts_at),
    );
    await buyer.follow("See all access performances");
    expect(buyer.url).toBe(server.url("/access?venue=liberty-theatre"));
    expect(listed(buyer.document.body)).toHaveLength(liberty.length);
  });

  it("a show's page lists its own next ones, and says what it warns of in words and to search engines", async () => {
    const buyer = demoBuyer(server, language);
    await buyer.open(SHOW);
    const next = listed(sectionOf(buyer, "Next access performances"));
    const own = stored.filter((row) => row.title === "a-winters-crossing").slice(0, 3);
    expect(next.map((item) => item.at)).toEqual(own.map((row) => row.starts_at));
    expect(next[0]!.text).toContain("Access: Audio described, Touch tour");
    expect(next[0]!.text).toContain("Touch tour at 12:30; headsets from the foyer desk.");
    // On the show's own page its name and venue go without saying; the link still names them.
    expect(next[0]!.text).not.toContain("at Harbour Playhouse");
    const book = buyer.document.querySelector(".access-next a[aria-label]")!;
    expect(book.getAttribute("aria-label")).toMatch(/^Book A Winter's Crossing, /);
    expect(book.getAttribute("href")).toMatch(new RegExp(`^${SHOW}/tickets/`));

    const hazards = [...buyer.document.querySelectorAll(".show__hazards li")].map((item) => words(item.textContent));
    expect(hazards).toEqual([
      language === "en-GB"
        ? "Contains flashing lights, including strobe lighting"
        : "Contains flashing lights, including strobe lights",
      "Contains sudden loud noises, such as gunshots or explosions",
    ]);
    const events = JSON.parse(
      buyer.document.querySelector('script[type="application/ld+json"]')!.textContent!,
    ) as Record<string, unknown>[];
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.accessibilityHazard).toEqual(["flashing", "sound"]);

    // A show whose catalogue entry says nothing of hazards says nothing either.
    await buyer.open("/shows/comedy-mondays/liberty-theatre");
    expect(buyer.document.querySelector(".show__hazards")).toBeNull();
    expect(buyer.document.body.innerHTML).not.toContain("accessibilityHazard");

    // A show with no access performances, and the home page filtered to its venue, say nothing of them.
    for (const path of ["/shows/northern-static/foundry-hall", "/?venue=foundry-hall"]) {
      await buyer.open(path);
      expect(buyer.status, path).toBe(200);
      expect(sectionOf(buyer, "Next access performances"), path).toBeUndefined();
      expect(buyer.document.querySelector(".access-next"), path).toBeNull();
    }
  });

  it("a venue's page leads to its own access performances, in date order, with its access information", async () => {
    const buyer = demoBuyer(server, language);
    await buyer.open("/venues/harbour-playhouse");
    await buyer.follow("Access performances at Harbour Playhouse");
    expect(buyer.url).toBe(server.url("/access?venue=harbour-playhouse"));
    expect(words(buyer.document.querySelector("h1")?.textContent)).toBe("Access performances at Harbour Playhouse");
    const own = stored.filter((row) => row.venue === "harbour-playhouse");
    expect(own.length).toBeLessThan(stored.length);
    const items = listed(buyer.document.body);
    expect(items.map((item) => item.at)).toEqual(own.map((row) => row.starts_at));
    for (const item of items) expect(item.text).toContain("at Harbour Playhouse");
    expect([...buyer.document.querySelectorAll("h2")].map((h2) => words(h2.textContent))).toEqual([
      "Access at Harbour Playhouse",
    ]);

    // Another venue, chosen with the page's own form; then all of them again.
    buyer.select("Venue", "Liberty Theatre");
    await buyer.press("Show access performances");
    expect(buyer.url).toBe(server.url("/access?venue=liberty-theatre"));
    const liberty = listed(buyer.document.body);
    expect(liberty.map((item) => item.at)).toEqual(
      stored.filter((row) => row.venue === "liberty-theatre").map((row) => row.starts_at),
    );
    // ASL at a US venue, whichever language the buyer reads.
    expect(liberty.some((item) => item.text.includes("ASL interpreted"))).toBe(true);
    buyer.select("Venue", "All venues");
    await buyer.press("Show access performances");
    expect(listed(buyer.document.body)).toHaveLength(stored.length);

    await buyer.open("/access?venue=no-such-venue");
    expect(buyer.status).toBe(404);
    expect(words(buyer.document.querySelector("h1")?.textContent)).toBe("Page not found");
  });

  it("every page's footer links to the access performances", async () => {
    const buyer = demoBuyer(server, language);
    for (const path of ["/", "/legal/terms-of-use", "/account/sign-in", `${CALENDAR}/2026-12-01`, "/no-such-page"]) {
      await buyer.open(path);
      const footer = buyer.document.querySelector("footer nav");
      expect(footer?.getAttribute("aria-label"), path).toBe("Access and legal information");
      const link = [...footer!.querySelectorAll("a")].find((a) => words(a.textContent) === "Access performances");
      expect(link?.getAttribute("href"), path).toBe("/access");
    }
    await buyer.follow("Access performances");
    expect(pathOf(buyer)).toBe("/access");
  });

  it("a filtered calendar's month links keep the filter, and go to the months with such dates", async () => {
    const buyer = demoBuyer(server, language);
    const bookable = () =>
      [...buyer.document.querySelectorAll<HTMLAnchorElement>('a[href*="/tickets/"]')].map((a) => heard(a));
    // November has no audio-described date; December has the one.
    await buyer.open(`${CALENDAR}/2026-11-01?access=audio-described`);
    await buyer.follow(/^Next/);
    expect(pathOf(buyer)).toBe(`${CALENDAR}/2026-12-01`);
    expect(new URL(buyer.url).searchParams.get("access")).toBe("audio-described");
    expect(bookable()).toHaveLength(1);
    // Nothing audio-described comes after: no month to go on to, though January has other dates.
    expect(buyer.document.querySelector(".calendar__month-link--next")).toBeNull();
    await buyer.open(`${CALENDAR}/2026-12-01`);
    expect(buyer.document.querySelector(".calendar__month-link--next")).not.toBeNull();

    // The Lantern Keeper's BSL dates are in January: December's next link goes there, filter and all.
    const dates = () => [...buyer.document.querySelectorAll(".calendar-performance")].map((date) => heard(date));
    await buyer.open(`${LANTERN}/2026-12-01?access=signed&seats=2`);
    expect(dates()).toEqual([]);
    await buyer.follow(/^Next/);
    const january = new URL(buyer.url);
    expect(january.pathname).toBe(`${LANTERN}/2027-01-01`);
    expect(january.searchParams.get("access")).toBe("signed");
    expect(january.searchParams.get("seats")).toBe("2");
    expect(dates().length).toBeGreaterThan(0);
    // A UK venue's interpreters sign BSL, whichever language the buyer reads.
    for (const text of dates()) expect(text).toContain("Access: BSL interpreted");
    // And back: February's previous captioned month is December, the filter kept.
    await buyer.open(`${LANTERN}/2027-02-01?access=captioned`);
    await buyer.follow(/^Previous/);
    expect(pathOf(buyer)).toBe(`${LANTERN}/2026-12-01`);
    expect(new URL(buyer.url).searchParams.get("access")).toBe("captioned");
    expect(dates().length).toBeGreaterThan(0);
  });
});
