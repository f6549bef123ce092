import { z } from "zod";
import { email, fail, pass, requiredText, textField } from "~/forms/checkout/fields";
import { message } from "~/forms/checkout/messages";
import { currentPassword } from "~/forms/accounts";

// The staff pages' forms (issue 55), shared by their actions and Conform in the browser. Like
// the buyer's sign-in, the password is never trimmed nor sent back into the page.

/** Six digits, as authenticator apps show them (spaces allowed: some show "123 456"). Optional here: the door has none. */
const oneTimeCode = textField((text) => {
  const digits = text.replace(/\s+/g, "");
  return digits === "" || /^\d{6}$/.test(digits) ? pass(digits) : fail("staff.signIn.codeInvalid");
});

export const staffSignInSchema = z.object({ email, password: currentPassword, code: oneTimeCode });

/**
 * What a door calls itself ("Stalls door"), as the check-in records it and a second scan is told:
 * a few words, so short enough to read at a glance on a phone.
 */
export const DOOR_NAME_MAX_LENGTH = 40;

const doorName = requiredText(message("staff.door.doorMissing", { count: DOOR_NAME_MAX_LENGTH }), DOOR_NAME_MAX_LENGTH);
const performanceChoice = requiredText("staff.door.performanceMissing", 64);

/** The door page's first form (a GET): which performance, at which door. */
export const doorChoiceSchema = z.object({ performance: performanceChoice, door: doorName });

/**
 * A typed e-ticket code, at the door and performance chosen. Only whether something was typed is
 * checked here: what a code looks like is the check-in's to say (ticket-code.ts), and an
 * unreadable one is answered "unknown", as the door needs.
 */
export const checkInSchema = z.object({
  performance: performanceChoice,
  door: doorName,
  code: requiredText("staff.door.codeMissing", 100),
});
