import { join } from "node:path";
import { createInstance } from "i18next";
import type { Translate } from "~/use-cases/email/order-email";
import { readLocaleFiles } from "~/i18n/i18n.server";
import { sharedI18nextOptions, type Language } from "~/i18n/languages";
import { ROOT } from "./app";

const locales = readLocaleFiles(join(ROOT, "locales"));

/** The site's common wording in one language, as an email's renderer is given it. */
export function translator(language: Language): Translate {
  const instance = createInstance();
  void instance.init({
    ...sharedI18nextOptions(language, "common"),
    resources: locales.resources,
    initImmediate: false,
  });
  return (key, options) => instance.t(key, options);
}
