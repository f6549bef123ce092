import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLocaleFiles } from "~/i18n/i18n.server";
import { LANGUAGES } from "~/i18n/languages";
import { refusalMessage } from "~/use-cases/reservations.server";
import type { RefusalReason } from "~/ticketing/errors";
import type { PromoRefusal } from "~/ticketing/promotions.server";
import type { VoucherLookup } from "~/ticketing/vouchers.server";
import { ROOT } from "../support/app";

// Every refusal the engine can give has words, in both languages; the spec's own words are used
// where it gives them.
const REFUSALS: Record<RefusalReason, true> = {
  unavailable: true,
  "no-block": true,
  "seat-limit": true,
  "not-on-sale": true,
  "sales-closed": true,
  presale: true,
  restricted: true,
  "companion-limit": true,
  "not-found": true,
  expired: true,
  "extension-limit": true,
  busy: true,
};
const PROMO: Record<PromoRefusal, true> = {
  empty: true,
  invalid: true,
  notForEvent: true,
  alreadyUsed: true,
  invalidLink: true,
};
const VOUCHER: Record<Extract<VoucherLookup, { ok: false }>["reason"], true> = {
  invalid: true,
  expired: true,
  empty: true,
  wrongCurrency: true,
  tooManyAttempts: true,
};

const files = readLocaleFiles(join(ROOT, "locales"));

describe.each(LANGUAGES)("engine wording in %s", (language) => {
  const common = files.resources[language]!.common as Record<string, Record<string, string>>;

  it("has a message for every refusal", () => {
    for (const reason of Object.keys(REFUSALS) as RefusalReason[]) {
      const [group, key] = refusalMessage({ ok: false, reason }).key.split(".") as [string, string];
      expect(common[group]?.[key], reason).toBeTruthy();
    }
    for (const reason of Object.keys(PROMO)) expect(common.promo![reason], reason).toBeTruthy();
    for (const reason of Object.keys(VOUCHER)) expect(common.vouchers![reason], reason).toBeTruthy();
  });

  it("uses the spec's words", () => {
    expect(common.engine!["seat-limit"]).toBe(
      "Sorry, you can't purchase more than {{seatSelectionLimit}} seats online.",
    );
    expect(common.promo).toMatchObject({
      empty: "Please enter a valid promo code",
      invalid: "The code is invalid, please try again",
      notForEvent: "Promo code is not valid for this event",
      deeplinkInvalid: "Sorry, the promo code you used is invalid or has expired",
      invalidLink: "Invalid link",
    });
    expect(refusalMessage({ ok: false, reason: "no-block" })).toEqual({ key: "reserve.noOptions" });
    expect(common.reserve).toMatchObject({
      noOptions: "No options available, try again",
      changeSelection: "Change selection",
    });
    expect(common.vouchers).toMatchObject({
      numberRequired: "Please enter your voucher number",
      codeRequired: "Please enter your redemption code",
      giftCardNumberRequired: "Please enter your gift card number",
      giftCardCodeRequired: "Please enter your gift card access number",
    });
  });
});
