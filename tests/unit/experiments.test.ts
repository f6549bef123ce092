import { describe, expect, it } from "vitest";
import { assignVariation, parseForcedVariations, type Experiment } from "~/config/experiments";

const experiment: Experiment = {
  id: "summary-position",
  variations: [
    { id: "control", weight: 3 },
    { id: "top", weight: 1 },
    { id: "off", weight: 0 },
  ],
};

describe("experiments", () => {
  it("gives a visitor the same variation every time", () => {
    for (const visitor of ["v-1", "v-2", "v-3", "v-4"]) {
      expect(assignVariation(experiment, visitor)).toBe(assignVariation(experiment, visitor));
    }
  });

  it("splits visitors by the weights, and never into a zero-weight variation", () => {
    const counts: Record<string, number> = { control: 0, top: 0, off: 0 };
    for (let index = 0; index < 8000; index += 1) counts[assignVariation(experiment, `visitor-${index}`)]! += 1;
    expect(counts.off).toBe(0);
    expect(counts.control! / 8000).toBeGreaterThan(0.7);
    expect(counts.control! / 8000).toBeLessThan(0.8);
  });

  it("force-opty overrides the assignment, but only with a variation that exists", () => {
    expect(assignVariation(experiment, "v-1", { "summary-position": "off" })).toBe("off");
    expect(assignVariation(experiment, "v-1", { "summary-position": "nope" })).toBe(assignVariation(experiment, "v-1"));
  });

  it("reads repeatable force-opty values and ignores malformed ones", () => {
    expect(parseForcedVariations(["summary-position:top", "other:b", "garbage", "a:b:c", ":x"])).toEqual({
      "summary-position": "top",
      other: "b",
    });
  });
});
