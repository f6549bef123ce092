import cardValidator from "card-validator";
import { z } from "zod";
import { choiceField } from "./fields";
import { cardTypeNames, type CardBrand } from "./card-types";
import { message } from "./messages";

export { cardTypeNames };

// The Pay form's card fields and the choice of payment method. Nothing here keeps or logs a card
// number: the parsed card goes to the gateway and nowhere else.

const BRANDS: Readonly<Record<string, CardBrand>> = {
  visa: "visa",
  mastercard: "mastercard",
  "american-express": "amex",
};

export interface ParsedCard {
  /** Digits only. */
  number: string;
  brand: CardBrand;
  expiryMonth: number;
  /** Four digits. */
  expiryYear: number;
  cvv: string;
  holderName: string;
}

export function paymentMethodSchema<Method extends string>(methods: readonly Method[]) {
  return z.object({ method: choiceField(methods, "validation.paymentMethod") });
}

type Checked<T> = { value: T } | { error: string };

/**
 * The card number. Two messages, two kinds of mistake:
 * - "Please enter a valid credit card number": nothing, or something that is not a card number at
 *   all (characters other than digits, spaces and hyphens; fewer than 12 or more than 19 digits).
 * - "Please enter a valid {{cardTypes}} card number", naming the brands this order takes: a card
 *   number's shape that fails the check digit or the brand's length, a number of no brand we know,
 *   or a real card of a brand this order does not take (Discover; Visa when only American Express
 *   will do, for sponsored seats).
 */
function checkNumber(raw: string, accepted: readonly CardBrand[]): Checked<{ digits: string; brand: CardBrand }> {
  const digits = raw.replace(/[\s-]/g, "");
  if (!/^[\d\s-]*$/.test(raw) || digits.length < 12 || digits.length > 19) return { error: "validation.cardNumber" };
  const verified = cardValidator.number(digits);
  const brand = verified.card ? BRANDS[verified.card.type] : undefined;
  if (!verified.isValid || !brand || !accepted.includes(brand)) {
    return { error: message("validation.cardNumberBrands", { cardTypes: cardTypeNames(accepted) }) };
  }
  return { value: { digits, brand } };
}

/** At least two words of letters (and the hyphens, apostrophes and full stops names have). */
function checkOwner(raw: string): Checked<string> {
  const name = raw.replace(/\s+/g, " ");
  const words = name.split(" ").filter((word) => /\p{L}/u.test(word));
  if (name.length > 100 || !/^[\p{L}\p{M} .'’-]+$/u.test(name) || words.length < 2) {
    return { error: "validation.cardOwner" };
  }
  return { value: name };
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * The expiry date as one field: MM/YY as the card shows it, and M/YY, MM/YYYY, "MM YY", MM-YY,
 * MMYY as people also type it. The month is read first, so a wrong month is what the buyer is
 * told even when the year is wrong too. A year outside 2000–2099 is not a year a card shows.
 * A card is good to the end of its month; a day's grace keeps a card that is still in date where
 * the buyer is (a US evening is already tomorrow in UTC) from being refused: the bank decides.
 * A date gone by gets the spec's two messages (section 5), not wording of our own: a year before
 * this one is the year's fault, a month gone by this year the month's.
 */
function checkExpiry(raw: string, now: Date): Checked<{ month: number; year: number }> {
  const compact = /^(\d{2})(\d{2}|\d{4})$/.exec(raw);
  const parts = compact ? [compact[1]!, compact[2]!] : raw.split(/\s*[/.-]\s*|\s+/);
  const [monthText = "", yearText = ""] = parts;
  const month = Number(monthText);
  if (!/^\d{1,2}$/.test(monthText) || month < 1 || month > 12) return { error: "validation.expiryMonth" };
  if (parts.length !== 2 || !/^(\d{2}|\d{4})$/.test(yearText)) return { error: "validation.expiryYear" };
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (year < 2000 || year > 2099) return { error: "validation.expiryYear" };
  // Date.UTC's month is 0-based: `month` here is the first day after the card's last.
  if (Date.UTC(year, month, 1) + DAY <= now.getTime()) {
    return { error: year < now.getUTCFullYear() ? "validation.expiryYear" : "validation.expiryMonth" };
  }
  return { value: { month, year } };
}

/**
 * Three digits, or four for American Express (on the front). The length follows the brand the
 * number shows even when the number itself is wrong; with no brand to go by, 3 or 4 will do.
 */
function checkCvv(raw: string, cardNumber: string): Checked<string> {
  const size = cardValidator.number(cardNumber.replace(/[\s-]/g, "")).card?.code.size;
  const ok = size ? new RegExp(`^\\d{${size}}$`).test(raw) : /^\d{3,4}$/.test(raw);
  return ok ? { value: raw } : { error: "validation.cvv" };
}

/**
 * The card fields' raw shape, for a form that holds them beside others (the Pay form can
 * `.extend(cardFields)` so its fields are typed) and checks them with cardSchema.
 */
export const cardFields = {
  cardNumber: z.string().optional(),
  cardOwner: z.string().optional(),
  expiry: z.string().optional(),
  cvv: z.string().optional(),
};

/**
 * The card fields (cardNumber, cardOwner, expiry, cvv), parsed into the card the gateway takes.
 * Takes raw text as well as Conform's coerced values (the Pay form passes them through untouched).
 */
export function cardSchema(options: { acceptedBrands: readonly CardBrand[]; now: Date }) {
  return z.object(cardFields).transform((value, ctx): ParsedCard => {
    const text = (raw: string | undefined) => (raw ?? "").trim();
    const number = checkNumber(text(value.cardNumber), options.acceptedBrands);
    const owner = checkOwner(text(value.cardOwner));
    const expiry = checkExpiry(text(value.expiry), options.now);
    const cvv = checkCvv(text(value.cvv), text(value.cardNumber));
    const checks = { cardNumber: number, cardOwner: owner, expiry, cvv };
    for (const [path, check] of Object.entries(checks)) {
      if ("error" in check) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message: check.error });
    }
    if ("error" in number || "error" in owner || "error" in expiry || "error" in cvv) return z.NEVER;
    return {
      number: number.value.digits,
      brand: number.value.brand,
      expiryMonth: expiry.value.month,
      expiryYear: expiry.value.year,
      cvv: cvv.value,
      holderName: owner.value,
    };
  });
}
