// Builds what the Remix compiler does not: the theme stylesheets (sass) and the per-feature
// polyfill files the polyfill endpoint serves. Run before `remix build`; `--watch` rebuilds the
// stylesheets as they change (used by `npm run dev`).
import { mkdirSync, readdirSync, watch, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import postcss from "postcss";
import postcssCustomProperties from "postcss-custom-properties";
import * as sass from "sass";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const themesDir = join(root, "styles/themes");
const cssOut = join(root, "app/styles/generated");
const polyfillOut = join(root, "public/polyfills");

// Each entry is a maintained polyfill package, bundled on its own so a browser gets only what it lacks.
const POLYFILLS = {
  promise: "core-js/actual/promise",
  fetch: "whatwg-fetch",
  raf: "raf/polyfill",
  "starts-with": "core-js/actual/string/starts-with",
  "ends-with": "core-js/actual/string/ends-with",
  "pad-start": "core-js/actual/string/pad-start",
  "url-search-params": "core-js/actual/url-search-params",
};

// Browsers without custom properties (IE 11, Opera Mini, old Android WebViews) drop every
// declaration that reads one: each gets a literal copy before it, worked out from the theme's own
// tokens on :root, which those browsers use and the others override (issue 16 item 7).
const withFallbacks = postcss([postcssCustomProperties({ preserve: true })]);

async function buildThemes() {
  mkdirSync(cssOut, { recursive: true });
  for (const file of readdirSync(themesDir).filter((name) => name.endsWith(".scss"))) {
    const { css } = sass.compile(join(themesDir, file), { style: "compressed" });
    const { css: fallbacks } = await withFallbacks.process(css, { from: undefined });
    writeFileSync(join(cssOut, `${basename(file, ".scss")}.css`), fallbacks);
  }
}

async function buildPolyfills() {
  mkdirSync(polyfillOut, { recursive: true });
  await Promise.all(
    Object.entries(POLYFILLS).map(([name, entry]) =>
      build({
        stdin: { contents: `import "${entry}";`, resolveDir: root },
        bundle: true,
        minify: true,
        format: "iife",
        target: "es5",
        supported: { arrow: false },
        outfile: join(polyfillOut, `${name}.js`),
        logLevel: "warning",
      }),
    ),
  );
}

await buildThemes();
if (process.argv.includes("--watch")) {
  watch(join(root, "styles"), { recursive: true }, () => {
    buildThemes().catch((error) => console.error(error.message));
  });
} else {
  await buildPolyfills();
  console.log("themes and polyfills built");
}
