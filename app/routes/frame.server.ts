import type { AppLoadContext } from "@remix-run/node";
import type { FrameBrand } from "~/components/site-header";
import { telHref } from "~/components/support-phone";
import { COMMON_NS, type Language } from "~/i18n/languages";
import { LEGAL_DOCUMENTS } from "~/legal";
import { THEME_LOGO_TEXT, type ThemeName } from "~/themes/themes";
import { accessPath } from "~/urls/paths";

/**
 * What the frame (header and footer) shows of the configured brand, for the root loader and the
 * waiting room's page alike; its name and phone reach the pages through the wording
 * (i18n.server.ts brandedLocaleFiles), where a venue's own wording may replace them.
 */
export async function frameBrand(context: AppLoadContext, locale: Language, theme: ThemeName): Promise<FrameBrand> {
  const { brand } = context.config;
  return {
    logo: brand.logoUrl
      ? {
          src: brand.logoUrl,
          alt: brand.name ?? (await context.i18n.createInstance(locale, COMMON_NS)).t("brand.name"),
        }
      : brand.name !== undefined && theme === "default"
        ? // The default theme's logo is a generic "Box Office" wordmark: a named brand without a
          // logo of its own is written out instead. The venues' themes keep their venues' logos.
          { wordmark: brand.name }
        : { src: `/logos/${theme}.svg`, alt: THEME_LOGO_TEXT[theme] },
    // The footer's seller line: [wording key, value, link], those configured.
    seller: [
      ["frame.soldBy", brand.legalEntity, null],
      ["frame.phonePrompt", brand.phone, brand.phone && telHref(brand.phone)],
      ["frame.emailPrompt", brand.email, brand.email && `mailto:${brand.email}`],
    ].filter((part): part is [string, string, string | null] => Boolean(part[1])),
    // The footer's links, listed here rather than in the footer, whose script every page loads:
    // the checkout pages have no room in their script budget for one more (decision 0050).
    links: [
      [accessPath(), "access.footerLink"],
      ...LEGAL_DOCUMENTS.map((document): [string, string] => [`/legal/${document}`, `legal.${document}.title`]),
    ],
  };
}
