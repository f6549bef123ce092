import { describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { remembered } from "~/ticketing/catalogue-facts.server";

describe("what the catalogue's facts keep", () => {
  function counting(answers: Record<string, string | undefined | Error>) {
    const reads: string[] = [];
    const load = async (key: string) => {
      reads.push(key);
      const answer = answers[key];
      if (answer instanceof Error) throw answer;
      return answer;
    };
    return { reads, load };
  }

  it("reads a key once while it is younger than the age bound, then again", async () => {
    const clock = fixedClock("2026-11-24T12:00:00.000Z");
    const { reads, load } = counting({ venue: "Regent Palace" });
    const kept = remembered(clock, load, 60_000);
    expect(await Promise.all([kept("venue"), kept("venue")])).toEqual(["Regent Palace", "Regent Palace"]);
    clock.advance(59_999);
    expect(await kept("venue")).toBe("Regent Palace");
    expect(reads).toEqual(["venue"]);
    clock.advance(1);
    await kept("venue");
    expect(reads).toEqual(["venue", "venue"]);
  });

  it("keeps neither a key that found nothing (an import may add it) nor a failed read", async () => {
    const clock = fixedClock("2026-11-24T12:00:00.000Z");
    const { reads, load } = counting({ absent: undefined, broken: new Error("connection lost") });
    const kept = remembered(clock, load, 60_000);
    expect(await kept("absent")).toBeUndefined();
    expect(await kept("absent")).toBeUndefined();
    await expect(kept("broken")).rejects.toThrow("connection lost");
    await expect(kept("broken")).rejects.toThrow("connection lost");
    expect(reads).toEqual(["absent", "absent", "broken", "broken"]);
  });

  it("reads again when the clock is set back before the read", async () => {
    const clock = fixedClock("2026-11-24T12:00:00.000Z");
    const { reads, load } = counting({ venue: "Regent Palace" });
    const kept = remembered(clock, load, 60_000);
    await kept("venue");
    clock.set("2026-11-24T11:00:00.000Z");
    await kept("venue");
    expect(reads).toEqual(["venue", "venue"]);
  });
});
