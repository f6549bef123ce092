import { z } from "zod";
import type { PostalAddress } from "~/views/contact-details";
import { US_STATES } from "~/forms/checkout/contacts";
import {
  choiceField,
  city,
  email,
  fail,
  optionalText,
  ownUkPostcode,
  pass,
  phone,
  requiredText,
  textField,
  usZip,
  type Country,
  type FieldCheck,
} from "~/forms/checkout/fields";
import { checkoutPath } from "~/urls/paths";
import { safeReturnPath } from "~/urls/return-path";

export { DETAILS_FIELDS, SIGN_UP_FAILED } from "./account-names";

// The account forms' schemas, shared by the actions and Conform in the browser. Passwords are
// never trimmed (a space may be part of one) and never sent back into the page.

/** The password being checked at sign-in: anything typed, so an old short one still works. */
export const currentPassword = z
  .string()
  .optional()
  .transform((value, ctx): string => {
    if (value) return value;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "validation.password" });
    return z.NEVER;
  });

// Here, not in the auth service: the browser checks passwords with this schema too, and a
// .server module's exports are undefined in the browser's bundle.
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

/** A new password: long enough to resist guessing, not so long that hashing it is a weapon. */
export const newPassword = z
  .string()
  .optional()
  .transform((value = "", ctx): string => {
    if (value.length >= PASSWORD_MIN_LENGTH && value.length <= PASSWORD_MAX_LENGTH) return value;
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: value ? "validation.passwordLength" : "validation.newPassword",
    });
    return z.NEVER;
  });

/** The `redirectTo` a page was opened with, made safe ("" when there is none worth keeping). */
export const requestedReturn = (request: Request) =>
  safeReturnPath(new URL(request.url).searchParams.get("redirectTo"), "");

/** Where to go after signing in: a path on this site only ("" for anything else), never another site. */
export const returnPath = textField((text) => pass(safeReturnPath(text, "")));

export const signInSchema = z.object({ email, password: currentPassword, redirectTo: returnPath });

/** Asking for an account: the password is chosen later, by the emailed link. */
export const registerSchema = z.object({
  firstName: requiredText("validation.firstName"),
  lastName: requiredText("validation.lastName"),
  email,
  redirectTo: returnPath,
});

export const forgottenPasswordSchema = z.object({ email });

/** Choosing a password by an emailed link: a reset's, or a new account's. */
export const choosePasswordSchema = z.object({ password: newPassword });

/** The first message a field schema gave, or `fallback`. */
function firstMessage(error: z.ZodError, fallback: string): string {
  return error.issues[0]?.message ?? fallback;
}

/** A field that may be left empty (null); what is typed must pass `schema`, with its messages. */
function orNone<T>(schema: z.ZodType<T, z.ZodTypeDef, string | undefined>, message: string) {
  return textField((text): FieldCheck<T | null> => {
    if (!text) return pass(null);
    const result = schema.safeParse(text);
    return result.success ? pass(result.data) : fail(firstMessage(result.error, message));
  });
}

const ADDRESS_FIELDS = ["addressLine1", "addressLine2", "city", "state", "postcode", "zip"] as const;

/** The saved address's fields, checked as the contact step checks a delivery address. */
function addressSchemas(country: Country) {
  return {
    addressLine1: requiredText("validation.address"),
    addressLine2: optionalText("validation.address"),
    city: city(country),
    ...(country === "US"
      ? {
          state: choiceField(
            US_STATES.map((state) => state.code),
            "validation.state",
          ),
          zip: usZip,
        }
      : { postcode: ownUkPostcode }),
  } satisfies Partial<Record<(typeof ADDRESS_FIELDS)[number], z.ZodTypeAny>>;
}

const rawText = z.string().optional();

/**
 * Manage details: the name, phone and contact consent a customer keeps, and an optional saved
 * address. The address is all or nothing: left wholly empty it is removed; once any part is typed,
 * every required part is checked with the contact step's own rules and messages, and only in the
 * deployment's country (post and mail go nowhere else).
 */
export function detailsSchema(country: Country) {
  const address = addressSchemas(country);
  return z
    .object({
      firstName: requiredText("validation.firstName"),
      lastName: requiredText("validation.lastName"),
      phone: orNone(phone(country), "validation.phone"),
      addressLine1: rawText,
      addressLine2: rawText,
      city: rawText,
      state: rawText,
      postcode: rawText,
      zip: rawText,
      contactConsent: z
        .string()
        .optional()
        .transform((value) => value === "on"),
    })
    .superRefine((value, ctx) => {
      if (!ADDRESS_FIELDS.some((name) => value[name]?.trim())) return;
      for (const [name, schema] of Object.entries(address)) {
        const result = schema.safeParse(value[name as keyof typeof address]);
        if (!result.success)
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            path: [name],
            message: firstMessage(result.error, "validation.address"),
          });
      }
    })
    .transform(({ firstName, lastName, phone: phoneNumber, contactConsent, ...raw }) => {
      const given = ADDRESS_FIELDS.some((name) => raw[name]?.trim());
      // Valid by now (the refinement above), so parsing again only normalises.
      const parts = given
        ? Object.fromEntries(
            Object.entries(address).map(([name, schema]) => [
              name,
              schema.parse(raw[name as keyof typeof address]) as string,
            ]),
          )
        : null;
      const saved: PostalAddress | null = parts
        ? {
            line1: parts.addressLine1 ?? "",
            line2: parts.addressLine2 ?? "",
            city: parts.city ?? "",
            postcode: parts.postcode ?? parts.zip ?? "",
            state: parts.state ?? null,
            country,
          }
        : null;
      return { firstName, lastName, phone: phoneNumber, contactConsent, address: saved };
    });
}

/**
 * Where Manage details goes once the changes are saved: My account, which then says so. A flag in
 * the address rather than a session flash: nothing to store, and a reload saying it again is true.
 */
export const DETAILS_SAVED_PATH = "/account?saved=details";

export const detailsSaved = (request: Request) => new URL(request.url).searchParams.get("saved") === "details";

/** Where following an emailed sign-up link lands when it was not on its way elsewhere, saying so. */
export const ACCOUNT_CREATED_PATH = "/account?account=created";

/** Where "Create account" on the confirmation page lands: the page, saying the link was emailed. */
export const SIGN_UP_SENT_PATH = `${checkoutPath("confirmation")}?account=sent`;

/** What an address's `account` flag says happened: created, sent, or nothing. */
export const accountFlag = (request: Request) => new URL(request.url).searchParams.get("account");
