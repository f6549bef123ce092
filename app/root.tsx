import { data, type LoaderFunctionArgs } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useContext, useEffect } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { UNSAFE_DataRouterStateContext } from "react-router-dom";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { currentCustomer } from "~/web/session.server";
import { captureQueryParameters, resolveTheme } from "~/web/visitor.server";
import { ErrorPage, errorKind } from "~/components/error-page";
import { useNonce } from "~/components/nonce";
import type { KeptQuery, PageQueryHandle } from "~/urls/page-query";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { POLYFILL_LOADER } from "~/web/polyfill-loader.server";
import { publicEnv, serializeForScript } from "~/config/public-env";
import { COMMON_NS, FALLBACK_LANGUAGE, isLanguage } from "~/i18n/languages";
import { THEME_STYLESHEETS } from "~/themes/stylesheets";
import { pushToDataLayer, type ClientEvent } from "~/views/events";
import { takeFlashedEvents } from "~/web/track.server";
import { isThemeName, type ThemeName } from "~/themes/themes";
import { frameBrand } from "./routes/frame.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const headers = new Headers();
  const locale = await context.i18n.getLocale(request);
  if (url.searchParams.get("lng") === locale) {
    headers.append("Set-Cookie", await context.sessions.languageCookie.serialize(locale));
  }
  const { theme, remember } = await resolveTheme(url, request.headers.get("Cookie"), context);
  if (remember) headers.append("Set-Cookie", await context.sessions.themeCookie.serialize(theme));

  const session = await context.sessions.getSession(request);
  if (captureQueryParameters(url, session)) {
    headers.append("Set-Cookie", await context.sessions.commitSession(session));
  }
  // The buyer's token masked for this response alone (app/web/csrf.server.ts): a kept page cuts
  // this value out by its bytes and puts the next response's own in its place.
  const [csrf, csrfCookie] = await context.sessions.csrfToken(request);
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);

  const flashed = await takeFlashedEvents(request, context);
  if (flashed.clear) headers.append("Set-Cookie", flashed.clear);

  const wordingSet = context.i18n.wordingSetFor(params.venueSlug ?? context.config.venueSlug);
  // Only what the header needs: every page's data reaches the browser, and an email need not.
  const customer = await currentCustomer(request, context);
  return data(
    {
      locale,
      theme,
      wordingSet,
      // What the frame shows of the configured brand; its name and phone reach the pages through
      // the wording (i18n.server.ts brandedLocaleFiles), where a venue's own wording may replace them.
      // Worked out here rather than in the header, whose script every page loads.
      brand: await frameBrand(context, locale, theme),
      // The site's own address, for the addresses a page gives crawlers and link previews.
      publicUrl: context.config.publicUrl,
      customer: customer ? { firstName: customer.firstName } : null,
      csrf,
      trackedEvents: flashed.events,
      env: publicEnv(context.config, theme, context.i18n.version),
    },
    { headers },
  );
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

/**
 * An action answered with errors (`error` or a non-empty `errors`): the page title then starts
 * "Error: ", so a screen reader user hears at once that the form needs attention (GOV.UK pattern).
 * Read from the router's state because the title is rendered before the page that failed.
 */
function hasErrors(actionData: unknown): boolean {
  if (typeof actionData !== "object" || actionData === null) return false;
  // Every page loads this: written short (a form's `errors` is an object of fields, or null).
  const { error, errors, result } = actionData as { error?: unknown; errors?: object | null; result?: unknown };
  return (
    Boolean(error) ||
    Object.keys(errors ?? {}).length > 0 ||
    // A page with several forms answers { intent, result }: the errors are the result's.
    hasErrors(result)
  );
}

export interface PageHandle extends PageQueryHandle {
  /**
   * The translation key of the page's title, in the page's wording set (from the page's data
   * where one route shows different pages: a title must not claim what the page does not)…
   */
  titleKey?: string | ((data: unknown) => string);
  /** …or the title itself, from the page's data (a show's or a venue's name). */
  title?: (data: unknown) => string | undefined;
  /** The title's key when the route's own error boundary shows the page instead: what it says. */
  errorTitleKey?: (error: unknown) => string;
  /** Without script, reload the page after this many seconds (a page waiting on something). */
  noscriptRefreshSeconds?: (data: unknown) => number | undefined;
  /**
   * A layout route that draws the page's header and `main` itself, in place of the buyer's
   * (routes/staff-frame.tsx, which every staff page sits in: app/urls/route-table.js).
   */
  frame?: "staff";
}

/** Every page reads the language and the theme from its address (the loader below). */
export const handle: PageHandle = { query: ["lng", "cfg"] };
/** The values of those that may key a kept page (app/urls/page-query.ts). */
export const keptQuery: KeptQuery = { lng: isLanguage, cfg: isThemeName };

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const error = useRouteError();
  const matches = useMatches();
  const theme: ThemeName = root?.theme ?? "default";
  const wordingSet = root?.wordingSet ?? COMMON_NS;
  // Suspends, on a navigation with script, until the next page's wording set has arrived (the
  // router's update is a transition, so the old page stays meanwhile).
  const { t, i18n } = useTranslation(wordingSet);
  const routerState = useContext(UNSAFE_DataRouterStateContext);
  // A route whose own boundary shows an error (a calendar's not-found date) titles the page as
  // that boundary words it, not as the route would have.
  const routeErrors = routerState?.errors ?? {};
  const boundary = [...matches].reverse().find((match) => match.id in routeErrors);
  const boundaryTitleKey = boundary
    ? ((boundary.handle as PageHandle | undefined)?.errorTitleKey?.(routeErrors[boundary.id]) ??
      `errors.${errorKind(routeErrors[boundary.id])}.title`)
    : undefined;
  const pageTitle = error
    ? t(`errors.${errorKind(error)}.title`)
    : boundaryTitleKey
      ? t(boundaryTitleKey)
      : [...matches]
          .reverse()
          .map((match) => {
            const handle = match.handle as PageHandle | undefined;
            const titleKey = typeof handle?.titleKey === "function" ? handle.titleKey(match.data) : handle?.titleKey;
            return handle?.title?.(match.data) ?? (titleKey ? t(titleKey) : undefined);
          })
          .find(Boolean);
  const failed = Object.values(routerState?.actionData ?? {}).some(hasErrors);
  const refreshSeconds = error
    ? undefined
    : matches
        .map((match) => (match.handle as PageHandle | undefined)?.noscriptRefreshSeconds?.(match.data))
        .find((seconds) => seconds !== undefined);
  // An error page is the buyer's, whatever its address: a staff page's 404 is the site's own.
  const ownFrame = !error && matches.some((match) => (match.handle as PageHandle | undefined)?.frame);
  const brand = t("brand.name");
  // A page named as the site is (a venue's own page on its own wording set) is named once.
  const title = `${failed ? t("frame.errorPrefix") : ""}${pageTitle && pageTitle !== brand ? `${pageTitle} – ${brand}` : brand}`;
  const location = useLocation();
  useEffect(() => {
    // Each page's tracked events (its loaders', and those an action flashed before redirecting
    // here) reach the data layer once per visit to the page.
    pushToDataLayer(
      matches.flatMap((match) => (match.data as { trackedEvents?: ClientEvent[] } | undefined)?.trackedEvents ?? []),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per navigation, not per render
  }, [location.key]);
  useEffect(() => {
    // Hydrated: the page is fully interactive, so the polyfill "Loading" status can go. The
    // data attribute lets styles (and tests) tell an enhanced page from a server-rendered one.
    const status = document.getElementById("loading-status");
    if (status) status.hidden = true;
    document.documentElement.dataset.hydrated = "true";
  }, []);

  // Every component's useTranslation() reads the page's wording set: the browser's i18next was
  // set up with the first page's, and a navigation with script to a venue's page (or away from
  // one) kept that one, so the Regent Palace's seat map said the generic number until a reload.
  return (
    <I18nextProvider i18n={i18n} defaultNS={wordingSet}>
      <html lang={root?.locale ?? FALLBACK_LANGUAGE} data-theme={theme} data-wording-set={wordingSet}>
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{title}</title>
          {refreshSeconds === undefined ? null : (
            <noscript>
              <meta httpEquiv="refresh" content={String(refreshSeconds)} />
            </noscript>
          )}
          <Meta />
          <link rel="stylesheet" href={THEME_STYLESHEETS[theme]} />
          <link rel="icon" href={`/logos/${theme}-icon.svg`} type="image/svg+xml" />
          <Links />
        </head>
        <body>
          <a className="skip-link" href="#main-content">
            {t("frame.skipLink")}
          </a>
          {ownFrame ? null : <SiteHeader brand={root?.brand ?? null} customer={root?.customer ?? null} />}
          {ownFrame ? (
            children
          ) : (
            <main id="main-content" className="page" tabIndex={-1}>
              {children}
            </main>
          )}
          {ownFrame ? null : <SiteFooter brand={root?.brand ?? null} />}
          {/* Empty until the loader shows it: text browsers ignore `hidden` and would say "Loading"
            on every page for ever. The words wait in an attribute, which nothing displays. */}
          <div id="loading-status" className="loading-status" role="status" data-text={t("frame.loading")} hidden />
          {/* Only the server writes the loader (a .server module: in the browser's build it is
            undefined, which keeps 0.5 KB out of every page's script). An element with inner HTML
            is hydrated without reading it, so the empty string leaves the server's script as sent;
            undefined would make React compare the script's text, and fail. */}
          <script nonce={nonce} dangerouslySetInnerHTML={{ __html: POLYFILL_LOADER ?? "" }} suppressHydrationWarning />
          {root ? (
            <script
              nonce={nonce}
              dangerouslySetInnerHTML={{
                __html: `window.ENV = ${serializeForScript(root.env)};`,
              }}
            />
          ) : null}
          <ScrollRestoration nonce={nonce} />
          {root ? <Scripts nonce={nonce} /> : null}
        </body>
      </html>
    </I18nextProvider>
  );
}

export default function App() {
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <AuthenticityTokenProvider token={root?.csrf ?? ""}>
      <Outlet />
    </AuthenticityTokenProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return <ErrorPage kind={errorKind(error)} status={status} />;
}
