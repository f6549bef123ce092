import { z } from "zod";
import { choiceField, fail, pass, textField } from "./fields";

// The short steps: ticket protection, delivery and extras.

/** Yes or no, and one of them: the buyer must say which (spec section 4). */
export const protectionSchema = z.object({
  protection: choiceField(["yes", "no"] as const, "validation.answerSelect"),
});

export function deliverySchema<Id extends string>(methodIds: readonly Id[]) {
  return z.object({ deliveryMethod: choiceField(methodIds, "validation.deliveryMethod") });
}

export const EXTRA_MAX_QUANTITY = 20;

/**
 * A whole number from 0 to 20. Left empty, it is 0: the buyer cleared the box because they want
 * none, and the step says "Choose 0 if you don't want it".
 */
const quantity = textField((text) => {
  if (!text) return pass(0);
  const value = Number(text);
  return /^\d+$/.test(text) && value <= EXTRA_MAX_QUANTITY ? pass(value) : fail("validation.quantity");
});

/** A quantity per extra, named `qty.{id}`. */
export function extrasSchema(extraIds: readonly string[]) {
  return z.object({ qty: z.object(Object.fromEntries(extraIds.map((id) => [id, quantity]))) });
}
