import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The layers of design.md, one direction (routes → services → domain → store), as import rules:
// each file belongs to one layer by its folder, and may not import a layer above it or one it must
// not reach. docs/decisions/0023-layers.md says which folder is which layer, and why.
const from = (pattern, message) => ({ regex: pattern, message });
const folders = (names) => `^~/(${names.join("|")})(/|$)`;
const above = {
  routes: from(folders(["routes", "root", "entry\\.client", "entry\\.server"]), "nothing imports a route module."),
  composition: from(
    folders(["composition"]),
    "only server.ts builds the services; the request context is ~/web/context.",
  ),
  web: from(folders(["web"]), "server-side web code (requests, cookies, responses) is for routes."),
  components: from(folders(["components"]), "presentational components are for routes and pages."),
  services: from(folders(["use-cases"]), "use cases (app/use-cases) are called by the web layer, not from below it."),
  domain: from(folders(["ticketing", "payments"]), "read what the domain shares through app/views, not the domain."),
  store: from(folders(["db"]), "only the domain and the use cases reach the store."),
};
const parentFolder = from("^\\.\\./", "import another folder through ~/, so the layer rules see it.");
const serverModule = from("\\.server(\\.[jt]sx?)?$", "components run in the browser: no .server modules.");
const remix = from(
  "^(@remix-run/|react(-dom)?$|remix-utils|remix-i18next|@conform-to/)",
  "the domain is plain TypeScript.",
);
const layer = (files, ...patterns) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns: [parentFolder, ...patterns] }] },
});

export default tseslint.config(
  {
    ignores: [
      "build/",
      "public/build/",
      "public/polyfills/",
      "app/styles/generated/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // React code; Playwright fixtures are not hooks, whatever their `use` parameter is called.
    files: ["app/**/*.{ts,tsx}", "tests/**/*.tsx"],
    plugins: { react, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    settings: {
      react: { version: "detect" },
      formComponents: ["Form"],
      linkComponents: [{ name: "Link", linkAttribute: "to" }],
    },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs["jsx-runtime"].rules,
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.configs.strict.rules,
      "react/prop-types": "off",
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: { ...globals.node } },
  },
  // A route may read the root's loader type and share helpers with its neighbours through ./.
  layer(
    ["app/routes/**", "app/root.tsx", "app/entry.*.tsx"],
    from("^~/routes/", "route modules share helpers through ./"),
    above.composition,
    above.store,
  ),
  layer(["app/composition/**"], above.routes, above.components),
  layer(["app/web/**"], above.routes, above.composition, above.components),
  layer(
    ["app/components/**"],
    serverModule,
    above.routes,
    above.composition,
    above.web,
    above.services,
    above.domain,
    above.store,
  ),
  layer(["app/use-cases/**"], above.routes, above.composition, above.web, above.components),
  layer(
    ["app/ticketing/**", "app/payments/**"],
    remix,
    above.routes,
    above.composition,
    above.web,
    above.components,
    above.services,
  ),
  layer(["app/db/**"], from("^~/(?!db/|clock$)", "the store imports nothing above it."), remix),
  layer(
    [
      "app/config/**",
      "app/forms/**",
      "app/i18n/**",
      "app/urls/**",
      "app/themes/**",
      "app/views/**",
      "app/logging/**",
      "app/monitoring/**",
      "app/clock.ts",
      "app/caches.server.ts",
      "app/legal.ts",
    ],
    above.routes,
    above.composition,
    above.web,
    above.components,
    above.services,
    above.domain,
    above.store,
  ),
);
