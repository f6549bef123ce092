import { formatInTimeZone } from "date-fns-tz";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { importCatalogue, performanceIdFor } from "~/ticketing/import-catalogue.server";
import { smallCatalogue, problemsOf } from "../support/catalogue";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

const clock = fixedClock("2026-11-23T10:00:00.000Z");

describe.each(DIALECTS)("catalogue import on %s", (dialect) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore(dialect);
  });
  afterAll(() => store.drop());

  it("refuses a file with a mistake, naming the field and the entry, and loads nothing", async () => {
    const file = smallCatalogue() as unknown as {
      venues: { seatMap: { sections: { rows: { seats: unknown }[] }[] } }[];
    };
    file.venues[0]!.seatMap.sections[0]!.rows[1]!.seats = "ten";
    const problems = await problemsOf(importCatalogue(store, file, clock));
    expect(problems).toEqual([
      'venues[0] "test-hall" › seatMap.sections[0].rows[1].seats: Expected number, received string',
    ]);
    expect(await store.db.selectFrom("venues").selectAll().execute()).toEqual([]);
  });

  it("refuses a run with both a presale and a scheduled on-sale", async () => {
    const file = smallCatalogue();
    (file.shows[0]!.runs[0]!.schedule as Record<string, unknown>).onSale = {
      at: "2026-12-01T10:00:00Z",
      activeBuyers: 100,
    };
    expect(await problemsOf(importCatalogue(store, file, clock))).toEqual([
      'shows[0] "test-show" › runs[0].schedule.onSale: a run has a presale or a scheduled on-sale, not both',
    ]);
  });

  it("refuses references to things that do not exist, all at once", async () => {
    const file = smallCatalogue();
    file.shows[0]!.runs[0]!.venue = "nowhere";
    (
      file.venues[0]!.seatMap.sections[0] as { rows: { exceptions: { seats: string }[] }[] }
    ).rows[0]!.exceptions[0]!.seats = "99";
    const problems = await problemsOf(importCatalogue(store, file, clock));
    expect(problems).toEqual([
      'venues[0] "test-hall" › seatMap.sections[0].rows[0].exceptions[0].seats: names a seat this row does not have',
      'shows[0] "test-show" › runs[0].venue: no venue "nowhere" in this file or the database',
    ]);
    expect(await store.db.selectFrom("titles").selectAll().execute()).toEqual([]);
  });

  it("loads a whole catalogue: seats, prices and a schedule in the venue's time zone", async () => {
    const summary = await importCatalogue(store, smallCatalogue(), clock);
    expect(summary).toEqual({
      venues: 1,
      shows: 1,
      seats: 20,
      performances: 8,
      promoCodes: 0,
      vouchers: 0,
      memberships: 0,
      pictures: 0,
    });

    const performances = await store.db.selectFrom("performances").selectAll().orderBy("starts_at").execute();
    expect(performances).toHaveLength(8);
    for (const performance of performances) {
      expect(performance.id).toMatch(/^[0-9A-F-]{36}$/);
      expect(performance.id).toBe(performanceIdFor("test-show", "test-hall", performance.starts_at));
      // 19 seats (one is withheld) and 5 standing places.
      expect(performance.capacity).toBe(24);
      expect(["19:30", "14:30", "15:00"]).toContain(
        formatInTimeZone(new Date(performance.starts_at), "Europe/London", "HH:mm"),
      );
    }
    expect(performances[0]!.starts_at).toBe("2026-11-24T19:30:00.000Z");
    // The last two days are newly released: presale now, general sale in 3 days.
    const presale = performances.filter((performance) => performance.presale_from !== null);
    expect(presale.length).toBeGreaterThan(0);
    expect(presale.every((performance) => performance.on_sale_from === "2026-11-26T10:00:00.000Z")).toBe(true);

    const options = await store.db
      .selectFrom("price_options")
      .select(["label", "face_value"])
      .orderBy("face_value", "desc")
      .execute();
    expect(options[0]).toEqual({ label: "Full Price", face_value: 6500 });
    const withheld = await store.db.selectFrom("seat_claims").selectAll().where("status", "=", "withheld").execute();
    expect(withheld).toHaveLength(8);
  });

  it("loads promo codes and vouchers, keeping only a hash of each redemption code", async () => {
    const summary = await importCatalogue(
      store,
      {
        promoCodes: [
          {
            code: "spring20",
            rule: { kind: "percentageOff", percent: 20 },
            scope: { kind: "venue", venue: "test-hall" },
            validFrom: "2026-01-01T00:00:00Z",
            validUntil: "2027-01-01T00:00:00Z",
          },
          {
            code: "ONCE",
            rule: { kind: "unlockPresale" },
            scope: { kind: "all" },
            validFrom: "2026-01-01T00:00:00Z",
            validUntil: "2027-01-01T00:00:00Z",
            usageLimit: 1,
          },
        ],
        vouchers: [
          {
            number: "GV-2026-0001",
            redemptionCode: "7Q4K9P",
            kind: "voucher",
            currency: "GBP",
            balance: 5000,
            expires: "2028-01-01T00:00:00Z",
          },
        ],
      },
      clock,
    );
    expect(summary).toMatchObject({ promoCodes: 2, vouchers: 1 });
    const codes = await store.db
      .selectFrom("promo_codes")
      .select(["code", "rule_key", "percent", "scope_kind", "usage_limit"])
      .orderBy("code")
      .execute();
    expect(codes).toEqual([
      { code: "ONCE", rule_key: "unlockPresale", percent: null, scope_kind: "all", usage_limit: 1 },
      { code: "SPRING20", rule_key: "percentageOff", percent: 20, scope_kind: "venue", usage_limit: null },
    ]);
    const voucher = await store.db.selectFrom("vouchers").selectAll().executeTakeFirstOrThrow();
    expect(voucher).toMatchObject({ number: "GV20260001", balance: 5000, currency: "GBP" });
    expect(voucher.code_hash).not.toContain("7Q4K9P");
    const ledger = await store.db.selectFrom("voucher_movements").select(["amount", "reason"]).execute();
    expect(ledger).toEqual([{ amount: 5000, reason: "issued" }]);

    const problems = await problemsOf(
      importCatalogue(
        store,
        {
          promoCodes: [
            {
              code: "SPRING20",
              rule: { kind: "percentageOff", percent: 5 },
              scope: { kind: "all" },
              validFrom: "2026-01-01T00:00:00Z",
              validUntil: "2025-01-01T00:00:00Z",
            },
          ],
        },
        clock,
      ),
    );
    expect(problems).toEqual([
      'promoCodes[0] › code: a promo code "SPRING20" already exists',
      "promoCodes[0] › validUntil: must be after validFrom",
    ]);
  });

  it("loads the paid membership's price in each currency, and a later file changes it", async () => {
    const plus = (price: number) => ({
      memberships: [
        {
          kind: "plus",
          name: "Plus membership",
          months: 12,
          prices: [
            { currency: "GBP", price },
            { currency: "USD", price: 6000 },
          ],
        },
      ],
    });
    expect((await importCatalogue(store, plus(4500), clock)).memberships).toBe(1);
    await importCatalogue(store, plus(5000), clock);
    const rows = await store.db.selectFrom("membership_products").selectAll().orderBy("currency").execute();
    expect(rows.map((row) => [row.currency, row.price, row.months])).toEqual([
      ["GBP", 5000, 12],
      ["USD", 6000, 12],
    ]);
    const twice = {
      memberships: [
        {
          ...plus(1).memberships[0],
          prices: [
            { currency: "GBP", price: 1 },
            { currency: "GBP", price: 2 },
          ],
        },
      ],
    };
    expect(await problemsOf(importCatalogue(store, twice, clock))).toEqual([
      "memberships[0] › prices: one price per currency",
    ]);
  });

  it("refuses to import the same slugs twice", async () => {
    const problems = await problemsOf(importCatalogue(store, smallCatalogue(), clock));
    expect(problems).toEqual([
      'venues[0] "test-hall" › slug: a venue with this slug already exists',
      'shows[0] "test-show" › slug: a show with this slug already exists',
    ]);
  });
});
