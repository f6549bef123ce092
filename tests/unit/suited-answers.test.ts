import { describe, expect, it } from "vitest";
import { suitedAnswers } from "~/ticketing/reservation-view.server";
import type { AccessService } from "~/views/access-services";

// What the best-available offer says after a buyer asked for seats suited to an access service
// (issue 43): read from the seats held, for the services the performance carries.

const held = (services: AccessService[], ...seats: AccessService[][]) => ({
  access: { services, notes: null },
  seats: seats.map((suits) => ({ suits })),
});

describe("whether the seats held suit what the buyer asked for", () => {
  it("says yes only when every seat suits the service", () => {
    expect(suitedAnswers(held(["captioned"], ["captioned"], ["captioned", "signed"]), ["captioned"])).toEqual([
      { service: "captioned", suited: true },
    ]);
    expect(suitedAnswers(held(["captioned"], ["captioned"], []), ["captioned"])).toEqual([
      { service: "captioned", suited: false },
    ]);
  });

  it("answers each service asked for once, and none the performance does not carry", () => {
    expect(
      suitedAnswers(held(["captioned", "signed"], ["signed"]), ["signed", "relaxed", "captioned", "signed"]),
    ).toEqual([
      { service: "signed", suited: true },
      { service: "captioned", suited: false },
    ]);
    expect(suitedAnswers(held(["captioned"], ["captioned"]), [])).toEqual([]);
  });

  it("says no for standing places alone: no seat suits anything", () => {
    expect(suitedAnswers(held(["relaxed"]), ["relaxed"])).toEqual([{ service: "relaxed", suited: false }]);
  });
});
