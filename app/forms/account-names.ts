import { ADDRESS_FIELDS } from "./address-fields";

// What the account pages show as they render, apart from the schemas that import zod (the
// browser fetches those on demand: app/forms/checks.ts).

/** Manage details' fields, in the order the error summary lists them. */
export const DETAILS_FIELDS = ["firstName", "lastName", "phone", ...ADDRESS_FIELDS];

/** The confirmation page's sign-up failed for a reason typing again will not fix (a form error). */
export const SIGN_UP_FAILED = "account.signUp.failed";

export const COMPANION_CHOICES = ["0", "1", "2"] as const;
