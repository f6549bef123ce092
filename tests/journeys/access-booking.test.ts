import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sentMail } from "../support/outbox";
import { answerStepsToPayment, fillCard, orderNumber } from "../support/no-script-checkout";
import { validateAllPages, type HtmlDriver } from "../support/html-driver";
import { demoBuyer, pathOf, startDemoServer, type DemoServer } from "../support/demo-journey";
import { heard, words } from "../support/read-text";

// Issue 43 item 3, its Done-when journey: a buyer without script filters A Winter's Crossing's
// calendar to audio-described dates with the calendar's own form, chooses the one (Thursday 3
// December, 14:00, at Harbour Playhouse: 900 seats, the smaller house of the two in the UK), reads
// which seats suit audio description on the seat map, asks best available to prefer them, buys,
// and finds the services and their notes on the confirmation and in its email.

const CALENDAR = "/shows/a-winters-crossing/harbour-playhouse/calendar";
/** The demo's audio-described seats at Harbour Playhouse: Stalls rows F to K, seats 8 to 23. */
const SUITED_ROWS = ["F", "G", "H", "I", "J", "K"];
const SEAT_WORDS = "suits audio-described performances: good headset reception for the description";
const NOTES = "Touch tour at 12:30; headsets from the foyer desk.";

/** The value beside a term of the confirmation's order facts. */
function fact(buyer: HtmlDriver, term: string) {
  const dt = [...buyer.document.querySelectorAll("dt")].find((candidate) => words(candidate.textContent) === term);
  return words(dt?.nextElementSibling?.textContent);
}

// A tickets page of 900 labelled seats costs seconds of checks on two busy cores.
describe("booking an access performance without script", { timeout: 60_000 }, () => {
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(["en-GB", "en-US"] as const)(
    "%s: filters to audio-described dates, sees the suited seats named, buys them, and reads the services back",
    async (language) => {
      const buyer = demoBuyer(server, language);
      await buyer.open(`${CALENDAR}/2026-12-01`);
      buyer.select("Access performances", "Audio described");
      await buyer.press("Update availability");
      const dates = [...buyer.document.querySelectorAll<HTMLAnchorElement>('a[href*="/tickets/"]')];
      expect(dates).toHaveLength(1);
      expect(heard(dates[0])).toContain("Access: Audio described, Touch tour");
      // Each service's mark is there for the eye, beside its words (bracketed for a text browser).
      expect(words(dates[0]!.textContent)).toContain("Access: [AD] Audio described, [TT] Touch tour");
      await buyer.follow(heard(dates[0]));
      expect(pathOf(buyer)).toMatch(/^\/shows\/a-winters-crossing\/harbour-playhouse\/tickets\//);

      // The seat map names the suited seats in words, in their labels, and its key says what the
      // outline means; seats elsewhere say nothing of it.
      const labels = [...buyer.document.querySelectorAll(".seat-map__plan label")].map((label) =>
        words(label.textContent),
      );
      const suited = labels.filter((label) => label.includes(SEAT_WORDS));
      expect(suited.length).toBeGreaterThan(50);
      for (const label of suited) expect(label).toMatch(/^Stalls, row [F-K], seat (\d+),/);
      expect(labels.find((label) => label.startsWith("Stalls, row A, seat 10,"))).not.toContain("suits");
      expect(buyer.document.querySelectorAll(".seat-map__plan input.u")).toHaveLength(suited.length);
      expect(words(buyer.document.querySelector(".seat-map-key")?.textContent)).toContain(
        "Suits audio-described performances: good headset reception for the description",
      );

      // Best available, asked to prefer them: the best seats free (row A) are not what it holds.
      buyer.select("Number of seats", "2");
      buyer.check("Prefer seats with good headset reception for the audio description");
      await buyer.press("Find seats");
      expect(pathOf(buyer)).toBe("/checkout/reservations");
      expect(buyer.text()).toContain("These seats have good headset reception for the audio description.");
      const rows = [...buyer.text().matchAll(/Stalls, row ([A-Z]), seat \d+/g)].map((match) => match[1]);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(SUITED_ROWS).toContain(row);

      if (buyer.offers("checkbox", "I have read this notice")) buyer.check("I have read this notice");
      await buyer.press("Accept these seats");
      if (pathOf(buyer) === "/checkout/extras") await buyer.press("Continue");
      await answerStepsToPayment(buyer);
      fillCard(buyer, "4242 4242 4242 4242");
      await buyer.press(/^Pay /);
      expect(pathOf(buyer)).toBe("/checkout/confirmation");
      expect(fact(buyer, "Access")).toBe("Audio described, Touch tour");
      expect(fact(buyer, "Access notes")).toBe(NOTES);

      const mail = await sentMail(server, orderNumber(buyer));
      expect(mail).toContain("Access: Audio described, Touch tour");
      expect(mail).toContain(`Access notes: ${NOTES}`);
      expect(mail).toMatch(
        /<th scope="row"[^>]*>Access notes<\/th><td[^>]*>Touch tour at 12:30; headsets from the foyer desk\.<\/td>/,
      );
    },
  );

  it("has pages that pass the Nu HTML Checker", async () => {
    await validateAllPages();
  });
});
