import type { CatalogueInput } from "~/ticketing/catalogue-file";
import { CatalogueError } from "~/ticketing/import-catalogue.server";

// A small catalogue for the store suites: one venue with two rows of seats (with an aisle, a
// wheelchair space and its companion, an access-zone seat, an Amex seat, a promotional seat and
// a withheld one) and a standing area; one show playing each evening for a week.
export function smallCatalogue() {
  const catalogue = {
    venues: [
      {
        slug: "test-hall",
        name: "Test Hall",
        country: "GB",
        currency: "GBP",
        timeZone: "Europe/London",
        wordingSet: "common",
        supportPhone: "020 7946 0999",
        address: { lines: ["1 Test Street"], city: "London", postcode: "SW1A 1AA" },
        transactionFee: 250,
        protectionFee: 150,
        seatMap: {
          name: "Main",
          sections: [
            {
              kind: "seated",
              name: "Stalls",
              curve: 0.2,
              rows: [
                {
                  name: "A",
                  seats: 10,
                  firstNumber: 1,
                  aislesAfter: [5],
                  quality: 90,
                  offset: 0,
                  exceptions: [
                    { seats: "1", type: "wheelchair", restrictions: ["wheelchair"], withheld: false },
                    { seats: "2", type: "companion", restrictions: [], withheld: false },
                    { seats: "10", type: "access", restrictions: ["accessZone"], withheld: false },
                  ],
                },
                {
                  name: "B",
                  seats: 10,
                  firstNumber: 1,
                  aislesAfter: [5],
                  quality: 80,
                  offset: 0,
                  exceptions: [
                    { seats: "1", type: "standard", restrictions: ["amex"], withheld: false },
                    { seats: "2", type: "promotional", restrictions: ["promo"], withheld: false },
                    { seats: "10", restrictions: [], withheld: true },
                  ],
                },
              ],
            },
            { kind: "standing", name: "Standing", capacity: 5 },
          ],
        },
        extras: [{ name: "Programme", description: "The souvenir programme", price: 500 }],
        delivery: [
          { kind: "eTicket", fee: 0, countries: ["GB"] },
          { kind: "post", fee: 150, countries: ["GB"] },
        ],
      },
    ],
    shows: [
      {
        slug: "test-show",
        name: "Test Show",
        description: "A show for tests.",
        ageGuidance: "8 and up",
        runningTimeMinutes: 120,
        runs: [
          {
            venue: "test-hall",
            pricePlans: [
              {
                name: "standard",
                bands: [
                  {
                    code: "A",
                    name: "Band A",
                    areas: [{ section: "Stalls", rows: ["A"] }],
                    options: [
                      { kind: "full", faceValue: 6500, bookingFee: 300 },
                      { kind: "concession", faceValue: 5000, bookingFee: 300 },
                      { kind: "member", faceValue: 6000, bookingFee: 300 },
                    ],
                  },
                  {
                    code: "B",
                    name: "Band B",
                    areas: [{ section: "Stalls", rows: ["B"] }],
                    options: [{ kind: "full", faceValue: 4500, bookingFee: 250 }],
                  },
                  {
                    code: "S",
                    name: "Standing",
                    areas: [{ section: "Standing" }],
                    options: [{ kind: "full", faceValue: 2500, bookingFee: 200 }],
                  },
                ],
              },
            ],
            schedule: {
              firstDay: 1,
              days: 7,
              times: {
                mon: ["19:30"],
                tue: ["19:30"],
                wed: ["19:30"],
                thu: ["19:30"],
                fri: ["19:30"],
                sat: ["14:30", "19:30"],
                sun: ["15:00"],
              },
              pricePlanByDay: {},
              seatLimit: 4,
              presale: { lastDays: 2, audience: ["plus-member", "promo"], generalSaleInDays: 3 },
            },
          },
        ],
      },
    ],
  } satisfies CatalogueInput;
  return structuredClone(catalogue);
}

/** The small catalogue with the Plus membership on sale, at £45 and $60 a year. */
export function smallCatalogueWithMembership() {
  return {
    ...smallCatalogue(),
    memberships: [
      {
        kind: "plus" as const,
        name: "Plus membership",
        months: 12,
        prices: [
          { currency: "GBP" as const, price: 4500 },
          { currency: "USD" as const, price: 6000 },
        ],
      },
    ],
  } satisfies CatalogueInput;
}

/** The problems an import refused a file for; fails when the import was not refused. */
export async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CatalogueError) return error.problems;
    throw error;
  }
  throw new Error("expected the import to be refused");
}
