import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateAllPages } from "../support/html-driver";
import { demoBuyer, pathOf, startDemoServer, type DemoServer } from "../support/demo-journey";
import { heard, words } from "../support/read-text";

// Issue 43: a buyer without script filters a show's calendar to audio-described performances,
// and finds every access performance on /access. The
// demo imports on Monday 23 November 2026; A Winter's Crossing's audio-described (and touch-tour)
// matinee is in the week of days 8 to 14, at 14:00: Thursday 3 December.

const CALENDAR = "/shows/a-winters-crossing/harbour-playhouse/calendar";

describe.each(["en-GB", "en-US"] as const)("access performances without script, %s", (language) => {
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await validateAllPages();
    await server.close();
  });

  it("says each performance's services in words, and filters to audio-described dates only", async () => {
    const buyer = demoBuyer(server, language);
    await buyer.open(`${CALENDAR}/2026-12-01`);
    const bookable = () =>
      [...buyer.document.querySelectorAll<HTMLAnchorElement>('a[href*="/tickets/"]')].map((a) => heard(a));
    // Unfiltered, December has many dates; the services are in the links' words.
    expect(bookable().length).toBeGreaterThan(10);
    const signedOrCaptioned = language === "en-GB" ? "Captioned" : "Open captioned";
    expect(bookable().filter((text) => text.includes(`Access: ${signedOrCaptioned}`)).length).toBeGreaterThan(0);
    expect(bookable().filter((text) => text.includes("Access: Audio described, Touch tour"))).toHaveLength(1);

    buyer.select("Access performances", "Audio described");
    await buyer.press("Update availability");
    expect(pathOf(buyer)).toBe(`${CALENDAR}/2026-12-01`);
    expect(new URL(buyer.url).searchParams.get("access")).toBe("audio-described");
    const found = bookable();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/Thursday,? 3 December|Thursday, December 3/);
    expect(found[0]).toContain("Access: Audio described, Touch tour");
    expect(words(buyer.document.querySelector('[role="status"]')?.textContent)).toContain(
      "Audio described performances only",
    );

    // November has no audio-described dates: the page says so and keeps the form to widen it.
    await buyer.open(`${CALENDAR}/2026-11-01?access=audio-described`);
    expect(bookable()).toEqual([]);
    expect(words(buyer.document.body.textContent)).toContain("There are no Audio described performances in November");
    expect(buyer.document.querySelector("#calendar-access")).not.toBeNull();
  });

  it("lists every access performance of the demo in date order, in words, with each venue's access", async () => {
    const stored = await server.services.store.db
      .selectFrom("performances")
      .select(["starts_at"])
      .where("access_services", "!=", "")
      .orderBy("starts_at")
      .execute();
    expect(stored.length).toBeGreaterThan(10);
    const buyer = demoBuyer(server, language);
    await buyer.open("/access");
    expect(words(buyer.document.querySelector("h1")?.textContent)).toBe("Access performances");
    const items = [...buyer.document.querySelectorAll(".access-list__item")];
    expect(items.map((item) => item.querySelector("time")?.getAttribute("datetime"))).toEqual(
      stored.map((row) => row.starts_at),
    );
    const text = items.map((item) => heard(item));
    // The sign language is the venue's country's, whichever language the buyer reads.
    const signedAt = (show: string) =>
      text
        .filter((line) => line.includes(show) && /interpreted/.test(line))
        .map((line) => /\w+ interpreted/.exec(line)![0]);
    expect(new Set(signedAt("at Liberty Theatre"))).toEqual(new Set(["ASL interpreted"]));
    expect(new Set(signedAt("at Regent Palace Theatre"))).toEqual(new Set(["BSL interpreted"]));
    expect(text.some((line) => line.includes("A Winter's Crossing at Harbour Playhouse"))).toBe(true);
    expect(text.some((line) => line.includes("Touch tour at 12:30; headsets from the foyer desk."))).toBe(true);
    const venues = [...buyer.document.querySelectorAll("h2")].map((heading) => words(heading.textContent));
    expect(venues).toContain("Access at Regent Palace Theatre");

    // The soonest Winter's Crossing date is on sale: its link goes to its tickets page.
    const book = [...buyer.document.querySelectorAll<HTMLAnchorElement>(".access-list__item a")].find((link) =>
      (link.getAttribute("aria-label") ?? "").startsWith("Book A Winter's Crossing"),
    );
    await buyer.open(book!.getAttribute("href")!);
    expect(pathOf(buyer)).toMatch(/^\/shows\/a-winters-crossing\/harbour-playhouse\/tickets\//);
    expect(buyer.document.querySelector(".seat-map")).not.toBeNull();
  });
});
