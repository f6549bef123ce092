import { parsePhoneNumberFromString } from "libphonenumber-js";
import { isValid as isUkPostcode, toNormalised as normaliseUkPostcode } from "postcode";
import { z } from "zod";

// Field schemas the checkout's forms share. Every one takes the form's raw text (a string, or
// undefined where Conform has already turned an empty box into undefined), trims it, and either
// gives the normalised value or adds exactly one issue whose message is a locale key. None of
// them fails on type: a field that did would abort the whole object in zod, and the buyer would
// see the rest of their mistakes only on the next submit.

export type Country = "GB" | "US";

export type FieldCheck<T> = { ok: true; value: T } | { ok: false; message: string };

export const pass = <T>(value: T): FieldCheck<T> => ({ ok: true, value });
export const fail = (message: string): FieldCheck<never> => ({ ok: false, message });

/** A text field checked by `check`, which sees the trimmed text ("" when nothing was typed). */
export function textField<T>(check: (text: string) => FieldCheck<T>) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): T => {
      const result = check((raw ?? "").trim());
      if (result.ok) return result.value;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: result.message });
      return z.NEVER;
    });
}

/** Required free text: the trimmed text, with runs of spaces made one. */
export function requiredText(message: string, maxLength = 200) {
  return textField((text) => (text && text.length <= maxLength ? pass(text.replace(/\s+/g, " ")) : fail(message)));
}

/** Optional free text: "" when left empty; `message` only when it runs past `maxLength`. */
export function optionalText(message: string, maxLength = 200) {
  return textField((text) => (text.length <= maxLength ? pass(text.replace(/\s+/g, " ")) : fail(message)));
}

/** One of the values the page offered (radios, a select); anything else is as good as no answer. */
export function choiceField<T extends string>(values: readonly T[], message: string) {
  return textField((text) => ((values as readonly string[]).includes(text) ? pass(text as T) : fail(message)));
}

// Postcodes. The rule for a wrong one: what is plainly another country's postcode (only digits,
// like a US ZIP code or a French code postal) is told "Valid UK postcodes only"; anything else that
// is not a UK postcode is malformed: "Please enter a valid postcode".
//
// The empty message: "Please enter a postcode" is the UK set's wording, for a postcode that need
// not be the buyer's own. The contact details' delivery address uses "Please enter your postcode",
// beside "Please enter your address" and "Please enter your city" (see contacts.ts).
const DIGITS_ONLY = /^[\d\s-]+$/;

function ukPostcodeField(emptyMessage: string) {
  return textField((text) => {
    if (!text) return fail(emptyMessage);
    if (isUkPostcode(text)) return pass(normaliseUkPostcode(text)!);
    return fail(DIGITS_ONLY.test(text) ? "validation.postcodeUkOnly" : "validation.postcodeInvalid");
  });
}

/** A UK postcode, any case, with or without the space; gives "SW1A 1AA". */
export const ukPostcode = ukPostcodeField("validation.postcodeRequired");
/** The same, for the buyer's own address: empty is "Please enter your postcode". */
export const ownUkPostcode = ukPostcodeField("validation.postcodeYours");

// ZIP codes: five digits or ZIP+4 (the hyphen optional); gives "12345" or "12345-6789". A UK
// postcode is told "Valid US ZIP codes only"; anything else, "Please enter a valid ZIP code".
const ZIP = /^(\d{5})(?:[\s-]?(\d{4}))?$/;

export const usZip = textField((text) => {
  if (!text) return fail("validation.zipRequired");
  const match = ZIP.exec(text);
  if (match) return pass(match[2] ? `${match[1]}-${match[2]}` : match[1]!);
  return fail(isUkPostcode(text) ? "validation.zipUsOnly" : "validation.zipInvalid");
});

/**
 * A phone number valid for the seller's country (the venue's, or the deployment's where no venue
 * sells) as dialled there, or any valid number in international form (+33…, or 00…/011… as dialled
 * from there). Gives E.164: "+442079460000". The field's hint says which ("A US number, or an
 * international one starting with +"); the message stays the spec's "Please enter a valid phone
 * number". The metadata is libphonenumber-js's default ("min"), in the checks fetched on demand.
 */
export function phone(country: Country) {
  return textField((text) => {
    // Longer than any real number, however punctuated: not worth handing to the parser.
    if (!text || text.length > 40) return fail("validation.phone");
    const parsed = parsePhoneNumberFromString(text, country);
    return parsed?.isValid() ? pass(parsed.number) : fail("validation.phone");
  });
}

const EMAIL = z.string().email();

/** An email address, trimmed (the buyer's own capitals kept: the local part is theirs). */
export const email = textField((text) =>
  text.length <= 254 && EMAIL.safeParse(text).success ? pass(text) : fail("validation.email"),
);

export const CITY_MAX_LENGTH = 40;
// US city names are letters, spaces, hyphens, apostrophes and periods ("St. Mary's", "Winston-Salem");
// at least one letter, so "." is not a city.
const US_CITY = /^[\p{L}\s.'’-]+$/u;

export function city(country: Country) {
  return textField((raw) => {
    const text = raw.replace(/\s+/g, " ");
    if (!text) return fail("validation.city");
    if (text.length > CITY_MAX_LENGTH) return fail("validation.cityTooLong");
    if (country === "US" && !(US_CITY.test(text) && /\p{L}/u.test(text))) return fail("validation.cityInvalid");
    return pass(text);
  });
}
