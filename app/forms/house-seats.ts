import { z } from "zod";
import { email, optionalText, requiredText } from "~/forms/checkout/fields";
import { message } from "~/forms/checkout/messages";
import { COMP_REASON_MAX_LENGTH, HOUSE_REASON_MAX_LENGTH, TYPED_SEATS_MAX_LENGTH } from "~/views/house-seats";

// The house-seat and comp pages' forms (issue 55 item 5), shared by their actions and Conform in
// the browser. Seats come as the checkboxes' values (seat ids); which of them may be had is the
// domain's to say, so only that they are whole numbers is checked here.

const performance = requiredText("staff.houseSeats.performanceMissing", 64);

/** Checked seat boxes (one value or many), as seat ids; `missing` when none is checked. */
function seatBoxes(missing: string | null) {
  return z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((raw, ctx): number[] => {
      const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      const ids = values.filter((value) => /^\d{1,12}$/.test(value)).map(Number);
      if (ids.length === 0 && missing) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: missing });
        return z.NEVER;
      }
      return ids;
    });
}

export const houseChoiceSchema = z.object({ performance });

export const holdSeatsSchema = z.object({
  performance,
  reason: requiredText(
    message("staff.houseSeats.reasonMissing", { count: HOUSE_REASON_MAX_LENGTH }),
    HOUSE_REASON_MAX_LENGTH,
  ),
  seat: seatBoxes("staff.houseSeats.seatsMissing"),
});

export const releaseSeatsSchema = z.object({ performance, release: seatBoxes("staff.houseSeats.releaseMissing") });

export const compSchema = z.object({
  performance,
  seat: seatBoxes(null),
  typedSeats: optionalText(
    message("staff.comps.typedSeatsTooLong", { count: TYPED_SEATS_MAX_LENGTH }),
    TYPED_SEATS_MAX_LENGTH,
  ),
  name: requiredText("staff.comps.nameMissing", 100),
  email,
  reason: requiredText(message("staff.comps.reasonMissing", { count: COMP_REASON_MAX_LENGTH }), COMP_REASON_MAX_LENGTH),
  restricted: z
    .string()
    .optional()
    .transform((value) => value === "on"),
});
