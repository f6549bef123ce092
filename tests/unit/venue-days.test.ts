import { formatInTimeZone } from "date-fns-tz";
import { describe, expect, it } from "vitest";
import { venueDay } from "~/urls/venue-days";

describe("the day an instant falls on at the venue", () => {
  // Either side of midnight and of the clocks changing, in the demo's zones and one far east.
  const instants = [
    "2026-03-29T00:59:59.000Z",
    "2026-03-29T01:00:00.000Z",
    "2026-11-01T05:30:00.000Z",
    "2026-11-25T23:30:00.000Z",
    "2026-12-31T23:59:59.999Z",
  ];
  const zones = ["Europe/London", "America/Chicago", "America/New_York", "Pacific/Auckland"];

  it("is the venue's date and month, asked once and again, from a string or a Date", () => {
    for (const iso of instants)
      for (const zone of zones)
        for (const pattern of ["yyyy-MM-dd", "yyyy-MM"] as const) {
          const expected = formatInTimeZone(iso, zone, pattern);
          expect(venueDay(iso, zone, pattern), `${iso} in ${zone}`).toBe(expected);
          expect(venueDay(new Date(iso), zone, pattern), `${iso} in ${zone}, again`).toBe(expected);
        }
    expect(venueDay("2026-11-26T02:00:00.000Z", "America/Chicago", "yyyy-MM-dd")).toBe("2026-11-25");
    expect(venueDay("2026-11-26T02:00:00.000Z", "Europe/London", "yyyy-MM-dd")).toBe("2026-11-26");
  });
});
