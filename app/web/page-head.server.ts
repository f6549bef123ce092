import type { AppLoadContext } from "@remix-run/node";
import type { MetaDescriptor } from "@remix-run/react";
import type { TFunction } from "i18next";
import { LANGUAGES } from "~/i18n/languages";

// What a search engine reads in a public page's head (issue 56 item 7): its one address, its
// address in each language, and a description. Worked out on the server and sent as the page's
// own meta descriptors, so the browser's script carries only the route's `meta` that returns them
// (app/components/page-head.ts), and nothing of it is in the root's script, which every page loads.

/** A description longer than this is cut at a word: search results show about this much. */
const DESCRIPTION_LENGTH = 160;

/** Whitespace made single, cut at a word to at most DESCRIPTION_LENGTH characters with "…". */
export function shortDescription(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= DESCRIPTION_LENGTH) return flat;
  const cut = flat.slice(0, DESCRIPTION_LENGTH - 1);
  const word = cut.lastIndexOf(" ");
  return `${(word > DESCRIPTION_LENGTH / 2 ? cut.slice(0, word) : cut).replace(/[\s,.;:–-]+$/, "")}…`;
}

/**
 * The page's one address: the site's public address with the request's path and only the query
 * parameters in `keep` (those that make it another page, as /access?venue=); the language, the
 * theme, tracking and a listing's filters make no other page. `keep` must be among the route's
 * declared `handle.query`, so a kept page (which is keyed by those alone) names its own address.
 */
export function canonicalUrl(request: Request, publicUrl: string, keep: readonly string[] = []): string {
  const asked = new URL(request.url);
  const url = new URL(asked.pathname, `${publicUrl}/`);
  for (const name of keep)
    for (const value of asked.searchParams.getAll(name)) if (value) url.searchParams.append(name, value);
  return url.toString();
}

export interface PageHeadOptions {
  /** The description in the page's wording set and language… */
  describe?: (t: TFunction) => string;
  /** …or as the catalogue gives it (a show's). */
  description?: string;
  keep?: readonly string[];
  /** The venue whose wording set the page reads, where the address names one. */
  venueSlug?: string;
}

/**
 * The page's description, canonical link and its alternates: one per language (`?lng=`, which
 * the root loader reads) and x-default, the address that answers in the buyer's own language.
 */
export async function pageHead(
  request: Request,
  context: AppLoadContext,
  options: PageHeadOptions,
): Promise<MetaDescriptor[]> {
  const canonical = canonicalUrl(request, context.config.publicUrl, options.keep);
  let description = options.description;
  if (description === undefined && options.describe) {
    const { t } = await context.i18n.createInstance(
      await context.i18n.getLocale(request),
      context.i18n.wordingSetFor(options.venueSlug ?? context.config.venueSlug),
    );
    description = options.describe(t as TFunction);
  }
  const inLanguage = (language: string) => {
    const url = new URL(canonical);
    url.searchParams.set("lng", language);
    return url.toString();
  };
  return [
    ...(description ? [{ name: "description", content: shortDescription(description) }] : []),
    { tagName: "link", rel: "canonical", href: canonical },
    ...LANGUAGES.map((language) => ({
      tagName: "link",
      rel: "alternate",
      hrefLang: language,
      href: inLanguage(language),
    })),
    { tagName: "link", rel: "alternate", hrefLang: "x-default", href: canonical },
  ];
}
