import { useTranslation } from "react-i18next";
import { formatMoney } from "~/i18n/format";
import type { PromoRuleView } from "~/views/promo";
import { RemovePromoLink } from "./promo-removal";

/** What happened to the code a link brought, or the code the buyer already has. */
export type PromoOutcome =
  | { outcome: "applied"; code: string; rule: PromoRuleView; fromLink: boolean }
  | { outcome: "invalidLink" | "invalid" | "notForEvent" | "alreadyUsed" };

const ERROR_KEYS = {
  invalidLink: "promo.invalidLink",
  invalid: "promo.deeplinkInvalid",
  notForEvent: "promo.notForEvent",
  alreadyUsed: "promo.alreadyUsed",
} as const;

export function usePromoRuleWords() {
  const { t, i18n } = useTranslation();
  return (rule: PromoRuleView) => {
    switch (rule.kind) {
      case "percentageOff":
        return t("promoRules.percentageOff", { percent: rule.percent });
      case "amountOff":
        return t("promoRules.amountOff", { amount: formatMoney(rule.amount, rule.currency, i18n.language) });
      case "specialPrice": {
        if (!rule.price) return t("promoRules.specialPriceElsewhere");
        const price = formatMoney(rule.price.min, rule.currency, i18n.language);
        return t(rule.price.min === rule.price.max ? "promoRules.specialPrice" : "promoRules.specialPriceFrom", {
          price,
        });
      }
      default:
        return t(`promoRules.${rule.kind}`);
    }
  };
}

/**
 * The outcome of a promo link as a status message (announced, never stealing focus: the page
 * stays usable whatever the outcome). A code the buyer already had is a quiet note instead.
 */
export function CalendarPromo({ promo }: { promo: PromoOutcome }) {
  const { t } = useTranslation();
  const ruleWords = usePromoRuleWords();
  if (promo.outcome === "applied") {
    const detail = t("calendar.promo.detail", { code: promo.code, effect: ruleWords(promo.rule) });
    return promo.fromLink ? (
      <div className="calendar-promo calendar-promo--applied" role="status">
        <p className="calendar-promo__title">{t("promo.applied")}</p>
        <p className="calendar-promo__detail">
          {detail} <RemovePromoLink />
        </p>
      </div>
    ) : (
      <p className="calendar-promo calendar-promo--held">
        {t("calendar.promo.held", { detail })} <RemovePromoLink />
      </p>
    );
  }
  return (
    <div className="calendar-promo calendar-promo--error" role="status">
      <p className="calendar-promo__title">{t(ERROR_KEYS[promo.outcome])}</p>
    </div>
  );
}
