// The themes a deployment or a buyer (?cfg=NAME) may choose. Each name has a stylesheet compiled
// from styles/themes/NAME.scss and a logo at public/logos/NAME.svg.
export const THEMES = ["default", "regent", "liberty"] as const;
export type ThemeName = (typeof THEMES)[number];

export function isThemeName(value: unknown): value is ThemeName {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value);
}

/** What each theme's logo says, for its text alternative. */
export const THEME_LOGO_TEXT: Record<ThemeName, string> = {
  default: "Box Office",
  regent: "Regent Palace Theatre",
  liberty: "Liberty Theatre",
};
