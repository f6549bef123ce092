import { describe, expect, it } from "vitest";
import { canonicalUrl, shortDescription } from "~/web/page-head.server";
import { isoDuration, saleOpened } from "~/use-cases/structured-data.server";

// Issue 56 item 7: the pieces of a page's head and its events' data that are plain functions.

describe("a page's canonical address", () => {
  const base = "https://tickets.example";
  it("keeps the path and only the parameters that make another page", () => {
    const request = new Request(
      "http://127.0.0.1:3000/access?lng=en-US&venue=test-hall&cfg=regent&utm_source=x&utm_campaign=y&gclid=z",
    );
    expect(canonicalUrl(request, base)).toBe("https://tickets.example/access");
    expect(canonicalUrl(request, base, ["venue"])).toBe("https://tickets.example/access?venue=test-hall");
  });

  it("leaves out a kept parameter that is empty", () => {
    expect(canonicalUrl(new Request("http://x/access?venue="), base, ["venue"])).toBe("https://tickets.example/access");
  });
});

describe("a description", () => {
  it("is kept whole when short, with its whitespace made single", () => {
    expect(shortDescription("  A show\n for   tests. ")).toBe("A show for tests.");
  });

  it("is cut at a word to at most 160 characters", () => {
    const long = `${"word ".repeat(40)}end.`;
    const cut = shortDescription(long);
    expect(cut.length).toBeLessThanOrEqual(160);
    expect(cut).toMatch(/word…$/);
  });
});

describe("an event's running time and sale", () => {
  it("gives the running time as an ISO 8601 duration", () => {
    expect(isoDuration(120)).toBe("PT2H");
    expect(isoDuration(95)).toBe("PT1H35M");
    expect(isoDuration(45)).toBe("PT45M");
  });

  it("says when the sale opened (the presale's start when there is one), not the import's moment", () => {
    const imported = "2026-12-01T10:00:00.000Z";
    expect(saleOpened({ onSaleFrom: "2026-12-05T09:00:00.000Z", presaleFrom: null }, imported)).toBe(
      "2026-12-05T09:00:00.000Z",
    );
    expect(
      saleOpened({ onSaleFrom: "2026-12-05T09:00:00.000Z", presaleFrom: "2026-12-03T09:00:00.000Z" }, imported),
    ).toBe("2026-12-03T09:00:00.000Z");
    // On sale from the import: the catalogue said only "on sale now".
    expect(saleOpened({ onSaleFrom: imported, presaleFrom: null }, imported)).toBeNull();
    expect(saleOpened({ onSaleFrom: "2026-12-05T09:00:00.000Z", presaleFrom: imported }, imported)).toBeNull();
    // An import before this was recorded: the stored date is all there is.
    expect(saleOpened({ onSaleFrom: imported, presaleFrom: null }, null)).toBe(imported);
  });
});
