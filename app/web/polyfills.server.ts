import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";

// The features spec section 7 lists, each with the file scripts/build-assets.mjs builds from a
// maintained polyfill package. Intl has no entry: a faithful Intl polyfill is larger than the
// whole site, so a browser without Intl keeps the server-rendered pages, which need no script.
export const POLYFILL_FEATURES = {
  Promise: "promise",
  fetch: "fetch",
  requestAnimationFrame: "raf",
  "String.prototype.startsWith": "starts-with",
  "String.prototype.endsWith": "ends-with",
  "String.prototype.padStart": "pad-start",
  URLSearchParams: "url-search-params",
} as const;

type Feature = keyof typeof POLYFILL_FEATURES;

const isFeature = (name: string): name is Feature => Object.hasOwn(POLYFILL_FEATURES, name);

/** Reads every built polyfill once; `bundle` joins the ones a browser asked for, in a fixed order. */
export function createPolyfillBundler(dir: string) {
  const sources = new Map<Feature, string>();
  for (const [feature, file] of Object.entries(POLYFILL_FEATURES) as [Feature, string][]) {
    const path = join(dir, `${file}.js`);
    if (existsSync(path)) sources.set(feature, readFileSync(path, "utf8"));
  }
  return {
    bundle(requested: string): string {
      const wanted = new Set(
        requested
          .split(",")
          .map((name) => name.trim())
          .filter(isFeature),
      );
      const parts = [...sources.entries()].filter(([feature]) => wanted.has(feature)).map(([, source]) => source);
      return `${parts.join(";\n")};\n`;
    },
  };
}
