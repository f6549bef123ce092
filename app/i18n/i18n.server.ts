import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Cookie } from "@remix-run/node";
import { createInstance, type i18n, type Resource } from "i18next";
import { initReactI18next } from "react-i18next";
import { RemixI18Next } from "remix-i18next/server";
import { keptByKey } from "~/kept";
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
 * Variable names that are also i18next options: a string using one is translated by i18next. The
 * count is the exception: a string is kept per plural form, and the count fills it like any value.
 */
const OPTION_NAMES = new Set(["context", "ordinal", "replace", "defaultValue", "lng", "lngs", "ns", "keyPrefix"]);
const PLACEHOLDER = /\{\{(.+?)\}\}/g;

/** A value JSON writes down as it is: text, a finite number (not -0, which it writes as 0), true or false. */
const isWrittenWhole = (value: unknown) =>
  typeof value === "string" ||
  typeof value === "boolean" ||
  (typeof value === "number" && Number.isFinite(value) && !Object.is(value, -0));
/** How many of i18next's own answers are kept (per language and wording set). */
const TRANSLATED_KEPT = 5_000;

/**
 * A string as kept: `parts` around the `names` of the values put between them, or `undefined`
 * when i18next must translate each call itself (nesting, formats, unescaped or nested values).
 */
interface KeptString {
  parts?: string[];
  names?: string[];
  /** What a call with nothing in its options answers, once asked. */
  plain?: unknown;
  hasPlain: boolean;
}

function compile(raw: unknown): Pick<KeptString, "parts" | "names"> {
  if (typeof raw !== "string" || raw.includes("$t(")) return {};
  const parts: string[] = [];
  const names: string[] = [];
  let last = 0;
  for (const match of raw.matchAll(PLACEHOLDER)) {
    const name = match[1]!.trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || OPTION_NAMES.has(name)) return {};
    parts.push(raw.slice(last, match.index));
    names.push(name);
    last = match.index! + match[0].length;
  }
  parts.push(raw.slice(last));
  return { parts, names };
}

/**
 * The values of a call that only fills a kept string's placeholders: every option is one of its
 * names, with a string or a number. Anything else (a count, a default, a missing value) is
 * i18next's to answer.
 */
function fills(kept: KeptString, options: Record<string, unknown>): boolean {
  const names = kept.names!;
  let given = 0;
  for (const name in options) {
    const value = options[name];
    if (value === undefined && BOUND_OPTIONS.has(name)) continue;
    if (typeof value !== "string" && typeof value !== "number") return false;
    // A count picks the plural form (kept apart), whether or not the string shows it.
    if (name === "count") {
      if (typeof value !== "number") return false;
    } else if (!names.includes(name)) return false;
    given += 1;
  }
  return given > 0 && names.every((name) => name in options);
}

function fill(kept: KeptString, options: Record<string, unknown>): string {
  const { parts, names } = kept;
  let text = parts![0]!;
  for (let index = 0; index < names!.length; index += 1) text += String(options[names![index]!]) + parts![index + 1]!;
  return text;
}

/**
 * Resolving a string through i18next on every t() (options copied, the key looked up along the
 * fallback chain, the interpolation's regular expressions run) was a tenth of a page's CPU in
 * issue 19's profiles, and its bound t() a further few per cent. A shared instance's resources
 * never change, so each string is looked up once per language, namespaces, prefix and key:
 * kept as it reads, or as the text around its placeholders, which each call fills with its own
 * values. A call asking for more than that (a count, a context, a default, an object, a nested
 * key or a format) is translated by i18next as before; so is a string whose placeholders a call
 * leaves unfilled, which i18next words with a warning.
 */
function keepTranslations(instance: i18n) {
  const translate = instance.t.bind(instance) as (key: unknown, options?: unknown) => unknown;
  const getFixedT = instance.getFixedT.bind(instance);
  // By scope (and plural form, when there is one), then key: a page's hundreds of t() calls look
  // up strings they already hold, without joining a new key string for each (issue 19).
  const kept = new Map<string, Map<string, KeptString>>();
  const keptIn = (scope: string, form: string) => {
    const at = form ? `${scope}\u0000${form}` : scope;
    let strings = kept.get(at);
    if (!strings) {
      strings = new Map();
      kept.set(at, strings);
    }
    return strings;
  };

  const plurals = new Map<string, Intl.PluralRules>();
  /** Which of a string's plural forms a count picks: i18next's own choice (a zero first, then the rules). */
  const pluralForm = (lng: unknown, count: number) => {
    if (count === 0) return "zero";
    const language = typeof lng === "string" ? lng : instance.language;
    let rules = plurals.get(language);
    if (!rules) {
      rules = new Intl.PluralRules(language);
      plurals.set(language, rules);
    }
    return rules.select(count);
  };
  const keptString = (scope: string, key: string, bound: Record<string, unknown>, options: unknown) => {
    const count = (options as { count?: unknown } | undefined)?.count;
    const form = typeof count === "number" ? pluralForm(bound.lng, count) : "";
    const strings = keptIn(scope, form);
    let entry = strings.get(key);
    if (!entry) {
      const raw = translate(key, { ...bound, ...(form ? { count } : {}), skipInterpolation: true });
      entry = { ...compile(raw), hasPlain: false };
      strings.set(key, entry);
    }
    return entry;
  };
  const answer = (entry: KeptString, key: string, bound: Record<string, unknown>, options: unknown) => {
    if (options === undefined) {
      if (!entry.hasPlain) {
        const text = translate(key, bound);
        // Only strings: an object answer could be changed by whoever receives it.
        if (typeof text !== "string") return text;
        entry.plain = text;
        entry.hasPlain = true;
      }
      return entry.plain;
    }
    if (entry.parts && typeof options === "object" && options !== null) {
      const values = options as Record<string, unknown>;
      if (fills(entry, values)) return fill(entry, values);
    }
    return undefined;
  };
  const scopeOf = (lng: unknown, lngs: unknown, ns: unknown) =>
    `${String(lng ?? "")}\u0000${Array.isArray(lngs) ? lngs.join(",") : ""}\u0000${Array.isArray(ns) ? ns.join(",") : String(ns ?? "")}`;
  /** Options that only say where to look (what react-i18next's bound t() passes), or none. */
  const onlyBound = (options: unknown): options is Record<string, unknown> | undefined => {
    if (options === undefined) return true;
    if (typeof options !== "object" || options === null) return false;
    for (const name in options)
      if (!BOUND_OPTIONS.has(name) && (options as Record<string, unknown>)[name] !== undefined) return false;
    return true;
  };

  /** Options saying where to look other than where a bound t() looks. */
  const overridesBound = (options: object) => {
    for (const name of BOUND_OPTIONS) if ((options as Record<string, unknown>)[name] !== undefined) return true;
    return false;
  };

  /** The kept answer for a key looked up in `bound` (whose scope is given), or undefined for i18next's own. */
  const fromKept = (scope: string, key: string, bound: Record<string, unknown>, options: unknown) =>
    answer(keptString(scope, key, bound, options), key, bound, onlyBound(options) ? undefined : options);

  // What i18next itself answered a call a kept string cannot (a list of card brands, a value
  // formatted), kept by everything the call gave: one such call on the payment page,
  // `validation.orList`, cost 2.6% of its CPU (issue 19). Only calls whose values JSON writes
  // down whole (text, finite numbers, lists of them) and only text answers are kept, up to
  // TRANSLATED_KEPT of them, the least recently asked for going first.
  const translated = keptByKey<string>(TRANSLATED_KEPT);
  const callKey = (scope: string, key: string, options: unknown) => {
    if (typeof options !== "object" || options === null) return undefined;
    for (const value of Object.values(options))
      if (Array.isArray(value) ? !value.every(isWrittenWhole) : value !== undefined && !isWrittenWhole(value))
        return undefined;
    return `${scope}\u0000${key}\u0000${JSON.stringify(options)}`;
  };
  const viaI18next = (scope: string, key: string, options: unknown, call: () => unknown) => {
    const at = callKey(scope, key, options);
    if (at === undefined) return call();
    // An answer that is not text (an object asked for) is not kept: each call gets its own.
    let answered: unknown;
    const text = translated.get(at, () => {
      answered = call();
      return typeof answered === "string" ? answered : undefined;
    });
    return text ?? answered;
  };

  instance.t = ((key: unknown, options?: unknown) => {
    if (typeof key !== "string" || (options !== undefined && (typeof options !== "object" || options === null)))
      return translate(key, options);
    const given = (options ?? {}) as Record<string, unknown>;
    if (typeof given.keyPrefix === "string" && given.keyPrefix !== "") return translate(key, options);
    const bound = { lng: given.lng, lngs: given.lngs, ns: given.ns };
    const scope = scopeOf(bound.lng, bound.lngs, bound.ns);
    return fromKept(scope, key, bound, options) ?? viaI18next(scope, key, options, () => translate(key, options));
  }) as typeof instance.t;

  // react-i18next's useTranslation asks for a bound t() on every render: each is made once, and
  // answers what it can from the kept strings without copying its options first.
  const fixed = new Map<string, ReturnType<typeof getFixedT>>();
  instance.getFixedT = ((lng: unknown, ns: unknown, keyPrefix: unknown) => {
    if ((lng != null && typeof lng !== "string") || (keyPrefix != null && typeof keyPrefix !== "string"))
      return getFixedT(lng as string, ns as string, keyPrefix as string);
    const bound = { lng: lng ?? undefined, ns: ns ?? undefined };
    const scope = scopeOf(bound.lng, undefined, bound.ns);
    const fixedKey = `${scope}\u0000${String(keyPrefix ?? "")}`;
    let t = fixed.get(fixedKey);
    if (!t) {
      const original = getFixedT(lng as string, ns as string, keyPrefix as string);
      const call = original as unknown as ((...args: unknown[]) => unknown) & Record<string, unknown>;
      const separator = instance.options.keySeparator || ".";
      t = Object.assign(
        (key: unknown, options?: unknown, ...rest: unknown[]) => {
          if (
            typeof key !== "string" ||
            rest.length > 0 ||
            (options !== undefined && (typeof options !== "object" || options === null || overridesBound(options)))
          )
            return call(key, options, ...rest);
          const fullKey = keyPrefix ? `${keyPrefix as string}${separator}${key}` : key;
          return (
            fromKept(scope, fullKey, bound, options) ?? viaI18next(scope, fullKey, options, () => call(key, options))
          );
        },
        { lng: call.lng, lngs: call.lngs, ns: call.ns, keyPrefix: call.keyPrefix },
      ) as unknown as ReturnType<typeof getFixedT>;
      fixed.set(fixedKey, t);
    }
    return t;
  }) as typeof instance.getFixedT;
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
          keepTranslations(created);
          return created;
        })();
        instances.set(key, instance);
      }
      return instance;
    },
  };
}

export type I18nService = ReturnType<typeof createI18nService>;
