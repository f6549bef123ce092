import type { TFunction } from "i18next";
import type { SummaryError } from "~/views/errors";

// Schemas speak in locale keys, never English: the same schema runs on the server (no script) and
// in the browser (Conform), and each side words the key in the buyer's language. An error travels
// as one string (Conform keeps string[] per field, and the server's reply carries them to the
// page), so a key that needs values carries them after a "|" as JSON.

const SEPARATOR = "|";

type MessageValue = string | number | string[];

/** A message key with its interpolation values, as one string that survives the round trip. */
export function message(key: string, values?: Record<string, MessageValue>): string {
  return values ? `${key}${SEPARATOR}${JSON.stringify(values)}` : key;
}

export function readMessage(text: string): { key: string; values?: Record<string, MessageValue> } {
  const at = text.indexOf(SEPARATOR);
  if (at < 0) return { key: text };
  try {
    return { key: text.slice(0, at), values: JSON.parse(text.slice(at + 1)) as Record<string, MessageValue> };
  } catch {
    return { key: text.slice(0, at) };
  }
}

/**
 * Words a schema message for the buyer. A list value is read as alternatives ("Visa, Mastercard
 * or American Express"), joined by the locale's own rules through `validation.orList`: en-GB and
 * en-US differ on the comma before "or".
 */
export function translateMessage(text: string, t: TFunction): string {
  const { key, values } = readMessage(text);
  if (!values) return t(key);
  const worded: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values)) {
    worded[name] = Array.isArray(value) ? t("validation.orList", { items: value }) : value;
  }
  return t(key, worded);
}

/**
 * The error summary's lines, in the order the fields appear on the page (not the order the schema
 * happened to find them), one per field: the first, as the field itself shows. Each links to the
 * field's input, whose id is its name (see form-fields.tsx). Errors for names the page did not list
 * still appear, after the rest and without a link, rather than vanish; a form-level error (name "")
 * comes first, unlinked.
 */
export function errorsForSummary(
  errors: Readonly<Record<string, readonly string[] | null | undefined>> | null | undefined,
  fieldOrder: readonly string[],
  t: TFunction,
): SummaryError[] {
  if (!errors) return [];
  const first = (name: string) => errors[name]?.[0];
  const lines: SummaryError[] = [];
  const formError = first("");
  if (formError) lines.push({ field: null, text: translateMessage(formError, t) });
  const listed = new Set(fieldOrder);
  for (const name of fieldOrder) {
    const error = first(name);
    if (error) lines.push({ field: name, text: translateMessage(error, t) });
  }
  for (const name of Object.keys(errors)) {
    const error = first(name);
    if (name !== "" && !listed.has(name) && error) lines.push({ field: null, text: translateMessage(error, t) });
  }
  return lines;
}
