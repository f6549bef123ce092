import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCookie } from "@remix-run/node";
import { createInstance } from "i18next";
import { describe, expect, it, vi } from "vitest";
import { createI18nService, readLocaleFiles } from "~/i18n/i18n.server";
import { LANGUAGES, sharedI18nextOptions } from "~/i18n/languages";
import { ROOT } from "../support/app";

const files = readLocaleFiles(join(ROOT, "locales"));

function keys(value: unknown, prefix = ""): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

describe("locales and wording sets", () => {
  it("has at least 25 venue wording sets beside common, in both languages", () => {
    for (const language of LANGUAGES) {
      const namespaces = Object.keys(files.resources[language]!).filter((namespace) => namespace !== "common");
      expect(namespaces.length).toBeGreaterThanOrEqual(25);
    }
  });

  it("en-GB and en-US common have the same keys", () => {
    expect(keys(files.resources["en-US"]!.common).sort()).toEqual(keys(files.resources["en-GB"]!.common).sort());
  });

  it("a wording set only overrides keys that common has (a typo would silently do nothing)", () => {
    for (const language of LANGUAGES) {
      const common = new Set(keys(files.resources[language]!.common));
      for (const [namespace, resource] of Object.entries(files.resources[language]!)) {
        for (const key of keys(resource)) expect(common.has(key), `${language}/${namespace}: ${key}`).toBe(true);
      }
    }
  });

  it("uses the spec's wording for the error pages and the US wording for post", () => {
    const gb = files.resources["en-GB"]!.common as Record<string, Record<string, Record<string, string>>>;
    const us = files.resources["en-US"]!.common as typeof gb;
    expect(gb.errors!.notFound).toEqual({
      title: "Page not found",
      message: "We are sorry, but we can't find the page that you are looking for",
    });
    expect(gb.delivery!.post).toBe("Post");
    expect(us.delivery!.post).toBe("Mail");
  });

  it("the version is stable for the same files and changes with their content", () => {
    expect(files.version).toMatch(/^[0-9a-f]{12}$/);
    expect(readLocaleFiles(join(ROOT, "locales")).version).toBe(files.version);
    const copy = mkdtempSync(join(tmpdir(), "locales-"));
    cpSync(join(ROOT, "locales"), copy, { recursive: true });
    writeFileSync(join(copy, "en-GB", "common.json"), JSON.stringify({ brand: { name: "Changed" } }));
    expect(readLocaleFiles(copy).version).not.toBe(files.version);
    rmSync(copy, { recursive: true });
  });
});

describe("the shared i18next instances", () => {
  const service = createI18nService(files, "en-GB", createCookie("lng"));
  const venueSet = Object.keys(files.resources["en-GB"]!).find((namespace) => namespace !== "common")!;

  async function unshared(language: (typeof LANGUAGES)[number], wordingSet: string) {
    const instance = createInstance();
    await instance.init({
      ...sharedI18nextOptions(language, wordingSet),
      resources: files.resources,
      initImmediate: false,
    });
    return instance;
  }

  it("answer every key of common and of a venue's wording set as a fresh instance does, asked once and again", async () => {
    for (const language of LANGUAGES) {
      for (const wordingSet of ["common", venueSet]) {
        const shared = await service.createInstance(language, wordingSet);
        const fresh = await unshared(language, wordingSet);
        // Its own language and set, then (as a component may ask) common alone and the other language.
        for (const [asLanguage, asSet] of [
          [language, wordingSet],
          [language, "common"],
          [LANGUAGES.find((other) => other !== language)!, wordingSet],
        ] as const) {
          const t = shared.getFixedT(asLanguage, asSet);
          const expected = fresh.getFixedT(asLanguage, asSet);
          for (const key of keys(files.resources[language]!.common)) {
            const label = `${language}/${wordingSet} asked for ${asLanguage}/${asSet}: ${key}`;
            expect(t(key), label).toBe(expected(key));
            expect(t(key), `${label}, again`).toBe(expected(key));
          }
        }
      }
    }
  });

  it("answer as a fresh instance does where no language is named (react-i18next's getFixedT(null), t), without working out the languages to look in on each call", async () => {
    for (const language of LANGUAGES) {
      for (const wordingSet of ["common", venueSet]) {
        const shared = await service.createInstance(language, wordingSet);
        const fresh = await unshared(language, wordingSet);
        const asComponents = shared.getFixedT(null, wordingSet);
        const expected = fresh.getFixedT(null, wordingSet);
        // i18next works the list out from the language code through Intl.getCanonicalLocales
        // (issue 54): the shared instances were given it once, when made.
        const canonical = vi.spyOn(Intl, "getCanonicalLocales");
        try {
          for (const key of keys(files.resources[language]!.common)) {
            const label = `${language}/${wordingSet}: ${key}`;
            expect(asComponents(key), label).toBe(expected(key));
            expect(shared.t(key), label).toBe(fresh.t(key));
            expect(shared.t(key, { count: 2, ns: "common" }), label).toBe(fresh.t(key, { count: 2, ns: "common" }));
          }
          const calledByShared = canonical.mock.calls.length;
          canonical.mockClear();
          for (const key of keys(files.resources[language]!.common)) {
            asComponents(key);
            shared.t(key);
          }
          expect(canonical).not.toHaveBeenCalled();
          expect(calledByShared).toBeGreaterThan(0); // the fresh instance's calls, counted as a check on the spy
        } finally {
          canonical.mockRestore();
        }
      }
    }
  });

  it("fill every string's placeholders as a fresh instance does, through a bound t() and the instance's own", async () => {
    const valuesFor = (text: unknown, round: number) =>
      Object.fromEntries(
        [...String(text).matchAll(/\{\{-?\s*([^},\s]+)[^}]*\}\}/g)].map((match, index) => [
          match[1]!,
          index % 2 === 0 ? `value ${match[1]!} ${round}` : 1000 * round + index,
        ]),
      );
    let filled = 0;
    for (const language of LANGUAGES) {
      for (const wordingSet of ["common", venueSet]) {
        const shared = await service.createInstance(language, wordingSet);
        const fresh = await unshared(language, wordingSet);
        const t = shared.getFixedT(language, wordingSet);
        const expected = fresh.getFixedT(language, wordingSet);
        for (const key of keys(files.resources[language]!.common)) {
          const raw = fresh.t(key, { skipInterpolation: true });
          if (!String(raw).includes("{{")) continue;
          // A plural form is asked for by its key without the suffix, with a count.
          const base = key.replace(/_(zero|one|two|few|many|other)$/, "");
          const asked =
            base === key
              ? [1, 2].map((round) => [key, valuesFor(raw, round)] as const)
              : [0, 1, 2, 5].map((count) => [base, { ...valuesFor(raw, count), count }] as const);
          for (const [asKey, values] of asked) {
            const label = `${language}/${wordingSet}: ${asKey} with ${JSON.stringify(values)}`;
            expect(t(asKey, values), label).toBe(expected(asKey, values));
            expect(shared.t(asKey, values), `${label}, from the instance`).toBe(fresh.t(asKey, values));
            filled += 1;
          }
        }
      }
    }
    // The locale files have strings with placeholders in them, or this test proves nothing.
    expect(filled).toBeGreaterThan(100);
  });

  it("leave counts, contexts and unfilled placeholders to i18next", async () => {
    const shared = await service.createInstance("en-GB", "common");
    const fresh = await unshared("en-GB", "common");
    const t = shared.getFixedT("en-GB", "common");
    const expected = fresh.getFixedT("en-GB", "common");
    for (const key of keys(files.resources["en-GB"]!.common)) {
      const base = key.replace(/_(one|other|zero|two|few|many)$/, "");
      if (base === key) continue;
      for (const count of [0, 1, 2, 5])
        expect(t(base, { count }), `${base} × ${count}`).toBe(expected(base, { count }));
    }
    expect(t("home.showAt", { show: "Hamlet" })).toBe(expected("home.showAt", { show: "Hamlet" }));
    expect(t("home.showAt", { show: "Hamlet", venue: "The Globe", city: "London", extra: { a: 1 } })).toBe(
      "Hamlet at The Globe, London",
    );
    expect(t("home.showAt", { show: "Hamlet", venue: "The Globe", city: "London", lng: "en-US" })).toBe(
      expected("home.showAt", { show: "Hamlet", venue: "The Globe", city: "London", lng: "en-US" }),
    );
  });

  it("answer a call i18next words itself (a list, an object) as a fresh instance does, asked once and again", async () => {
    for (const language of LANGUAGES) {
      const shared = await service.createInstance(language, "common");
      const fresh = await unshared(language, "common");
      const t = shared.getFixedT(language, "common");
      const expected = fresh.getFixedT(language, "common");
      for (const items of [["Visa", "Mastercard"], ["Visa", "Visa Debit", "American Express"], ["Visa"]])
        for (const round of [1, 2]) {
          const label = `${language}: ${items.join(", ")}, round ${round}`;
          expect(t("validation.orList", { items }), label).toBe(expected("validation.orList", { items }));
          expect(shared.t("validation.orList", { items }), label).toBe(fresh.t("validation.orList", { items }));
        }
      expect(t("validation.orList", { items: ["Visa", "Mastercard"] })).not.toBe(
        t("validation.orList", { items: ["Visa", "American Express"] }),
      );
      // Asked for whole, a group of strings is an object: each call has its own, as i18next gives.
      const first = t("validation", { returnObjects: true });
      expect(first).toEqual(expected("validation", { returnObjects: true }));
      expect(t("validation", { returnObjects: true })).toEqual(first);
    }
  });

  it("put each call's own values into a string, and honour a key prefix and a default", async () => {
    const shared = await service.createInstance("en-GB", "common");
    const t = shared.getFixedT("en-GB", "common");
    expect(t("home.showAt", { show: "Hamlet", venue: "The Globe", city: "London" })).toBe(
      "Hamlet at The Globe, London",
    );
    expect(t("home.showAt", { show: "Cats", venue: "The Palladium", city: "London" })).toBe(
      "Cats at The Palladium, London",
    );
    expect(shared.getFixedT("en-GB", "common", "errors.notFound")("title")).toBe("Page not found");
    expect(t("no.such.key", "A default")).toBe("A default");
    expect(t("no.such.key", "Another default")).toBe("Another default");
  });
});
