import type { BackendModule, ReadCallback } from "i18next";

/**
 * The browser's i18next backend: reads a wording set's JSON with fetch. i18next core does the
 * retrying (spec section 9's maxRetries, retryTimeout and maxParallelReads): a failure that may
 * pass on a later try (the network, a 5xx, a 429) answers `true` as the callback's second argument,
 * which is core's word for "try again"; one that will not (a 404, unreadable JSON) answers `false`.
 * In place of i18next-http-backend, whose XHR fallbacks and options cost every page 3 KB of script.
 */
export function fetchBackend(loadPath: (language: string, namespace: string) => string): BackendModule {
  return {
    type: "backend",
    init() {},
    read(language: string, namespace: string, callback: ReadCallback) {
      const url = loadPath(language, namespace);
      fetch(url, { credentials: "same-origin" }).then(
        (response) => {
          if (!response.ok) {
            const retry = response.status >= 500 || response.status === 429;
            callback(new Error(`failed loading ${url}: ${response.status}`), retry);
            return;
          }
          response.json().then(
            (data: Record<string, unknown>) => callback(null, data),
            () => callback(new Error(`failed parsing ${url} to json`), false),
          );
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), true),
      );
    },
  };
}
