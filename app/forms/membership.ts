import { z } from "zod";
import { choiceField, optionalText } from "~/forms/checkout/fields";
import { COMPANION_CHOICES } from "./account-names";

export { COMPANION_CHOICES };

// The access membership's form: the needs a customer registers once. Shared by the action and
// Conform in the browser.

const ticked = z
  .string()
  .optional()
  .transform((value) => value === "on");

export const accessSchema = z
  .object({
    wheelchair: ticked,
    companions: choiceField(COMPANION_CHOICES, "membership.access.companionsRequired"),
    otherNeeds: optionalText("membership.access.otherTooLong", 500),
  })
  .superRefine((value, ctx) => {
    // Companion seats sit beside wheelchair spaces: they come with being a wheelchair user.
    if (value.companions !== "0" && !value.wheelchair)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["companions"],
        message: "membership.access.companionsNeedSpace",
      });
    if (!value.wheelchair && !value.otherNeeds)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["wheelchair"], message: "membership.access.needRequired" });
  });
