import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { createPromotions, type PromoContext, type RunPromoContext } from "~/ticketing/promotions.server";
import { applyPromoCode, promoFromLink, type Buyer } from "~/web/buyer.server";
import { testContext } from "../support/app";
import { smallCatalogue } from "../support/catalogue";
import { insertPromo } from "../support/money";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// One question, "is this code good here, and what does it do", asked by the tickets page's form,
// the payment page's form and the calendar's promo link alike: where it may be used is a
// performance or a whole run, and how it came only changes how a broken one is named.

const NOW = "2026-11-23T12:00:00.000Z";
const SHOW = { titleSlug: "test-show", venueSlug: "test-hall", currency: "GBP" };

async function seed(store: TestStore | Awaited<ReturnType<typeof testContext>>["store"], clock = fixedClock(NOW)) {
  await importCatalogue(store, smallCatalogue(), clock);
  const performances = await store.db
    .selectFrom("performances")
    .select(["id", "run_id"])
    .orderBy("starts_at")
    .execute();
  const [first, second] = performances;
  await insertPromo(store, { code: "SPRING10" });
  await insertPromo(store, { code: "ONCEONLY", usage_limit: 1, used_count: 1 });
  await insertPromo(store, { code: "FIRSTNIGHT", scope_kind: "performance", scope_ref: first!.id });
  await insertPromo(store, { code: "ELSEWHERE", scope_kind: "performance", scope_ref: "another-run-s-night" });
  await insertPromo(store, { code: "OTHERSHOW", scope_kind: "show", scope_ref: "another-show" });
  const run: RunPromoContext = { runId: first!.run_id, ...SHOW };
  const night = (performance: typeof first): PromoContext => ({ performanceId: performance!.id, ...SHOW });
  return { run, first: night(first), second: night(second) };
}

describe.each(DIALECTS)("checking a promo code on %s", (dialect) => {
  let store: TestStore;
  let where: Awaited<ReturnType<typeof seed>>;
  const clock = fixedClock(NOW);

  beforeAll(async () => {
    store = await createTestStore(dialect);
    where = await seed(store, clock);
  }, 60_000);
  afterAll(() => store?.drop());

  it("a typed code that is empty or could not be a code is empty or invalid; a link's is a broken link", async () => {
    const promotions = createPromotions(store, clock);
    expect(await promotions.check(" ", where.first)).toEqual({ ok: false, reason: "empty" });
    expect(await promotions.check("not a code!", where.first)).toEqual({ ok: false, reason: "invalid" });
    expect(await promotions.check("", where.run, "link")).toEqual({ ok: false, reason: "invalidLink" });
    expect(await promotions.check("not a code!", where.run, "link")).toEqual({ ok: false, reason: "invalidLink" });
    // A code-shaped link to no code is an invalid code, as it is typed.
    expect(await promotions.check("NOSUCHCODE", where.run, "link")).toEqual({ ok: false, reason: "invalid" });
    expect(await promotions.check("OTHERSHOW", where.run, "link")).toEqual({ ok: false, reason: "notForEvent" });
    expect(await promotions.check("ONCEONLY", where.run, "link")).toEqual({ ok: false, reason: "alreadyUsed" });
  });

  it("a code for one performance is good for that performance, and for its run, and nowhere else", async () => {
    const promotions = createPromotions(store, clock);
    expect(await promotions.check("firstnight", where.first)).toMatchObject({
      ok: true,
      promo: { code: "FIRSTNIGHT" },
    });
    expect(await promotions.check("FIRSTNIGHT", where.second)).toEqual({ ok: false, reason: "notForEvent" });
    expect(await promotions.check("FIRSTNIGHT", where.run, "link")).toMatchObject({ ok: true });
    expect(await promotions.check("ELSEWHERE", where.run, "link")).toEqual({ ok: false, reason: "notForEvent" });
    expect(await promotions.check("ELSEWHERE", where.first)).toEqual({ ok: false, reason: "notForEvent" });
  });

  it("a code's currency and validity count wherever it is checked", async () => {
    const promotions = createPromotions(store, clock);
    expect(await promotions.check("SPRING10", { ...where.run, currency: "USD" }, "link")).toMatchObject({ ok: true });
    clock.set("2027-01-01T00:00:00.000Z");
    try {
      expect(await promotions.check("SPRING10", where.run, "link")).toEqual({ ok: false, reason: "invalid" });
      expect(await promotions.check("SPRING10", where.first)).toEqual({ ok: false, reason: "invalid" });
    } finally {
      clock.set(NOW);
    }
  });
});

describe("applying a promo code, from a form or a link", () => {
  let context: Awaited<ReturnType<typeof testContext>>;
  let where: Awaited<ReturnType<typeof seed>>;
  const clock = fixedClock(NOW);
  const cookieOf = (header: string) => context.sessions.promoCookie.parse(header.split(";")[0]!);
  const buyer = (promoCode: string | null): Buyer => ({ basketId: null, promoCode, customerId: null });

  beforeAll(async () => {
    context = await testContext({}, clock);
    where = await seed(context.store, clock);
  }, 60_000);

  it("a good code from the form: the cookie, on the basket, promoSuccess for the performance", async () => {
    const basketId = randomUUID();
    await context.store.db.insertInto("baskets").values({ id: basketId, created_at: NOW, updated_at: NOW }).execute();
    let saved = false;
    const outcome = await applyPromoCode(context, {
      source: "form",
      code: " spring 10 ",
      target: where.first,
      basketId,
      beforeSaving: async () => {
        saved = true;
      },
    });
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(saved).toBe(true);
    expect(await cookieOf(outcome.cookie)).toBe("SPRING10");
    expect(outcome.events).toEqual([{ event: "promoSuccess", performanceId: where.first.performanceId }]);
    const basket = await context.store.db
      .selectFrom("baskets")
      .select("promo_code_id")
      .where("id", "=", basketId)
      .executeTakeFirstOrThrow();
    expect(basket.promo_code_id).toBe(outcome.promo.id);
  });

  it("a refused code from the form: why, and promoManualError or promoSingleUseError for the performance", async () => {
    const performanceId = where.first.performanceId;
    expect(await applyPromoCode(context, { source: "form", code: "", target: where.first, basketId: null })).toEqual({
      ok: false,
      reason: "empty",
      events: [{ event: "promoManualError", performanceId, reason: "empty" }],
    });
    expect(
      await applyPromoCode(context, { source: "form", code: "ONCEONLY", target: where.first, basketId: null }),
    ).toEqual({
      ok: false,
      reason: "alreadyUsed",
      events: [{ event: "promoSingleUseError", performanceId, reason: "alreadyUsed" }],
    });
  });

  it("a link: promoSuccess with the rule and its source, or its own errors, never the code", async () => {
    const applied = await applyPromoCode(context, { source: "link", code: "FirstNight", target: where.run });
    if (!applied.ok) throw new Error(applied.reason);
    expect(await cookieOf(applied.cookie)).toBe("FIRSTNIGHT");
    expect(applied.events).toEqual([{ event: "promoSuccess", rule: "percentageOff", source: "link" }]);
    expect(await applyPromoCode(context, { source: "link", code: "", target: where.run })).toEqual({
      ok: false,
      reason: "invalidLink",
      events: [{ event: "promoDeeplinkError", reason: "invalidLink" }],
    });
    expect(await applyPromoCode(context, { source: "link", code: "ONCEONLY", target: where.run })).toEqual({
      ok: false,
      reason: "alreadyUsed",
      events: [{ event: "promoSingleUseError", source: "link" }],
    });
  });

  it("where a link lands: its code when good, else the code the buyer holds, which a bad link leaves", async () => {
    const good = await promoFromLink(context, buyer("SPRING10"), where.run, "firstnight");
    expect(good).toMatchObject({ link: { ok: true }, promo: { code: "FIRSTNIGHT" } });
    const bad = await promoFromLink(context, buyer("SPRING10"), where.run, "NOSUCHCODE");
    expect(bad).toMatchObject({ link: { ok: false, reason: "invalid" }, promo: { code: "SPRING10" } });
    expect(await promoFromLink(context, buyer("SPRING10"), where.run, null)).toMatchObject({
      link: null,
      promo: { code: "SPRING10" },
    });
    // A held code that is no good here is not in play.
    expect(await promoFromLink(context, buyer("OTHERSHOW"), where.run, null)).toEqual({ link: null, promo: null });
  });
});
