import { z } from "zod";
import { email, pass, requiredText, textField } from "~/checkout/forms/fields";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/services/auth.server";

// The account forms' schemas, shared by the actions and Conform in the browser. Passwords are
// never trimmed (a space may be part of one) and never sent back into the page.

/** The password being checked at sign-in: anything typed, so an old short one still works. */
const currentPassword = z
  .string()
  .optional()
  .transform((value, ctx): string => {
    if (value) return value;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "validation.password" });
    return z.NEVER;
  });

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

/** Where to go after signing in: a path on this site only ("" for anything else), never another site. */
export function localPath(text: string): string {
  return text.startsWith("/") && !text.startsWith("//") && !text.startsWith("/\\") ? text : "";
}

/** The `redirectTo` a page was opened with, made safe. */
export const requestedReturn = (request: Request) =>
  localPath(new URL(request.url).searchParams.get("redirectTo") ?? "");

export const returnPath = textField((text) => pass(localPath(text)));

export const signInSchema = z.object({ email, password: currentPassword, redirectTo: returnPath });

export const registerSchema = z.object({
  firstName: requiredText("validation.firstName"),
  lastName: requiredText("validation.lastName"),
  email,
  password: newPassword,
  redirectTo: returnPath,
});

export const forgottenPasswordSchema = z.object({ email });

export const resetPasswordSchema = z.object({ password: newPassword });

export const PASSWORD_FIELDS = ["password"];
