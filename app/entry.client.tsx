import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { fetchBackend } from "~/i18n/fetch-backend";
import { COMMON_NS, FALLBACK_LANGUAGE, isLanguage, sharedI18nextOptions } from "~/i18n/languages";
import type { PublicEnv } from "~/config/public-env";

declare global {
  interface Window {
    ENV: PublicEnv;
    /** Set by the inline feature check in root.tsx once every polyfill has arrived (or none was needed). */
    __polyfillsReady?: boolean;
    __onPolyfillsReady?: () => void;
  }
}

async function hydrate() {
  // Without Intl (not polyfilled: see app/web/polyfills.server.ts) the page stays as the
  // server rendered it, which works on its own.
  if (typeof Intl === "undefined") return;
  const html = document.documentElement;
  const language = isLanguage(html.lang) ? html.lang : FALLBACK_LANGUAGE;
  const wordingSet = html.dataset.wordingSet ?? COMMON_NS;
  await i18next
    .use(initReactI18next)
    .use(fetchBackend((lng, ns) => `/locales/${lng}/${ns}.json?v=${window.ENV.LOCALES_VERSION}`))
    .init({
      ...sharedI18nextOptions(language, wordingSet),
      load: "currentOnly",
      // Spec section 9: up to 5 retries, the first after 350 ms and doubling, at most 10 reads at once.
      maxRetries: 5,
      retryTimeout: 350,
      maxParallelReads: 10,
    });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

if (window.__polyfillsReady) void hydrate();
else window.__onPolyfillsReady = () => void hydrate();
