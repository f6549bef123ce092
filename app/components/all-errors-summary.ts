import type { TFunction } from "i18next";
import { errorsForSummary, translateMessage } from "~/forms/checkout/messages";
import type { SummaryError } from "~/views/errors";

/**
 * The error summary's lines with every form-level error (errorsForSummary keeps the first only),
 * then each field's first: a refusal of seats names each seat refused on a line of its own.
 */
export function allErrorsForSummary(
  errors: Readonly<Record<string, readonly string[] | null | undefined>> | null | undefined,
  fieldOrder: readonly string[],
  t: TFunction,
): SummaryError[] {
  if (!errors) return [];
  const { "": formErrors, ...fieldErrors } = errors;
  return [
    ...(formErrors ?? []).map((text) => ({ field: null, text: translateMessage(text, t) })),
    ...errorsForSummary(fieldErrors, fieldOrder, t),
  ];
}
