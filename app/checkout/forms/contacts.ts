import { z } from "zod";
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

/** The 50 states and the District of Columbia: where US tickets can be mailed. */
export const US_STATES = [
  { code: "AL", name: "Alabama" },
  { code: "AK", name: "Alaska" },
  { code: "AZ", name: "Arizona" },
  { code: "AR", name: "Arkansas" },
  { code: "CA", name: "California" },
  { code: "CO", name: "Colorado" },
  { code: "CT", name: "Connecticut" },
  { code: "DE", name: "Delaware" },
  { code: "DC", name: "District of Columbia" },
  { code: "FL", name: "Florida" },
  { code: "GA", name: "Georgia" },
  { code: "HI", name: "Hawaii" },
  { code: "ID", name: "Idaho" },
  { code: "IL", name: "Illinois" },
  { code: "IN", name: "Indiana" },
  { code: "IA", name: "Iowa" },
  { code: "KS", name: "Kansas" },
  { code: "KY", name: "Kentucky" },
  { code: "LA", name: "Louisiana" },
  { code: "ME", name: "Maine" },
  { code: "MD", name: "Maryland" },
  { code: "MA", name: "Massachusetts" },
  { code: "MI", name: "Michigan" },
  { code: "MN", name: "Minnesota" },
  { code: "MS", name: "Mississippi" },
  { code: "MO", name: "Missouri" },
  { code: "MT", name: "Montana" },
  { code: "NE", name: "Nebraska" },
  { code: "NV", name: "Nevada" },
  { code: "NH", name: "New Hampshire" },
  { code: "NJ", name: "New Jersey" },
  { code: "NM", name: "New Mexico" },
  { code: "NY", name: "New York" },
  { code: "NC", name: "North Carolina" },
  { code: "ND", name: "North Dakota" },
  { code: "OH", name: "Ohio" },
  { code: "OK", name: "Oklahoma" },
  { code: "OR", name: "Oregon" },
  { code: "PA", name: "Pennsylvania" },
  { code: "RI", name: "Rhode Island" },
  { code: "SC", name: "South Carolina" },
  { code: "SD", name: "South Dakota" },
  { code: "TN", name: "Tennessee" },
  { code: "TX", name: "Texas" },
  { code: "UT", name: "Utah" },
  { code: "VT", name: "Vermont" },
  { code: "VA", name: "Virginia" },
  { code: "WA", name: "Washington" },
  { code: "WV", name: "West Virginia" },
  { code: "WI", name: "Wisconsin" },
  { code: "WY", name: "Wyoming" },
] as const;

export type UsStateCode = (typeof US_STATES)[number]["code"];

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
