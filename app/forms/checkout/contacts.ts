import { z } from "zod";
import { US_STATES, type UsStateCode } from "./us-states";

export { US_STATES, type UsStateCode };
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
} from "./fields";

// The contact details step: who the tickets are for and how to reach them, the delivery address
// when tickets go by post (within the deployment's country only), the venue's own questions,
// contact consent and the terms.

export interface VenueQuestion {
  id: string;
  kind: "choice" | "text";
  options: string[];
}

export interface ContactsOptions {
  country: Country;
  needsAddress: boolean;
  questions: VenueQuestion[];
}

export const ANSWER_MAX_LENGTH = 500;

function question(q: VenueQuestion) {
  if (q.kind === "choice") return choiceField(q.options, "validation.answerSelect");
  // Newlines kept: an answer may be a few lines (access needs, say).
  return textField((text) => {
    if (!text) return fail("validation.answerWrite");
    return text.length <= ANSWER_MAX_LENGTH ? pass(text) : fail("validation.answerTooLong");
  });
}

/** A field this form does not have: whatever arrives under its name is dropped. */
const absent = z
  .string()
  .optional()
  .transform((): undefined => undefined);

type MaybeField = z.ZodType<string | undefined, z.ZodTypeDef, string | undefined>;

/**
 * Checkbox fields: the browser sends "on" when ticked and nothing when not. Consent is a choice
 * either way; the terms must be accepted.
 */
const consent = z
  .string()
  .optional()
  .transform((value) => value === "on");
const terms = z
  .string()
  .optional()
  .transform((value, ctx): true => {
    if (value === "on") return true;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "validation.terms" });
    return z.NEVER;
  });

export function contactsSchema(options: ContactsOptions) {
  const { country, needsAddress } = options;
  const us = country === "US";
  const addressField = (schema: MaybeField): MaybeField => (needsAddress ? schema : absent);
  const questions = Object.fromEntries(options.questions.map((q) => [q.id, question(q)]));
  return z
    .object({
      firstName: requiredText("validation.firstName"),
      lastName: requiredText("validation.lastName"),
      email,
      // Compared with `email` below; here only whether it was given at all.
      confirmEmail: textField((text) => (text ? pass(text) : fail("validation.confirmEmail"))),
      phone: phone(country),
      addressLine1: addressField(requiredText("validation.address")),
      addressLine2: addressField(optionalText("validation.address")),
      city: addressField(city(country)),
      // The UK asks for the postcode, the US for the state and the ZIP code: a post (mail) address
      // is only ever in the deployment's own country.
      postcode: needsAddress && !us ? ownUkPostcode : absent,
      zip: needsAddress && us ? usZip : absent,
      state:
        needsAddress && us
          ? choiceField(
              US_STATES.map((state) => state.code),
              "validation.state",
            )
          : absent,
      // Fixed by the deployment; the page need not send it, and any other country is refused.
      country: needsAddress
        ? textField<Country>((text) =>
            !text || text.toUpperCase() === country ? pass(country) : fail(`validation.country${country}`),
          )
        : absent,
      question: z.object(questions),
      contactConsent: consent,
      termsAccepted: terms,
    })
    .superRefine((value, ctx) => {
      // Only when both were given and the first is an address: otherwise the fields already say
      // what is wrong, and "does not match" would be one message too many. Case aside: the same
      // mailbox however it is capitalised.
      if (typeof value.email !== "string" || typeof value.confirmEmail !== "string") return;
      if (value.email.toLowerCase() !== value.confirmEmail.toLowerCase()) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["confirmEmail"], message: "validation.emailMismatch" });
      }
    });
}

export type ContactsValue = z.output<ReturnType<typeof contactsSchema>>;
