import { join } from "node:path";
import type { i18n as I18n } from "i18next";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { CalendarPerformance, type CalendarPerformanceView } from "~/components/calendar-performance";
import { readLocaleFiles } from "~/i18n/i18n.server";
import { commonWords } from "../support/seat-map-views";

// The component shows how many places are left where the server says places are sold
// (sale-window.ts's bookable, as the view's field), whatever the state's name.

const files = readLocaleFiles(join(process.cwd(), "locales"));
let i18n: I18n;

beforeAll(async () => {
  i18n = await commonWords("en-GB", files.resources);
});

const performance: CalendarPerformanceView = {
  id: "P1",
  startsAt: "2026-12-01T19:30:00.000Z",
  day: "2026-12-01",
  level: "good",
  state: "presale",
  bookable: true,
  onSaleFrom: "2026-12-05T10:00:00.000Z",
  href: null,
};

const classOf = (view: CalendarPerformanceView) =>
  /class="([^"]*)"/.exec(
    renderToStaticMarkup(
      <I18nextProvider i18n={i18n}>
        <CalendarPerformance performance={view} timeZone="Europe/London" />
      </I18nextProvider>,
    ),
  )![1];

describe("a performance's availability colour", () => {
  it("follows the view's bookable field, not a list of states of its own", () => {
    expect(classOf(performance)).toBe("calendar-performance calendar-performance--good");
    expect(classOf({ ...performance, bookable: false })).toBe("calendar-performance calendar-performance--unavailable");
    expect(classOf({ ...performance, state: "queueOpen", level: "low", bookable: true })).toBe(
      "calendar-performance calendar-performance--low",
    );
  });
});
