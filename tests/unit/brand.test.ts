import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCookie } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { configProblems } from "../support/config";
import { loadConfig } from "~/config/env.server";
import { brandedLocaleFiles, createI18nService, readLocaleFiles } from "~/i18n/i18n.server";
import { ROOT } from "../support/app";

// Issue 40 item 3: the brand is configuration (BRAND_FILE and BRAND_*), checked at start-up with
// a message naming the variable or the file's field, and written over the wording sets' defaults
// (a venue's own wording set still wins on its pages: decision 0043).

const problems = configProblems;

function brandFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "brand-")), "brand.json");
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

describe("the brand's configuration", () => {
  it("is empty by default: the wording sets' defaults stand, and the theme is the default one", () => {
    expect(loadConfig({})).toMatchObject({ theme: "default", brand: {} });
    expect(Object.values(loadConfig({}).brand).every((value) => value === undefined)).toBe(true);
  });

  it("comes from the brand file, each BRAND_* variable overriding its field, and THEME the file's theme", () => {
    const file = brandFile({
      name: "Riverside Tickets",
      phone: "0800 160 1234",
      email: "help@riverside.example",
      logoUrl: "https://cdn.riverside.example/logo.svg",
      legalEntity: "Riverside Tickets Ltd, 1 Quay Street, Bristol",
      theme: "regent",
    });
    expect(loadConfig({ BRAND_FILE: file })).toMatchObject({
      theme: "regent",
      brand: {
        name: "Riverside Tickets",
        phone: "0800 160 1234",
        email: "help@riverside.example",
        logoUrl: "https://cdn.riverside.example/logo.svg",
        legalEntity: "Riverside Tickets Ltd, 1 Quay Street, Bristol",
      },
    });
    const overridden = loadConfig({ BRAND_FILE: file, BRAND_PHONE: " (212) 555-0199 ", THEME: "liberty" });
    expect(overridden.brand.phone).toBe("(212) 555-0199");
    expect(overridden.brand.name).toBe("Riverside Tickets");
    expect(overridden.theme).toBe("liberty");
    expect(loadConfig({ BRAND_NAME: "Only A Name", BRAND_LOGO_URL: "/logos/mine.svg" }).brand).toMatchObject({
      name: "Only A Name",
      logoUrl: "/logos/mine.svg",
    });
  });

  it("names every bad variable and every bad field of the file, all at once", () => {
    expect(
      problems({
        BRAND_PHONE: "call us",
        BRAND_EMAIL: "not-an-address",
        BRAND_LOGO_URL: "javascript:alert(1)",
        PORT: "eighty",
      }).sort(),
    ).toEqual([
      "BRAND_EMAIL: must be an email address",
      "BRAND_LOGO_URL: must be an absolute http(s) URL or a path on this site starting with /",
      "BRAND_PHONE: must be a phone number as buyers dial it, such as 020 7946 0000 or (212) 555-0100",
      "PORT: Expected number, received nan",
    ]);
    const file = brandFile({ name: "", phone: "12", theme: "neon", phoneNumber: "0800 160 1234" });
    const found = problems({ BRAND_FILE: file });
    expect(found).toEqual(
      expect.arrayContaining([
        `BRAND_FILE.name (${file}): must not be empty`,
        expect.stringMatching(/^BRAND_FILE\.phone \(.*\): must be a phone number/),
        `BRAND_FILE.theme (${file}): must be one of default, regent, liberty`,
        expect.stringMatching(/^BRAND_FILE \(.*\): Unrecognized key\(s\) in object: 'phoneNumber'/),
      ]),
    );
  });

  it("says when the brand file cannot be read or is not JSON", () => {
    expect(problems({ BRAND_FILE: "/nonexistent/brand.json" })).toEqual([
      "BRAND_FILE: /nonexistent/brand.json cannot be read (ENOENT)",
    ]);
    const broken = brandFile("{ name: ");
    expect(problems({ BRAND_FILE: broken })[0]).toMatch(new RegExp(`^BRAND_FILE: ${broken} is not JSON`));
  });
});

describe("the brand over the wording sets", () => {
  const files = readLocaleFiles(join(ROOT, "locales"));
  const cookie = createCookie("lng");

  it("replaces common's name and phone in every language; a venue's wording set keeps its own", async () => {
    const branded = brandedLocaleFiles(files, { name: "Riverside Tickets", phone: "0800 160 1234" });
    const i18n = createI18nService(branded, "en-GB", cookie);
    for (const language of ["en-GB", "en-US"] as const) {
      const common = await i18n.createInstance(language, "common");
      expect(common.t("brand.name")).toBe("Riverside Tickets");
      expect(common.t("venue.supportPhone")).toBe("0800 160 1234");
      const regent = await i18n.createInstance(language, "regent-palace");
      expect(regent.t("venue.supportPhone")).toBe("020 7946 0101");
      // What the wording set leaves out is the brand's, not the placeholder's.
      expect(regent.t("frame.supportPrompt")).toBe(common.t("frame.supportPrompt"));
    }
    // The browser's copy says the same, under a version of its own.
    expect(JSON.parse(i18n.file("en-US/common.json")!).venue.supportPhone).toBe("0800 160 1234");
    expect(branded.version).not.toBe(files.version);
    expect(brandedLocaleFiles(files, {})).toBe(files);
    // The files read from disk are left as they were.
    expect(JSON.parse(createI18nService(files, "en-GB", cookie).file("en-GB/common.json")!).venue.supportPhone).toBe(
      "020 7946 0000",
    );
  });
});
