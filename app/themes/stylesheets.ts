// The compiled theme stylesheets (scripts/build-assets.mjs writes them from styles/themes/*.scss);
// importing a .css file gives its fingerprinted URL under /build.
import defaultTheme from "~/styles/generated/default.css";
import liberty from "~/styles/generated/liberty.css";
import regent from "~/styles/generated/regent.css";
import type { ThemeName } from "./themes";

export const THEME_STYLESHEETS: Record<ThemeName, string> = { default: defaultTheme, regent, liberty };
