// @vitest-environment jsdom
import { join } from "node:path";
import { createRemixStub } from "@remix-run/testing";
import { cleanup, render, screen } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { afterEach, describe, expect, it } from "vitest";
import { HoldPanel } from "~/components/hold-panel";
import { readLocaleFiles } from "~/i18n/i18n.server";
import { timeZonePlace } from "~/i18n/format";
import type { Language } from "~/i18n/languages";
import type { HoldView } from "~/views/hold";
import { commonWords } from "../support/seat-map-views";

// Issue 40, item 6: the clock time a hold ends is the venue's, and says so. The server cannot know
// the buyer's zone, so the zone is named every time, with script or without: a London buyer of a
// New York seat reads "New York time", not a bare hour they would take for their own.

const files = readLocaleFiles(join(process.cwd(), "locales"));

const hold = (timeZone: string): HoldView => ({
  performanceId: "p1",
  showName: "Broadway Lights",
  venueName: "Liberty Theatre",
  startsAt: "2031-01-14T23:30:00.000Z",
  timeZone,
  secondsLeft: 900,
  // 19:47 UTC in January: 2:47 PM in New York (EST, UTC−5), 19:47 in London (GMT).
  expiresAt: "2031-01-14T19:47:00.000Z",
  expired: false,
  canExtend: true,
  places: 2,
  ticketsHref: "/tickets/p1",
});

afterEach(cleanup);

/**
 * The panel's line saying when the hold ends. The words are the server's too (the page's HTML is
 * checked in tests/routes/payment-page.test.ts and the no-script journeys): nothing in them waits
 * for script.
 */
async function heldUntil(view: HoldView, language: Language) {
  const i18n = await commonWords(language, files.resources);
  const Stub = createRemixStub([
    {
      path: "/checkout/payment",
      Component: () => (
        <AuthenticityTokenProvider token="token">
          <HoldPanel hold={view} />
        </AuthenticityTokenProvider>
      ),
    },
  ]);
  render(
    <I18nextProvider i18n={i18n}>
      <Stub initialEntries={["/checkout/payment"]} />
    </I18nextProvider>,
  );
  const line = await screen.findByText(/^Your seats are held until/);
  const text = (line.textContent ?? "").replace(/\s+/g, " ").trim();
  cleanup();
  return text;
}

describe("the hold's end, told in the venue's zone", () => {
  it("names the venue's zone, in US English", async () => {
    expect(await heldUntil(hold("America/New_York"), "en-US")).toBe("Your seats are held until 2:47 PM New York time.");
  });

  it("names it in British English too, for a venue in another zone than the buyer's", async () => {
    expect(await heldUntil(hold("America/New_York"), "en-GB")).toBe("Your seats are held until 14:47 New York time.");
    expect(await heldUntil(hold("Europe/London"), "en-GB")).toBe("Your seats are held until 19:47 London time.");
  });

  it("takes the place from the zone's name", () => {
    expect(timeZonePlace("America/Los_Angeles")).toBe("Los Angeles");
    expect(timeZonePlace("America/Argentina/Buenos_Aires")).toBe("Buenos Aires");
    expect(timeZonePlace("UTC")).toBe("UTC");
  });
});
