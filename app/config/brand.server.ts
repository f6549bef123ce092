import { readFileSync } from "node:fs";
import { z } from "zod";
import { THEMES } from "~/themes/themes";

// The deployment's brand (issue 40 item 3): who sells the tickets, as configuration rather than
// wording. A brand file (BRAND_FILE, JSON, read once at start) holds it all; a BRAND_* variable
// overrides the file's field, so one value can change for one deployment without a new file.
// Every field is optional: one left out keeps the wording sets' default (locales/*/common.json),
// which is the demo's. docs/decisions/0043-brand-configuration.md says which wins where.

/**
 * A phone number as it is written for a buyer to read and dial: digits with spaces, hyphens,
 * dots, brackets and a leading +, at least six digits. It is shown, not parsed: each venue writes
 * its own number its own country's way ("020 7946 0101", "(212) 555-0103").
 */
const phone = z
  .string()
  .trim()
  .refine(
    (value) => /^\+?[\d ().-]{6,30}$/.test(value) && (value.match(/\d/g) ?? []).length >= 6,
    "must be a phone number as buyers dial it, such as 020 7946 0000 or (212) 555-0100",
  );

/** The logo: an absolute http(s) address, or a path on this site (a file in public/). */
const logoUrl = z
  .string()
  .trim()
  .refine(
    (value) => (value.startsWith("/") && !value.startsWith("//")) || /^https?:\/\/[^\s]+$/.test(value),
    "must be an absolute http(s) URL or a path on this site starting with /",
  )
  .refine((value) => !/[\s"'<>]/.test(value), "must not contain spaces, quotes or angle brackets");

const brandFields = {
  name: z.string().trim().min(1, "must not be empty").max(80),
  phone,
  email: z.string().trim().email("must be an email address"),
  logoUrl,
  legalEntity: z.string().trim().min(1, "must not be empty").max(200),
  theme: z.enum(THEMES, { message: `must be one of ${THEMES.join(", ")}` }),
};

const brandFile = z
  .object({
    name: brandFields.name.optional(),
    phone: brandFields.phone.optional(),
    email: brandFields.email.optional(),
    logoUrl: brandFields.logoUrl.optional(),
    legalEntity: brandFields.legalEntity.optional(),
    theme: brandFields.theme.optional(),
  })
  // A misspelt field ("phoneNumber") would otherwise be ignored and the default shown unnoticed.
  .strict();

export type Brand = z.output<typeof brandFile>;

/** Each BRAND_* variable and the brand file's field it overrides. THEME already has its own. */
export const BRAND_VARIABLES = {
  BRAND_NAME: "name",
  BRAND_PHONE: "phone",
  BRAND_EMAIL: "email",
  BRAND_LOGO_URL: "logoUrl",
  BRAND_LEGAL_ENTITY: "legalEntity",
} as const satisfies Record<string, Exclude<keyof Brand, "theme">>;

/**
 * The brand from BRAND_FILE and the BRAND_* variables (a variable set to "" counts as unset), with
 * every problem worded as ConfigError words them: the variable, or the file's variable and field.
 */
export function readBrand(env: Record<string, string | undefined>): { brand: Brand; problems: string[] } {
  const problems: string[] = [];
  let brand: Brand = {};
  const path = env.BRAND_FILE?.trim();
  if (path) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      const reason =
        error instanceof SyntaxError
          ? `is not JSON (${error.message})`
          : `cannot be read (${String((error as NodeJS.ErrnoException).code ?? error)})`;
      problems.push(`BRAND_FILE: ${path} ${reason}`);
    }
    if (parsed !== undefined) {
      const result = brandFile.safeParse(parsed);
      if (result.success) brand = result.data;
      else
        problems.push(
          ...result.error.issues.map((issue) => {
            const field = issue.path.join(".");
            return `BRAND_FILE${field ? `.${field}` : ""} (${path}): ${issue.message}`;
          }),
        );
    }
  }
  for (const [variable, field] of Object.entries(BRAND_VARIABLES)) {
    const value = env[variable]?.trim();
    if (!value) continue;
    const result = brandFields[field].safeParse(value);
    if (result.success) brand = { ...brand, [field]: result.data };
    else problems.push(...result.error.issues.map((issue) => `${variable}: ${issue.message}`));
  }
  return { brand, problems };
}

/**
 * What a production site would show of the demonstration's brand (`common.json`'s "Box Office" and
 * 020 7946 0000, a drama number that reaches nobody): the variables to set, for a warning at every
 * start. Not refused (decision 0043), but never silent.
 */
export function unbrandedInProduction(config: { production: boolean; brand: Brand }): string[] {
  if (!config.production) return [];
  const missing: string[] = [];
  if (!config.brand.name) missing.push("BRAND_NAME");
  if (!config.brand.phone) missing.push("BRAND_PHONE");
  return missing;
}
