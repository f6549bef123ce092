import { describe, expect, it } from "vitest";
import { isoDate, parseParams, performanceId, showParams, slug } from "~/urls/params";

describe("route parameters (spec section 2)", () => {
  it.each(["hamlet", "a", "les-mis.2026", "rock&roll", "wow!", "c++", "a".repeat(255)])("slug %s is valid", (value) => {
    expect(slug.safeParse(value).success).toBe(true);
  });

  it.each(["", "ham let", "a".repeat(256), "café", "a/b", "a_b", "<script>", "a%20b"])("slug %j is not", (value) => {
    expect(slug.safeParse(value).success).toBe(false);
  });

  it.each(["0D5A1C2E-3B4F-4A6D-8E9F-0A1B2C3D4E5F", "0d5a1c2e-3b4f-4a6d-8e9f-0a1b2c3d4e5f", "0".repeat(36)])(
    "performance id %s is valid",
    (value) => {
      expect(performanceId.safeParse(value).success).toBe(true);
    },
  );

  it.each([
    "0D5A1C2E-3B4F-4A6D-8E9F-0A1B2C3D4E5",
    "0D5A1C2E-3B4F-4A6D-8E9F-0A1B2C3D4E5FF",
    "GD5A1C2E-3B4F-4A6D-8E9F-0A1B2C3D4E5F",
    "0D5A1C2E 3B4F-4A6D-8E9F-0A1B2C3D4E5F",
  ])("performance id %s is not", (value) => {
    expect(performanceId.safeParse(value).success).toBe(false);
  });

  it.each(["2026-02-28", "2028-02-29", "2026-12-31", "2027-01-01"])("date %s is a real day", (value) => {
    expect(isoDate.safeParse(value).success).toBe(true);
  });

  it.each(["2026-02-30", "2027-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "26-02-01", "2026-2-1", "tomorrow"])(
    "date %s is not",
    (value) => {
      expect(isoDate.safeParse(value).success).toBe(false);
    },
  );

  it("parseParams throws a 404 response, never an error", () => {
    expect(parseParams({ titleSlug: "hamlet" }, showParams)).toEqual({ titleSlug: "hamlet" });
    try {
      parseParams({ titleSlug: "ham let" }, showParams);
      expect.unreachable();
    } catch (thrown) {
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(404);
    }
  });
});
