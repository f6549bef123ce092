// @vitest-environment node
// The seat map's rows reach the page as bytes spliced into React's HTML (decisions 0026 and 0036):
// the page must be what the server wrote when React took them as a string (which
// seat-map.test.tsx holds to React's own elements), byte for byte. Its own file: React's server
// renderer and the browser's must not share context objects in one module registry.
import type { i18n as I18n } from "i18next";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { SeatMap } from "~/components/seat-map";
import { HtmlSpliceProvider } from "~/components/spliced-html";
import { writtenPage } from "~/entry.server";
import { readLocaleFiles } from "~/i18n/i18n.server";
import type { Language } from "~/i18n/languages";
import { htmlSplicer, type HtmlSplicer } from "~/web/spliced-html.server";
import { commonWords, unusualView } from "../support/seat-map-views";

const files = readLocaleFiles(join(process.cwd(), "locales"));
const instances = new Map<Language, I18n>();
beforeAll(async () => {
  for (const language of ["en-GB", "en-US"] as const)
    instances.set(language, await commonWords(language, files.resources));
});

const withI18n = (children: ReactNode, language: Language) => (
  <I18nextProvider i18n={instances.get(language)!}>{children}</I18nextProvider>
);

/** What the server sends of a render, splices and all, without the doctype (entry.server.tsx). */
function written(node: ReactNode, splicer: HtmlSplicer) {
  return Buffer.concat(writtenPage(renderToString(node), splicer))
    .toString("utf8")
    .replace(/^<!DOCTYPE html>/, "");
}

describe("the seat map's rows spliced into the page", () => {
  it("make the page the server wrote with them as a string, in both languages and currencies", async () => {
    for (const language of ["en-GB", "en-US"] as const) {
      const view = { ...unusualView(), currency: language === "en-GB" ? ("GBP" as const) : ("USD" as const) };
      const splicer = htmlSplicer();
      const spliced = written(
        <HtmlSpliceProvider value={splicer.sink}>{withI18n(<SeatMap view={view} />, language)}</HtmlSpliceProvider>,
        splicer,
      );
      expect(spliced).not.toContain("<!--spliced:");
      expect(spliced).toContain("<span>Dress &amp; &quot;Upper&quot; &lt;Circle&gt;, Box A, seat 1, ");
      expect(spliced).toBe(renderToString(withI18n(<SeatMap view={view} />, language)));
    }
  });
});
