import { z } from "zod";
import { choiceField, fail, optionalText, pass, requiredText, textField } from "~/forms/checkout/fields";
import { message } from "~/forms/checkout/messages";

// The box office's orders forms (issue 55 item 3, decision 0061), shared by the pages' loaders and
// actions and Conform in the browser.

/** Longer than any number, email address or name worth looking for (the search's own bound). */
export const ORDER_QUERY_MAX_LENGTH = 200;

/** The orders page's search (a GET): one box for the order number, the email or the name. */
export const orderSearchSchema = z.object({
  q: requiredText(
    message("staff.orders.search.queryMissing", { count: ORDER_QUERY_MAX_LENGTH }),
    ORDER_QUERY_MAX_LENGTH,
  ),
});

/** What the refund keeps as its reason: a line, for whoever reads the order later. */
export const REFUND_REASON_MAX_LENGTH = 200;

/**
 * A refund from the order's page: the tickets ticked (by id), or the whole order (whatever is left
 * of it); the box office's word that it knows a ticket was used at the door, where one was; and
 * the reason, if given. Whether a ticket was used is the server's to know: it asks for the word
 * again when the page did not offer it.
 */
export const refundSchema = z
  .object({
    scope: choiceField(["tickets", "whole"] as const, "staff.orders.refund.scopeMissing"),
    tickets: z.array(z.string().max(64)).optional(),
    confirmUsed: z
      .string()
      .optional()
      .transform((value) => value === "on"),
    reason: optionalText(
      message("staff.orders.refund.reasonTooLong", { count: REFUND_REASON_MAX_LENGTH }),
      REFUND_REASON_MAX_LENGTH,
    ),
  })
  .superRefine((value, ctx) => {
    if (value.scope === "tickets" && !value.tickets?.length)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["tickets"], message: "staff.orders.refund.ticketsMissing" });
  });

/** A refund the provider did not answer for, tried again by its id. */
export const refundRetrySchema = z.object({ refund: requiredText("staff.orders.refund.unknownRefund", 64) });

/**
 * The confirmation sent again: `seen` is how many times the page showed it had been, so the same
 * form sent twice asks for the same resend.
 */
export const resendSchema = z.object({
  seen: textField((text) => (/^\d{1,6}$/.test(text) ? pass(Number(text)) : fail("staff.orders.resend.stale"))),
});
