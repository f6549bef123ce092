import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Cookie } from "@remix-run/node";
import { createInstance, type i18n, type Resource } from "i18next";
import { initReactI18next } from "react-i18next";
import { RemixI18Next } from "remix-i18next/server";
import { COMMON_NS, LANGUAGES, isLanguage, sharedI18nextOptions, type Language } from "./languages";

export interface LocaleFiles {
  resources: Resource;
  /** A hash of every translation file: the client asks for `?v=<version>`, so a cached old file never meets a new page. */
  version: string;
  namespaces: ReadonlySet<string>;
}

/** Reads locales/<language>/<namespace>.json once, at start-up. */
export function readLocaleFiles(dir: string): LocaleFiles {
  const resources: Resource = {};
  const namespaces = new Set<string>();
  const hash = createHash("sha256");
  for (const language of LANGUAGES) {
    resources[language] = {};
    for (const file of readdirSync(join(dir, language))
      .filter((name) => name.endsWith(".json"))
      .sort()) {
      const text = readFileSync(join(dir, language, file), "utf8");
      const namespace = file.slice(0, -".json".length);
      resources[language]![namespace] = JSON.parse(text) as Record<string, unknown>;
      namespaces.add(namespace);
      hash.update(`${language}/${file}\n${text}\n`);
    }
  }
  return { resources, version: hash.digest("hex").slice(0, 12), namespaces };
}

/**
 * i18next works out a language's fallback chain (en-GB, en, the fallback language) twice on every
 * t(), which was a noticeable share of a page's CPU (issue 19's profile). A shared instance's
 * options never change after init, so each chain is worked out once and kept.
 */
function keepFallbackChains(instance: i18n) {
  const utils = instance.services.languageUtils as {
    toResolveHierarchy(code: string, fallbackCode?: unknown): readonly string[];
  };
  const resolve = utils.toResolveHierarchy.bind(utils);
  const chains = new Map<string, readonly string[]>();
  utils.toResolveHierarchy = (code, fallbackCode) => {
    if (fallbackCode !== undefined || typeof code !== "string") return resolve(code, fallbackCode);
    let chain = chains.get(code);
    if (!chain) {
      chain = Object.freeze([...resolve(code)]);
      chains.set(code, chain);
    }
    return [...chain];
  };
}

/** What react-i18next's bound t() adds to a call that asks for nothing but a key. */
const BOUND_OPTIONS = new Set(["lng", "lngs", "ns", "keyPrefix"]);

/**
 * Most of a page's t() calls ask for a fixed string by its key, with nothing to put in it; after
 * the fallback chains, resolving those was still a tenth of a page's CPU (issue 19's profile of
 * the home and payment pages). A shared instance's resources never change, so such a string is
 * worked out once per language, namespace and key, and kept. A call with anything else in its
 * options (values to interpolate, a count, a default, returnObjects) is translated as before.
 */
function keepPlainTranslations(instance: i18n) {
  const translate = instance.t.bind(instance) as (key: unknown, options?: unknown) => unknown;
  const kept = new Map<string, unknown>();
  const plain = (options: unknown): options is Record<string, unknown> | undefined => {
    if (options === undefined) return true;
    if (typeof options !== "object" || options === null) return false;
    for (const name in options)
      if (!BOUND_OPTIONS.has(name) && (options as Record<string, unknown>)[name] !== undefined) return false;
    return true;
  };
  const keyOf = (key: string, options: Record<string, unknown> | undefined) => {
    const ns = options?.ns;
    const lngs = options?.lngs;
    return `${String(options?.lng ?? "")}\u0000${Array.isArray(lngs) ? lngs.join(",") : ""}\u0000${
      Array.isArray(ns) ? ns.join(",") : String(ns ?? "")
    }\u0000${key}`;
  };
  instance.t = ((key: unknown, options?: unknown) => {
    if (typeof key !== "string" || !plain(options)) return translate(key, options);
    const cacheKey = keyOf(key, options);
    if (kept.has(cacheKey)) return kept.get(cacheKey);
    const text = translate(key, options);
    // Only strings: an object answer could be changed by whoever receives it.
    if (typeof text === "string") kept.set(cacheKey, text);
    return text;
  }) as typeof instance.t;
}

export function createI18nService(files: LocaleFiles, defaultLanguage: Language, languageCookie: Cookie) {
  // Server detection order (issue 2): ?lng, the lng cookie, Accept-Language, the deployment's language.
  const remixI18n = new RemixI18Next({
    detection: {
      supportedLanguages: [...LANGUAGES],
      fallbackLanguage: defaultLanguage,
      cookie: languageCookie,
      order: ["searchParams", "cookie", "header"],
    },
  });

  const instances = new Map<string, Promise<i18n>>();

  return {
    version: files.version,
    async getLocale(request: Request): Promise<Language> {
      const locale = await remixI18n.getLocale(request);
      return isLanguage(locale) ? locale : defaultLanguage;
    },
    /**
     * The wording set for a venue: its own namespace where one exists, otherwise `common`.
     * Wording sets are named after the venue they word.
     */
    wordingSetFor(venueSlug: string | undefined): string {
      return venueSlug && files.namespaces.has(venueSlug) ? venueSlug : COMMON_NS;
    },
    /**
     * The i18next instance for a language and wording set. Built once per pair and shared by
     * every request: nothing changes an instance after it is made (no changeLanguage, no added
     * resources), and making one per request cost as much as rendering a small page.
     */
    async createInstance(language: Language, wordingSet: string): Promise<i18n> {
      const key = `${language}\u0000${wordingSet}`;
      let instance = instances.get(key);
      if (!instance) {
        instance = (async () => {
          const created = createInstance();
          await created.use(initReactI18next).init({
            ...sharedI18nextOptions(language, wordingSet),
            resources: files.resources,
            initImmediate: false,
          });
          keepFallbackChains(created);
          keepPlainTranslations(created);
          return created;
        })();
        instances.set(key, instance);
      }
      return instance;
    },
  };
}

export type I18nService = ReturnType<typeof createI18nService>;
