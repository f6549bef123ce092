import { sql } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { PromoCodeTable } from "~/db/schema";
import type { Restriction } from "./catalogue-file";
import type { Entitlements } from "./inventory.server";
import type { PromoRuleView } from "~/views/promo";
import { specialPriceRange, type PromoPriceRule } from "./pricing";

// Promo codes (spec sections 4, 5 and 8). A code has a rule (a price rule, or unlocking presale or
// promotional seats), a scope (everything, a show, a venue or one performance), a validity window
// and an optional usage limit; a single-use code is spent atomically.

export type PromoCode = Omit<PromoCodeTable, "used_count"> & { used_count: number };

export type PromoRefusal = "empty" | "invalid" | "notForEvent" | "alreadyUsed" | "invalidLink";

/** Why a code a link brought is refused: never "empty", which a link says as "invalidLink". */
export type LinkRefusal = Exclude<PromoRefusal, "empty">;

export type PromoCheck<Refusal extends PromoRefusal = PromoRefusal> =
  | { ok: true; promo: PromoCode }
  | { ok: false; reason: Refusal };

/** How a code came: typed into a form by the buyer, or in a link they followed (`?pc=`). */
export type PromoSource = "form" | "link";

export interface PromoContext {
  performanceId: string;
  titleSlug: string;
  venueSlug: string;
  currency: string;
}

/** Buyers type codes in any case and with stray spaces; codes are stored in upper case. */
export function normaliseCode(input: string): string {
  return input.trim().replace(/\s+/g, "").toUpperCase();
}

const CODE_SHAPE = /^[A-Z0-9-]{3,32}$/;

/** A run of a show at a venue: where a buyer lands from a promo link, before choosing a date. */
export interface RunPromoContext {
  runId: string;
  titleSlug: string;
  venueSlug: string;
  currency: string;
}

/** Where a code is to be used: one performance, or any performance of a run. */
export type PromoTarget = PromoContext | RunPromoContext;

function inWiderScope(promo: PromoCode, context: { titleSlug: string; venueSlug: string }): boolean {
  return (
    promo.scope_kind === "all" ||
    (promo.scope_kind === "show" && promo.scope_ref === context.titleSlug) ||
    (promo.scope_kind === "venue" && promo.scope_ref === context.venueSlug)
  );
}

export function createPromotions(store: Store, clock: Clock) {
  const { db } = store;

  async function inScope(promo: PromoCode, target: PromoTarget): Promise<boolean> {
    if (promo.scope_kind !== "performance") return inWiderScope(promo, target);
    if ("performanceId" in target) return promo.scope_ref === target.performanceId;
    // A code for one performance is good for its run; the tickets page checks it again against
    // the performance the buyer chooses.
    if (!promo.scope_ref) return false;
    const performance = await db
      .selectFrom("performances")
      .select("id")
      .where("id", "=", promo.scope_ref)
      .where("run_id", "=", target.runId)
      .executeTakeFirst();
    return performance !== undefined;
  }

  /**
   * Whether a code is good here now (a performance, or some performance of a run), and if not, why
   * not; when it is, the code says what it does (its rule: priceRuleOf, promoRuleView and
   * withPromoEntitlements read it). Every page that takes a code asks this, whether the buyer typed
   * it or a link brought it: a link carrying something that could not be a code is a broken link,
   * where a typed one is a mistyped code.
   */
  function check(input: string, target: PromoTarget, source: "link"): Promise<PromoCheck<LinkRefusal>>;
  function check(input: string, target: PromoTarget, source?: PromoSource): Promise<PromoCheck>;
  async function check(input: string, target: PromoTarget, source: PromoSource = "form"): Promise<PromoCheck> {
    const code = normaliseCode(input);
    if (!CODE_SHAPE.test(code))
      return { ok: false, reason: source === "link" ? "invalidLink" : code ? "invalid" : "empty" };
    const promo = await db.selectFrom("promo_codes").selectAll().where("code", "=", code).executeTakeFirst();
    const now = clock.now().toISOString();
    if (!promo || now < promo.valid_from || now >= promo.valid_until) return { ok: false, reason: "invalid" };
    // An amount off is in one currency; it means nothing to a basket in another.
    if (!(await inScope(promo, target)) || (promo.currency !== null && promo.currency !== target.currency))
      return { ok: false, reason: "notForEvent" };
    if (promo.usage_limit !== null && promo.used_count >= promo.usage_limit)
      return { ok: false, reason: "alreadyUsed" };
    return { ok: true, promo };
  }

  return {
    check,

    /**
     * Spends one use of a code, atomically: the update only succeeds while uses are left, so
     * however many orders race for a single-use code, one gets it.
     */
    async redeem(promoId: string): Promise<boolean> {
      const result = await db
        .updateTable("promo_codes")
        .set({ used_count: sql`used_count + 1` })
        .where("id", "=", promoId)
        .where((eb) => eb.or([eb("usage_limit", "is", null), eb("used_count", "<", eb.ref("usage_limit"))]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Gives a use back when the order that spent it failed or was cancelled. */
    async release(promoId: string): Promise<void> {
      await db
        .updateTable("promo_codes")
        .set({ used_count: sql`used_count - 1` })
        .where("id", "=", promoId)
        .where("used_count", ">", 0)
        .execute();
    },
  };
}

/** The price rule a code applies, given the ids of the basket's price options by kind. */
export function priceRuleOf(promo: PromoCode, optionIdsOfKind: (kind: string) => string[]): PromoPriceRule | null {
  switch (promo.rule_key) {
    case "percentageOff":
      return { kind: "percentageOff", percent: promo.percent ?? 0 };
    case "amountOff":
      return { kind: "amountOff", amount: promo.amount ?? 0 };
    case "specialPrice":
      return {
        kind: "specialPrice",
        priceOptionIds: optionIdsOfKind(promo.price_option_kind ?? "full"),
        faceValue: promo.special_face_value ?? 0,
      };
    default:
      return null;
  }
}

/**
 * What a code does, as a page states it before the buyer has a basket: the rule priceRuleOf gives
 * it over the run's price options, so the page promises what the basket will charge. A special
 * price is stated all-in, booking fee included; an amount off in the code's currency.
 */
export function promoRuleView(
  promo: PromoCode,
  options: readonly { id: string; kind: string; faceValue: number; bookingFee: number }[],
  currency: string,
): PromoRuleView {
  const rule = priceRuleOf(promo, (kind) =>
    options.filter((option) => option.kind === kind).map((option) => option.id),
  );
  // priceRuleOf prices every rule but those that unlock presale or promotional seats.
  if (!rule) return { kind: promo.rule_key as "unlockPresale" | "unlockPromoSeats" };
  switch (rule.kind) {
    case "percentageOff":
      return rule;
    case "amountOff":
      return { ...rule, currency: promo.currency ?? currency };
    case "specialPrice":
      return { kind: "specialPrice", price: specialPriceRange(options, rule), currency };
  }
}

/** What a code opens up: presale for "promo" audiences, or promotional seats and prices. */
export function withPromoEntitlements(base: Entitlements, promo: PromoCode | null): Entitlements {
  if (!promo) return base;
  const restrictions = new Set<Restriction>(base.restrictions);
  const presale = new Set(base.presale);
  if (promo.rule_key === "unlockPresale") presale.add("promo");
  if (promo.rule_key === "unlockPromoSeats") restrictions.add("promo");
  return { ...base, restrictions, presale };
}

export type Promotions = ReturnType<typeof createPromotions>;
