import { z } from "zod";
import { LEGAL_DOCUMENTS } from "~/legal";
import { isIsoDate, SLUG_PATTERN } from "./param-values";

// Spec section 2: slugs are 1 to 255 of letters, digits and ! . + & -; a performance id is 36
// characters of digits, letters A to F and hyphens; a date is a real day written YYYY-MM-DD.
export const slug = z.string().regex(SLUG_PATTERN, "must be 1 to 255 letters, digits or ! . + & -");
export const performanceId = z.string().regex(/^[0-9A-Fa-f-]{36}$/);
export const isoDate = z.string().refine(isIsoDate);

/** One of the six legal documents' slugs. */
export const legalDocument = z.enum(LEGAL_DOCUMENTS);

// Each page's parameters, built once: a schema built on every request cost the page more than
// checking its parameters does (issue 19).
export const legalParams = z.object({ document: legalDocument });
/** A show at a venue: both from the URL, or either from the configured single show or venue. */
export const showParams = z.object({ titleSlug: slug.optional(), venueSlug: slug.optional() });
export const venueParams = z.object({ venueSlug: slug });
export const performanceParams = z.object({ performanceId });
export const calendarParams = z.object({ date: isoDate.optional() });

export const notFound = () => new Response(null, { status: 404, statusText: "Not Found" });
export const methodNotAllowed = () => new Response(null, { status: 405, statusText: "Method Not Allowed" });

/**
 * Validates route parameters; anything that does not fit is a 404 (never a 500), because a URL
 * that cannot name a real page is simply a page that does not exist.
 */
export function parseParams<Schema extends z.AnyZodObject>(
  params: Record<string, string | undefined>,
  schema: Schema,
): z.infer<Schema> {
  const result = schema.safeParse(params);
  if (!result.success) throw notFound();
  return result.data;
}
