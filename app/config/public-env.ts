import type { Config } from "./env.server";
import type { ThemeName } from "~/themes/themes";

/**
 * The environment block embedded in every page (spec section 3): only what a browser may know.
 * Service addresses stay out: the browser never calls those services, our server does.
 */
export interface PublicEnv {
  DOMAIN: string;
  LANGUAGE: string;
  APP_ENV: string;
  THEME: ThemeName;
  ROUTING_TYPE: string;
  SHOW_PAGE: string | null;
  TITLE_SLUG: string | null;
  VENUE_SLUG: string | null;
  EXPERIMENTATION_ID: string | null;
  CARD_TOKENISATION_SCRIPT_URL: string | null;
  LOCALES_VERSION: string;
}

export function publicEnv(config: Config, theme: ThemeName, localesVersion: string): PublicEnv {
  return {
    DOMAIN: config.domain,
    LANGUAGE: config.language,
    APP_ENV: config.appEnv,
    THEME: theme,
    ROUTING_TYPE: config.routingType,
    SHOW_PAGE: config.showPage ?? null,
    TITLE_SLUG: config.titleSlug ?? null,
    VENUE_SLUG: config.venueSlug ?? null,
    EXPERIMENTATION_ID: config.experimentationId ?? null,
    CARD_TOKENISATION_SCRIPT_URL: config.cardTokenisationScriptUrl ?? null,
    LOCALES_VERSION: localesVersion,
  };
}

/** JSON for an inline script: `<` escaped so no value can close the script element. */
export function serializeForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
