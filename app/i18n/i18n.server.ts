import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Cookie } from "@remix-run/node";
import { createInstance, type i18n, type Resource } from "i18next";
import { initReactI18next } from "react-i18next";
import { RemixI18Next } from "remix-i18next/server";
import { parse as parseCookieHeader } from "cookie";
import { namedCache } from "~/caches.server";
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
 * The locale files with the deployment's brand written over `common`'s defaults: its name
 * (`brand.name`) and phone (`venue.supportPhone`) in every language. A venue's wording set still
 * has the last word on that venue's pages, as it falls back to `common` only for what it leaves
 * out (docs/decisions/0043-brand-configuration.md). The version changes with the brand, so a
 * browser that cached the files under another brand asks again.
 */
export function brandedLocaleFiles(files: LocaleFiles, brand: { name?: string; phone?: string }): LocaleFiles {
  if (brand.name === undefined && brand.phone === undefined) return files;
  const resources: Resource = {};
  for (const [language, namespaces] of Object.entries(files.resources)) {
    const common = structuredClone(namespaces[COMMON_NS] ?? {}) as Record<string, Record<string, unknown>>;
    if (brand.name !== undefined) common.brand = { ...common.brand, name: brand.name };
    if (brand.phone !== undefined) common.venue = { ...common.venue, supportPhone: brand.phone };
    resources[language] = { ...namespaces, [COMMON_NS]: common };
  }
  const version = createHash("sha256")
    .update(`${files.version}\n${JSON.stringify(brand)}`)
    .digest("hex")
    .slice(0, 12);
  return { ...files, resources, version };
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

  // Every page asks which language to speak, and remix-i18next's answer (a Request to build, the
  // Accept-Language header parsed and matched) cost a page about as much as its session. The
  // answer depends only on ?lng, the lng cookie and Accept-Language, which few browsers differ in.
  const locales = namedCache<Language>("request-locales", {
    reason:
      "the language detected from ?lng, the lng cookie and Accept-Language, without parsing them again for every page",
    maxBytes: 256 * 1024,
    sizeOf: (language) => language.length,
  });

  async function localeOf(url: URL, cookieHeader: string | null, acceptLanguage: string | null): Promise<Language> {
    const asked = url.searchParams.get("lng") ?? "";
    const remembered = cookieHeader ? (parseCookieHeader(cookieHeader)[languageCookie.name] ?? "") : "";
    const key = `${asked}\n${remembered}\n${acceptLanguage ?? ""}`;
    const known = locales.get(key);
    if (known !== undefined) return known;
    const headers = new Headers();
    if (remembered) headers.set("Cookie", `${languageCookie.name}=${remembered}`);
    if (acceptLanguage) headers.set("Accept-Language", acceptLanguage);
    const query = asked ? `?${new URLSearchParams({ lng: asked }).toString()}` : "";
    const detected = await remixI18n.getLocale(new Request(`http://locale/${query}`, { headers }));
    const locale = isLanguage(detected) ? detected : defaultLanguage;
    locales.set(key, locale);
    return locale;
  }

  // The browser's copies, as served at /locales/{language}/{namespace}.json: from memory, so the
  // brand written over `common` reaches the browser as it reaches the server's render.
  const served = new Map<string, string>();
  for (const [language, namespaces] of Object.entries(files.resources))
    for (const [namespace, content] of Object.entries(namespaces))
      served.set(`${language}/${namespace}.json`, JSON.stringify(content));

  return {
    version: files.version,
    /** A translation file's JSON by its path under /locales/ ("en-GB/common.json"), or undefined. */
    file(path: string): string | undefined {
      return served.get(path);
    },
    async getLocale(request: Request): Promise<Language> {
      return localeOf(new URL(request.url), request.headers.get("Cookie"), request.headers.get("Accept-Language"));
    },
    /** getLocale's answer from a request's parts, for the door, which has no Fetch Request. */
    localeOf,
    localeStats: locales.stats,
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
          return withLanguagesFixed(created);
        })();
        instances.set(key, instance);
      }
      return instance;
    },
  };
}

export type I18nService = ReturnType<typeof createI18nService>;

/**
 * The instance with every `t` it hands out (its own, and `getFixedT`'s for the page's components
 * through react-i18next) looking words up in `instance.languages`, the languages to look in that
 * i18next works out from its language once, when the instance is made ("en-US" then "en-GB").
 * Given no list (`lngs`, i18next's own option), i18next works the same list out again from the
 * language code on every call, through `Intl.getCanonicalLocales`: a quarter of a t() call, and
 * a payment page makes about 70 (issue 54). The words found are the same; a shared instance's
 * language never changes (createInstance above), so neither does the list.
 */
export function withLanguagesFixed(instance: i18n): i18n {
  const languages = [...instance.languages];
  const fixedT = (lng: string | readonly string[] | null, ns?: string | readonly string[], keyPrefix?: string) =>
    instance.getFixedT(lng ?? languages, ns, keyPrefix);
  const t = instance.getFixedT(languages);
  return new Proxy(instance, {
    get(target, property) {
      if (property === "getFixedT") return fixedT;
      if (property === "t") return t;
      return Reflect.get(target, property, target);
    },
  });
}
