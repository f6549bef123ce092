import { mountRoutes } from "./app/urls/route-table.js";

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Every route is declared in app/urls/route-table.js; no file-system routing.
  ignoredRouteFiles: ["**/*"],
  routes: (defineRoutes) => defineRoutes(mountRoutes),
  serverModuleFormat: "esm",
  future: {
    v3_fetcherPersist: true,
    v3_lazyRouteDiscovery: true,
    v3_relativeSplatPath: true,
    v3_singleFetch: true,
    v3_throwAbortReason: true,
  },
};
