import { join } from "node:path";
import { parseWithZod } from "@conform-to/zod";
import { createInstance, type TFunction } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  cardSchema,
  city,
  contactsSchema,
  deliverySchema,
  email,
  errorsForSummary,
  extrasSchema,
  message,
  paymentMethodSchema,
  phone,
  promoSchema,
  protectionSchema,
  translateMessage,
  ukPostcode,
  US_STATES,
  usZip,
  voucherSchema,
  type ContactsOptions,
} from "~/forms/checkout";
import type { CardBrand } from "~/forms/checkout/card-types";
import { readLocaleFiles } from "~/i18n/i18n.server";
import { sharedI18nextOptions, type Language } from "~/i18n/languages";

// The spec's wording (section 5), key by key: the locale files must say exactly this.
const SPEC_TEXT: Record<string, string> = {
  "validation.answerSelect": "Please select an answer",
  "validation.answerWrite": "Please write your answer here",
  "validation.cardNumberBrands": "Please enter a valid {{cardTypes}} card number",
  "validation.cardNumber": "Please enter a valid credit card number",
  "validation.cvv": "Please enter your card's CVV number",
  "validation.deliveryMethod": "Please select a delivery method",
  "validation.email": "Please enter a valid email address",
  "validation.firstName": "Please enter your first name",
  "validation.lastName": "Please enter your last name",
  "validation.expiryMonth": "Please enter a valid month for your expiration date",
  "validation.expiryYear": "Please enter a valid expiration year",
  "validation.cardOwner": "Please enter your first and last name",
  "validation.paymentMethod": "Please select a payment method",
  "validation.phone": "Please enter a valid phone number",
  "validation.terms": "Please accept the Terms and Conditions",
  "validation.confirmEmail": "Please confirm your email address",
  "validation.emailMismatch": "Email address does not match",
  "validation.address": "Please enter your address",
  "validation.city": "Please enter your city",
  "validation.postcodeYours": "Please enter your postcode",
  "validation.cityTooLong": "City must not be more than 40 characters long",
  "validation.postcodeRequired": "Please enter a postcode",
  "validation.postcodeUkOnly": "Valid UK postcodes only",
  "validation.postcodeInvalid": "Please enter a valid postcode",
  "validation.zipRequired": "Please enter a ZIP code",
  "validation.zipUsOnly": "Valid US ZIP codes only",
  "validation.zipInvalid": "Please enter a valid ZIP code",
  "validation.cityInvalid": "Please enter a valid City name",
  "vouchers.numberRequired": "Please enter your voucher number",
  "vouchers.codeRequired": "Please enter your redemption code",
  "vouchers.giftCardNumberRequired": "Please enter your gift card number",
  "vouchers.giftCardCodeRequired": "Please enter your gift card access number",
  "promo.empty": "Please enter a valid promo code",
};
// Keys whose wording is ours, not the spec's: they must exist, in both languages.
const OWN_KEYS = [
  "validation.answerTooLong",
  "validation.state",
  "validation.countryGB",
  "validation.countryUS",
  "validation.quantity",
];

const files = readLocaleFiles(join(process.cwd(), "locales"));
const translators = new Map<Language, TFunction>();

beforeAll(async () => {
  for (const language of ["en-GB", "en-US"] as const) {
    const instance = createInstance();
    await instance.init({
      ...sharedI18nextOptions(language, "common"),
      resources: files.resources,
      initImmediate: false,
    });
    translators.set(language, instance.t);
  }
});

// Every message key a case below produced, to show at the end that each of the spec's was.
const produced = new Set<string>();

/** The form as the browser posts it, through Conform as the action and the page both run it. */
function submit(schema: z.ZodTypeAny, fields: Record<string, string | undefined>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) formData.append(name, value);
  return parseWithZod(formData, { schema });
}

function errorsOf(schema: z.ZodTypeAny, fields: Record<string, string | undefined>): Record<string, string[]> {
  const submission = submit(schema, fields);
  const errors: Record<string, string[]> = {};
  if (submission.status === "success") return errors;
  for (const [name, messages] of Object.entries(submission.error ?? {})) {
    if (!messages) continue;
    errors[name] = messages;
    for (const text of messages) produced.add(text.split("|")[0]!);
  }
  return errors;
}

function valueOf(schema: z.ZodTypeAny, fields: Record<string, string | undefined>): unknown {
  const submission = submit(schema, fields);
  expect(submission.status === "success" ? {} : submission.error).toEqual({});
  return submission.status === "success" ? submission.value : undefined;
}

/** One field on its own, through a one-field form. */
const field = (schema: z.ZodTypeAny) => ({
  errors: (value: string | undefined) => errorsOf(z.object({ value: schema }), { value }).value ?? [],
  value: (value: string) => (valueOf(z.object({ value: schema }), { value }) as { value: unknown }).value,
});

describe("UK postcodes", () => {
  it("takes any case, with or without the space, and gives upper case with one space", () => {
    expect(field(ukPostcode).value("sw1a 1aa")).toBe("SW1A 1AA");
    expect(field(ukPostcode).value("SW1A1AA")).toBe("SW1A 1AA");
    expect(field(ukPostcode).value("  ec1a   1bb ")).toBe("EC1A 1BB");
  });

  it("words each mistake by its kind", () => {
    expect(field(ukPostcode).errors("")).toEqual(["validation.postcodeRequired"]);
    expect(field(ukPostcode).errors("   ")).toEqual(["validation.postcodeRequired"]);
    // Digits only: another country's postcode, not a typo of ours.
    expect(field(ukPostcode).errors("12345")).toEqual(["validation.postcodeUkOnly"]);
    expect(field(ukPostcode).errors("12345-6789")).toEqual(["validation.postcodeUkOnly"]);
    expect(field(ukPostcode).errors("ZZ")).toEqual(["validation.postcodeInvalid"]);
    expect(field(ukPostcode).errors("SW1A 1A")).toEqual(["validation.postcodeInvalid"]);
  });
});

describe("US ZIP codes", () => {
  it("takes five digits or ZIP+4", () => {
    expect(field(usZip).value("12345")).toBe("12345");
    expect(field(usZip).value("12345-6789")).toBe("12345-6789");
    expect(field(usZip).value("123456789")).toBe("12345-6789");
  });

  it("words each mistake by its kind", () => {
    expect(field(usZip).errors("")).toEqual(["validation.zipRequired"]);
    expect(field(usZip).errors("SW1A 1AA")).toEqual(["validation.zipUsOnly"]);
    expect(field(usZip).errors("1234")).toEqual(["validation.zipInvalid"]);
    expect(field(usZip).errors("12345-67")).toEqual(["validation.zipInvalid"]);
  });
});

describe("phone numbers", () => {
  it("takes the deployment country's numbers as dialled there, and gives E.164", () => {
    expect(field(phone("GB")).value("020 7946 0000")).toBe("+442079460000");
    expect(field(phone("US")).value("(212) 555-0100")).toBe("+12125550100");
  });

  it("takes any valid number in international form", () => {
    expect(field(phone("GB")).value("+1 212 555 0100")).toBe("+12125550100");
    expect(field(phone("US")).value("+44 20 7946 0000")).toBe("+442079460000");
  });

  it("at a UK venue: a UK number or an international one; not five digits", () => {
    expect(field(phone("GB")).value("020 7946 0000")).toBe("+442079460000");
    expect(field(phone("GB")).value("+1 212 555 0100")).toBe("+12125550100");
    expect(field(phone("GB")).errors("12345")).toEqual(["validation.phone"]);
  });

  it("at a US venue: a US number or an international one; a UK mobile without +44 is neither", () => {
    expect(field(phone("US")).value("(212) 555-0100")).toBe("+12125550100");
    expect(field(phone("US")).value("+44 7911 123456")).toBe("+447911123456");
    expect(field(phone("US")).errors("07911 123456")).toEqual(["validation.phone"]);
  });

  it("refuses a number that is not valid where it would be dialled", () => {
    expect(field(phone("GB")).errors("")).toEqual(["validation.phone"]);
    expect(field(phone("GB")).errors("12345")).toEqual(["validation.phone"]);
    // A London number without its +44 is not a US number.
    expect(field(phone("US")).errors("020 7946 0000")).toEqual(["validation.phone"]);
  });
});

describe("email and city", () => {
  it("email: an address, trimmed", () => {
    expect(field(email).value(" ada@example.com ")).toBe("ada@example.com");
    expect(field(email).errors("ada@")).toEqual(["validation.email"]);
    expect(field(email).errors("")).toEqual(["validation.email"]);
  });

  it("city: required, at most 40 characters", () => {
    expect(field(city("GB")).errors("")).toEqual(["validation.city"]);
    expect(field(city("GB")).value("x".repeat(40))).toBe("x".repeat(40));
    expect(field(city("GB")).errors("x".repeat(41))).toEqual(["validation.cityTooLong"]);
    expect(field(city("US")).errors("x".repeat(41))).toEqual(["validation.cityTooLong"]);
  });

  it("a US city is letters, spaces, hyphens, apostrophes and periods; the UK has no such rule", () => {
    expect(field(city("US")).value("Coeur d'Alene")).toBe("Coeur d'Alene");
    expect(field(city("US")).value("St. Paul")).toBe("St. Paul");
    expect(field(city("US")).value("Winston-Salem")).toBe("Winston-Salem");
    expect(field(city("US")).errors("Springfield 9")).toEqual(["validation.cityInvalid"]);
    expect(field(city("US")).errors("...")).toEqual(["validation.cityInvalid"]);
    expect(field(city("GB")).value("Springfield 9")).toBe("Springfield 9");
  });
});

describe("contact details", () => {
  const questions: ContactsOptions["questions"] = [
    { id: "q1", kind: "choice", options: ["Yes", "No"] },
    { id: "q2", kind: "text", options: [] },
  ];
  const uk = contactsSchema({ country: "GB", needsAddress: true, questions });
  const us = contactsSchema({ country: "US", needsAddress: true, questions });
  const ukForm = {
    firstName: " Ada ",
    lastName: "Lovelace",
    email: "ada@example.com",
    confirmEmail: "ADA@example.com",
    phone: "020 7946 0000",
    addressLine1: "1 High Street",
    addressLine2: "",
    city: "London",
    postcode: "sw1a1aa",
    "question.q1": "Yes",
    "question.q2": "Step-free access, please",
    termsAccepted: "on",
  };
  const usForm = {
    ...ukForm,
    phone: "(212) 555-0100",
    city: "New York",
    postcode: undefined,
    zip: "10036",
    state: "NY",
  };

  it("gives the details normalised: E.164, the postcode formatted, the consent and terms as booleans", () => {
    expect(valueOf(uk, ukForm)).toEqual({
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
      confirmEmail: "ADA@example.com",
      phone: "+442079460000",
      addressLine1: "1 High Street",
      addressLine2: "",
      city: "London",
      postcode: "SW1A 1AA",
      country: "GB",
      question: { q1: "Yes", q2: "Step-free access, please" },
      contactConsent: false,
      termsAccepted: true,
    });
    expect(valueOf(us, { ...usForm, contactConsent: "on", country: "US" })).toMatchObject({
      phone: "+12125550100",
      zip: "10036",
      state: "NY",
      country: "US",
      contactConsent: true,
    });
  });

  it("asks for each missing field with its own message, all at once", () => {
    expect(errorsOf(uk, {})).toEqual({
      firstName: ["validation.firstName"],
      lastName: ["validation.lastName"],
      email: ["validation.email"],
      confirmEmail: ["validation.confirmEmail"],
      phone: ["validation.phone"],
      addressLine1: ["validation.address"],
      city: ["validation.city"],
      // Beside "your address" and "your city": the buyer's own postcode.
      postcode: ["validation.postcodeYours"],
      "question.q1": ["validation.answerSelect"],
      "question.q2": ["validation.answerWrite"],
      termsAccepted: ["validation.terms"],
    });
    expect(errorsOf(us, { ...usForm, zip: "", state: "" })).toEqual({
      zip: ["validation.zipRequired"],
      state: ["validation.state"],
    });
  });

  it("says the emails do not match only when both are given and differ", () => {
    expect(errorsOf(uk, { ...ukForm, confirmEmail: "ada@example.org" })).toEqual({
      confirmEmail: ["validation.emailMismatch"],
    });
    expect(errorsOf(uk, { ...ukForm, email: "", confirmEmail: "ada@example.org" })).toEqual({
      email: ["validation.email"],
    });
  });

  it("checks the answers to the venue's questions", () => {
    expect(errorsOf(uk, { ...ukForm, "question.q1": "Maybe", "question.q2": "   " })).toEqual({
      "question.q1": ["validation.answerSelect"],
      "question.q2": ["validation.answerWrite"],
    });
    expect(valueOf(uk, { ...ukForm, "question.q2": "a".repeat(500) })).toBeDefined();
    expect(errorsOf(uk, { ...ukForm, "question.q2": "a".repeat(501) })).toEqual({
      "question.q2": ["validation.answerTooLong"],
    });
  });

  it("only takes an address in the deployment's country", () => {
    expect(errorsOf(uk, { ...ukForm, country: "FR" })).toEqual({ country: ["validation.countryGB"] });
    expect(errorsOf(us, { ...usForm, country: "GB" })).toEqual({ country: ["validation.countryUS"] });
    expect(errorsOf(us, { ...usForm, state: "XX" })).toEqual({ state: ["validation.state"] });
    expect(errorsOf(us, { ...usForm, zip: "SW1A 1AA" })).toEqual({ zip: ["validation.zipUsOnly"] });
    expect(errorsOf(us, { ...usForm, city: "x".repeat(41) })).toEqual({ city: ["validation.cityTooLong"] });
  });

  it("asks for no address when the tickets do not go by post, and drops one that is sent", () => {
    const eTicket = contactsSchema({ country: "GB", needsAddress: false, questions: [] });
    const value = valueOf(eTicket, { ...ukForm, postcode: "not a postcode", city: "" }) as Record<string, unknown>;
    expect(value.postcode).toBeUndefined();
    expect(value.city).toBeUndefined();
    expect(value.question).toEqual({});
  });

  it("lists the 50 states and DC, each once", () => {
    expect(US_STATES).toHaveLength(51);
    expect(new Set(US_STATES.map((state) => state.code)).size).toBe(51);
    expect(US_STATES.find((state) => state.code === "DC")?.name).toBe("District of Columbia");
  });
});

describe("card payments", () => {
  const ALL: CardBrand[] = ["visa", "mastercard", "amex"];
  const now = new Date("2025-06-15T12:00:00Z");
  const card = (overrides: Record<string, string | undefined> = {}) => ({
    cardNumber: "4242 4242 4242 4242",
    cardOwner: "Ada Lovelace",
    expiry: "04/29",
    cvv: "123",
    ...overrides,
  });
  const schema = (brands: CardBrand[] = ALL, at = now) => cardSchema({ acceptedBrands: brands, now: at });
  const brandsMessage = (brands: CardBrand[]) =>
    errorsOf(schema(brands), card({ cardNumber: "4242 4242 4242 4241" })).cardNumber;

  it("gives the parsed card for each test card, with a 4-digit CVV for American Express", () => {
    expect(valueOf(schema(), card())).toEqual({
      number: "4242424242424242",
      brand: "visa",
      expiryMonth: 4,
      expiryYear: 2029,
      cvv: "123",
      holderName: "Ada Lovelace",
    });
    expect(valueOf(schema(), card({ cardNumber: "5555555555554444" }))).toMatchObject({ brand: "mastercard" });
    expect(valueOf(schema(), card({ cardNumber: "378282246310005", cvv: "1234" }))).toMatchObject({
      brand: "amex",
      cvv: "1234",
    });
  });

  it("reads the expiry as typed: M/YY, MM/YYYY, MM YY", () => {
    for (const expiry of ["4/29", "04/2029", "04 29", " 04 / 29 "]) {
      expect(valueOf(schema(), card({ expiry }))).toMatchObject({ expiryMonth: 4, expiryYear: 2029 });
    }
  });

  it("says 'a valid credit card number' for nothing or something that is no card number at all", () => {
    for (const cardNumber of ["", "abcd efgh ijkl", "4242"]) {
      expect(errorsOf(schema(), card({ cardNumber })).cardNumber).toEqual(["validation.cardNumber"]);
    }
  });

  it("names the accepted brands for a wrong number, an unknown brand or a brand this order does not take", () => {
    const everyBrand = [
      message("validation.cardNumberBrands", { cardTypes: ["Visa", "Visa Debit", "Mastercard", "American Express"] }),
    ];
    expect(brandsMessage(ALL)).toEqual(everyBrand);
    // Discover passes the check digit but is not taken.
    expect(errorsOf(schema(), card({ cardNumber: "6011111111111117" })).cardNumber).toEqual(everyBrand);
    // Sponsored seats: a perfectly good Visa card is still the wrong card.
    expect(errorsOf(schema(["amex"]), card()).cardNumber).toEqual([
      message("validation.cardNumberBrands", { cardTypes: ["American Express"] }),
    ]);
  });

  it("words the accepted brands as a list in the buyer's language", () => {
    const gb = translators.get("en-GB")!;
    const usT = translators.get("en-US")!;
    expect(translateMessage(brandsMessage(ALL)![0]!, gb)).toBe(
      "Please enter a valid Visa, Visa Debit, Mastercard or American Express card number",
    );
    expect(translateMessage(brandsMessage(ALL)![0]!, usT)).toBe(
      "Please enter a valid Visa, Visa Debit, Mastercard, or American Express card number",
    );
    expect(translateMessage(brandsMessage(["amex"])![0]!, gb)).toBe(
      "Please enter a valid American Express card number",
    );
    expect(translateMessage(brandsMessage(["visa"])![0]!, gb)).toBe(
      "Please enter a valid Visa or Visa Debit card number",
    );
  });

  it("checks the name on the card: a first and a last name", () => {
    expect(errorsOf(schema(), card({ cardOwner: "Ada" })).cardOwner).toEqual(["validation.cardOwner"]);
    expect(errorsOf(schema(), card({ cardOwner: "" })).cardOwner).toEqual(["validation.cardOwner"]);
    expect(errorsOf(schema(), card({ cardOwner: "Ada 1234" })).cardOwner).toEqual(["validation.cardOwner"]);
    expect(valueOf(schema(), card({ cardOwner: " Mary-Jane   O'Neil " }))).toMatchObject({
      holderName: "Mary-Jane O'Neil",
    });
  });

  it("checks the month, then the year, then whether the date has gone by", () => {
    const expiryError = (expiry: string, at = now) => errorsOf(schema(ALL, at), card({ expiry })).expiry;
    expect(expiryError("")).toEqual(["validation.expiryMonth"]);
    expect(expiryError("13/29")).toEqual(["validation.expiryMonth"]);
    expect(expiryError("00/29")).toEqual(["validation.expiryMonth"]);
    expect(expiryError("04")).toEqual(["validation.expiryYear"]);
    expect(expiryError("04/2")).toEqual(["validation.expiryYear"]);
    expect(expiryError("04/1999")).toEqual(["validation.expiryYear"]);
    expect(expiryError("06/25")).toBeUndefined();
    // Good to the end of its month, and a day's grace for buyers behind UTC.
    expect(expiryError("06/25", new Date("2025-07-01T20:00:00Z"))).toBeUndefined();
    expect(expiryError("12/24", new Date("2025-01-01T20:00:00Z"))).toBeUndefined();
  });

  // Spec section 5 has no "expired" message: a date gone by is a wrong year or a wrong month.
  describe("an expiry date in the past, in the spec's words", () => {
    const expiryError = (expiry: string, at = now) => errorsOf(schema(ALL, at), card({ expiry })).expiry;
    const inWords = (expiry: string, at = now) =>
      (expiryError(expiry, at) ?? []).map((key) => translateMessage(key, translators.get("en-GB")!));

    it("a year gone by (01/20): 'Please enter a valid expiration year'", () => {
      expect(expiryError("01/20")).toEqual(["validation.expiryYear"]);
      expect(inWords("01/20")).toEqual(["Please enter a valid expiration year"]);
      expect(expiryError("12/24")).toEqual(["validation.expiryYear"]);
      // Last year's December, once the day's grace is over.
      expect(expiryError("12/24", new Date("2025-01-02T00:00:00Z"))).toEqual(["validation.expiryYear"]);
    });

    it("last month of this year (05/25 in June 2025): 'Please enter a valid month for your expiration date'", () => {
      expect(expiryError("05/25")).toEqual(["validation.expiryMonth"]);
      expect(inWords("05/25")).toEqual(["Please enter a valid month for your expiration date"]);
      expect(expiryError("01/2025")).toEqual(["validation.expiryMonth"]);
      expect(expiryError("06/25", new Date("2025-07-02T00:00:00Z"))).toEqual(["validation.expiryMonth"]);
    });

    it("no month 13 (13/30): the month's message", () => {
      expect(inWords("13/30")).toEqual(["Please enter a valid month for your expiration date"]);
    });

    it("this month (06/25) and next year (01/26, a month before this one) are good", () => {
      expect(expiryError("06/25")).toBeUndefined();
      expect(expiryError("01/26")).toBeUndefined();
      expect(valueOf(schema(), card({ expiry: "01/26" }))).toMatchObject({ expiryMonth: 1, expiryYear: 2026 });
    });

    it("no page is told 'This card has expired', in either language", () => {
      for (const language of ["en-GB", "en-US"] as const) {
        expect(JSON.stringify(files.resources[language])).not.toContain("This card has expired");
      }
    });
  });

  it("asks for 3 CVV digits, or 4 for American Express", () => {
    expect(errorsOf(schema(), card({ cvv: "" })).cvv).toEqual(["validation.cvv"]);
    expect(errorsOf(schema(), card({ cvv: "12" })).cvv).toEqual(["validation.cvv"]);
    expect(errorsOf(schema(), card({ cvv: "1234" })).cvv).toEqual(["validation.cvv"]);
    expect(errorsOf(schema(), card({ cardNumber: "378282246310005", cvv: "123" })).cvv).toEqual(["validation.cvv"]);
  });

  it("also checks the raw form values, as the Pay form hands them on", () => {
    const result = schema().safeParse({ cardNumber: "", cardOwner: "", expiry: "", cvv: "" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["cardNumber", "validation.cardNumber"],
      ["cardOwner", "validation.cardOwner"],
      ["expiry", "validation.expiryMonth"],
      ["cvv", "validation.cvv"],
    ]);
  });

  it("asks for one of the page's payment methods", () => {
    const methods = paymentMethodSchema(["card", "paypal"]);
    expect(valueOf(methods, { method: "paypal" })).toEqual({ method: "paypal" });
    expect(errorsOf(methods, {})).toEqual({ method: ["validation.paymentMethod"] });
    expect(errorsOf(methods, { method: "bitcoin" })).toEqual({ method: ["validation.paymentMethod"] });
  });
});

describe("vouchers, promo codes and the short steps", () => {
  it("asks for the voucher number and code in the deployment's words", () => {
    expect(errorsOf(voucherSchema("voucher"), {})).toEqual({
      voucherNumber: ["vouchers.numberRequired"],
      voucherCode: ["vouchers.codeRequired"],
    });
    expect(errorsOf(voucherSchema("giftCard"), { voucherNumber: " ", voucherCode: "" })).toEqual({
      voucherNumber: ["vouchers.giftCardNumberRequired"],
      voucherCode: ["vouchers.giftCardCodeRequired"],
    });
    expect(valueOf(voucherSchema("voucher"), { voucherNumber: " GV-1234 ", voucherCode: "9876" })).toEqual({
      voucherNumber: "GV-1234",
      voucherCode: "9876",
    });
  });

  it("asks for a promo code", () => {
    expect(errorsOf(promoSchema, { promoCode: "  " })).toEqual({ promoCode: ["promo.empty"] });
    expect(valueOf(promoSchema, { promoCode: " SPRING " })).toEqual({ promoCode: "SPRING" });
  });

  it("protection: yes or no, nothing else", () => {
    expect(valueOf(protectionSchema, { protection: "no" })).toEqual({ protection: "no" });
    expect(errorsOf(protectionSchema, {})).toEqual({ protection: ["validation.answerSelect"] });
    expect(errorsOf(protectionSchema, { protection: "maybe" })).toEqual({ protection: ["validation.answerSelect"] });
  });

  it("delivery: one of the venue's methods", () => {
    const delivery = deliverySchema(["eticket-1", "post-1"]);
    expect(valueOf(delivery, { deliveryMethod: "post-1" })).toEqual({ deliveryMethod: "post-1" });
    expect(errorsOf(delivery, {})).toEqual({ deliveryMethod: ["validation.deliveryMethod"] });
    expect(errorsOf(delivery, { deliveryMethod: "drone" })).toEqual({ deliveryMethod: ["validation.deliveryMethod"] });
  });

  it("extras: a whole number from 0 to 20 each, empty meaning none", () => {
    const extras = extrasSchema(["programme", "drinks"]);
    expect(valueOf(extras, { "qty.programme": "2", "qty.drinks": "" })).toEqual({ qty: { programme: 2, drinks: 0 } });
    expect(valueOf(extras, { "qty.programme": "20", "qty.drinks": "0" })).toEqual({
      qty: { programme: 20, drinks: 0 },
    });
    for (const bad of ["21", "-1", "2.5", "two"]) {
      expect(errorsOf(extras, { "qty.programme": bad })).toEqual({ "qty.programme": ["validation.quantity"] });
    }
  });
});

describe("the error summary", () => {
  it("lists one error per field in the page's order, worded, linked by name; others after, unlinked", () => {
    const t = translators.get("en-GB")!;
    const errors = {
      termsAccepted: ["validation.terms"],
      firstName: ["validation.firstName", "validation.lastName"],
      cardNumber: [message("validation.cardNumberBrands", { cardTypes: ["American Express"] })],
      stray: ["validation.quantity"],
      "": ["validation.paymentMethod"],
    };
    expect(errorsForSummary(errors, ["firstName", "cardNumber", "termsAccepted"], t)).toEqual([
      { field: null, text: "Please select a payment method" },
      { field: "firstName", text: "Please enter your first name" },
      { field: "cardNumber", text: "Please enter a valid American Express card number" },
      { field: "termsAccepted", text: "Please accept the Terms and Conditions" },
      { field: null, text: "Please choose a quantity from 0 to 20" },
    ]);
    expect(errorsForSummary(undefined, ["firstName"], t)).toEqual([]);
  });
});

describe("wording", () => {
  const common = (language: Language) => files.resources[language]!.common as Record<string, Record<string, string>>;
  const text = (language: Language, key: string) => {
    const [section, name] = key.split(".");
    return common(language)[section!]?.[name!];
  };

  it("both languages word every spec message exactly as the spec does", () => {
    for (const language of ["en-GB", "en-US"] as const) {
      for (const [key, wording] of Object.entries(SPEC_TEXT))
        expect(text(language, key), `${language} ${key}`).toBe(wording);
      for (const key of OWN_KEYS) expect(text(language, key), `${language} ${key}`).toMatch(/\S/);
    }
  });

  it("both languages have the same validation keys", () => {
    expect(Object.keys(common("en-US").validation!).sort()).toEqual(Object.keys(common("en-GB").validation!).sort());
  });

  // Runs last (vitest keeps a file's order): by now every case above has run.
  it("every spec message was produced by some case above, and no key outside the locale files", () => {
    for (const key of Object.keys(SPEC_TEXT)) expect(produced.has(key), key).toBe(true);
    for (const key of produced) expect(key in SPEC_TEXT || OWN_KEYS.includes(key), key).toBe(true);
  });
});
