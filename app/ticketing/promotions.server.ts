import { sql } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { PromoCodeTable } from "~/db/schema";
import type { Restriction } from "./catalogue-file";
import type { Entitlements } from "./inventory.server";
import type { PromoPriceRule } from "./pricing";

// Promo codes (spec sections 4, 5 and 8). A code has a rule (a price rule, or unlocking presale or
// promotional seats), a scope (everything, a show, a venue or one performance), a validity window
// and an optional usage limit; a single-use code is spent atomically.

export type PromoCode = Omit<PromoCodeTable, "used_count"> & { used_count: number };

export type PromoRefusal = "empty" | "invalid" | "notForEvent" | "alreadyUsed";

export type PromoCheck = { ok: true; promo: PromoCode } | { ok: false; reason: PromoRefusal };

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

/** Whether input could be a code at all (a link carrying anything else is a broken link). */
export function isWellFormedCode(input: string): boolean {
  return CODE_SHAPE.test(normaliseCode(input));
}

/** A run of a show at a venue: where a buyer lands from a promo link, before choosing a date. */
export interface RunPromoContext {
  runId: string;
  titleSlug: string;
  venueSlug: string;
  currency: string;
}

function inWiderScope(promo: PromoCode, context: { titleSlug: string; venueSlug: string }): boolean {
  return (
    promo.scope_kind === "all" ||
    (promo.scope_kind === "show" && promo.scope_ref === context.titleSlug) ||
    (promo.scope_kind === "venue" && promo.scope_ref === context.venueSlug)
  );
}

export function createPromotions(store: Store, clock: Clock) {
  const { db } = store;

  async function evaluate(
    input: string,
    currency: string,
    inScope: (promo: PromoCode) => Promise<boolean>,
  ): Promise<PromoCheck> {
    const code = normaliseCode(input);
    if (!code) return { ok: false, reason: "empty" };
    if (!CODE_SHAPE.test(code)) return { ok: false, reason: "invalid" };
    const promo = await db.selectFrom("promo_codes").selectAll().where("code", "=", code).executeTakeFirst();
    const now = clock.now().toISOString();
    if (!promo || now < promo.valid_from || now >= promo.valid_until) return { ok: false, reason: "invalid" };
    // An amount off is in one currency; it means nothing to a basket in another.
    if (!(await inScope(promo)) || (promo.currency !== null && promo.currency !== currency))
      return { ok: false, reason: "notForEvent" };
    if (promo.usage_limit !== null && promo.used_count >= promo.usage_limit)
      return { ok: false, reason: "alreadyUsed" };
    return { ok: true, promo };
  }

  return {
    /** Whether a code can be used for this performance now, and if not, why not. */
    async check(input: string, context: PromoContext): Promise<PromoCheck> {
      return evaluate(input, context.currency, async (promo) =>
        promo.scope_kind === "performance" ? promo.scope_ref === context.performanceId : inWiderScope(promo, context),
      );
    },

    /**
     * Whether a code can be used for some performance of this run now. A code for one performance
     * is in scope when that performance belongs to the run; the tickets page checks it again
     * against the performance the buyer chooses.
     */
    async checkForRun(input: string, context: RunPromoContext): Promise<PromoCheck> {
      return evaluate(input, context.currency, async (promo) => {
        if (promo.scope_kind !== "performance") return inWiderScope(promo, context);
        if (!promo.scope_ref) return false;
        const performance = await db
          .selectFrom("performances")
          .select("id")
          .where("id", "=", promo.scope_ref)
          .where("run_id", "=", context.runId)
          .executeTakeFirst();
        return performance !== undefined;
      });
    },

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
