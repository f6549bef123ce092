import { describe, expect, it, vi } from "vitest";
import { formatDateTime } from "~/i18n/format";
import { keptFormat } from "~/i18n/kept-text";

describe("keptFormat", () => {
  it("answers as the formatter does, asking it once for each instant, time zone and locale", () => {
    const format = vi.fn(formatDateTime);
    const kept = keptFormat("test-dateTime", format);
    const iso = "2026-11-26T19:30:00.000Z";
    expect(kept(iso, "Europe/London", "en-GB")).toBe(formatDateTime(iso, "Europe/London", "en-GB"));
    expect(kept(iso, "Europe/London", "en-GB")).toBe(formatDateTime(iso, "Europe/London", "en-GB"));
    expect(format).toHaveBeenCalledTimes(1);
    // Any part changed is another text.
    expect(kept(iso, "America/New_York", "en-GB")).toBe(formatDateTime(iso, "America/New_York", "en-GB"));
    expect(kept(iso, "Europe/London", "en-US")).toBe(formatDateTime(iso, "Europe/London", "en-US"));
    expect(kept("2026-11-27T19:30:00.000Z", "Europe/London", "en-GB")).toBe(
      formatDateTime("2026-11-27T19:30:00.000Z", "Europe/London", "en-GB"),
    );
    expect(format).toHaveBeenCalledTimes(4);
  });
});
