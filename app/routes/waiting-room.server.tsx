import type { AppLoadContext } from "@remix-run/node";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider, useTranslation } from "react-i18next";
import { SiteFooterView } from "~/components/site-footer";
import { SiteHeaderView, type FrameBrand, type FrameLink } from "~/components/site-header";
import { dateTimeFormat } from "~/i18n/format";
import type { Language } from "~/i18n/languages";
import { THEME_STYLESHEETS } from "~/themes/stylesheets";
import { pathWithDeclaredQuery } from "~/urls/page-query";
import { WAITING_PAGE_QUERY } from "~/urls/waiting-page-query";
import type { ThemeName } from "~/themes/themes";
import type { ClientEvent } from "~/views/events";
import { frameBrand } from "./frame.server";
import type { WaitingView } from "~/web/queue-gate.server";
import { resolveTheme } from "~/web/visitor.server";

// The waiting room's page, written without Remix's document (decision 0051). In an on-sale rush
// every arriving buyer asks for it, then asks again every few seconds, so it is the page the
// server writes most: a refresh written as a Remix page cost 4.9 ms of a core, with 100 KB of
// script; written here, 2.4 ms, with the same header and footer and 1 KB of script. Everything it
// says is the waiting room's (queue-gate.server.ts); this module only writes it out.

/** The script that checks the buyer's place in the background: public/waiting-room.js. */
const CHECK_SCRIPT = "/waiting-room.js";
/** Marks the region the script replaces with the next answer's, so a screen reader hears the change. */
const STATUS_ATTRIBUTE = "data-waiting-status";

/** A plain link: no router runs on this page. */
const PlainLink: FrameLink = ({ to, className, children }) => (
  <a href={to} className={className}>
    {children}
  </a>
);

interface WaitingPage {
  view: WaitingView;
  locale: Language;
  theme: ThemeName;
  wordingSet: string;
  brand: FrameBrand;
  /** The venue's number for the header, or the site's. */
  phone: string;
  /** The opening time in the buyer's language (pre-queue). */
  opens: string | null;
  nonce: string;
  /** This page's address in each language. */
  withLanguage: (language: string) => string;
  trackedEvents: ClientEvent[];
}

/** The page's HTML, and the cookies a language or theme chosen in the address asks for. */
export async function writeWaitingPage(
  request: Request,
  context: AppLoadContext,
  view: WaitingView,
  {
    supportPhone,
    wordingSet,
    trackedEvents,
  }: { supportPhone: string | null; wordingSet: string; trackedEvents: ClientEvent[] },
): Promise<{ html: string; cookies: string[] }> {
  const url = new URL(request.url);
  const locale = await context.i18n.getLocale(request);
  const { theme, remember } = await resolveTheme(request, context);
  const i18n = await context.i18n.createInstance(locale, wordingSet);
  const opens =
    view.kind === "preQueue"
      ? dateTimeFormat(locale, {
          weekday: "long",
          day: "numeric",
          month: "long",
          hour: "numeric",
          minute: "2-digit",
          timeZoneName: "short",
          timeZone: view.timeZone,
        }).format(new Date(view.opensAt))
      : null;
  // Only the parameters the page reads are carried into its links (app/urls/page-query.ts).
  const withLanguage = (language: string) =>
    pathWithDeclaredQuery(url.pathname, url.search, [{ handle: { query: WAITING_PAGE_QUERY } }], { lng: language });
  const page: WaitingPage = {
    view,
    locale,
    theme,
    wordingSet,
    brand: await frameBrand(context, locale, theme),
    phone: supportPhone ?? i18n.t("venue.supportPhone"),
    opens,
    nonce: context.cspNonce,
    withLanguage,
    trackedEvents,
  };
  const html = `<!DOCTYPE html>${renderToStaticMarkup(
    <I18nextProvider i18n={i18n} defaultNS={wordingSet}>
      <WaitingDocument {...page} />
    </I18nextProvider>,
  )}`;
  const cookies: string[] = [];
  // As the root loader does for every other page.
  if (url.searchParams.get("lng") === locale) cookies.push(await context.sessions.languageCookie.serialize(locale));
  if (remember) cookies.push(await context.sessions.themeCookie.serialize(theme));
  return { html, cookies };
}

/** Seconds between checks, when the page checks by itself. */
function refreshOf(view: WaitingView): number | undefined {
  return view.kind !== "noCookies" && view.kind !== "tooManyJoins" && view.autoRefresh
    ? view.refreshSeconds
    : undefined;
}

function WaitingDocument(page: WaitingPage) {
  const { t } = useTranslation();
  const { view } = page;
  const titleKey =
    view.kind === "noCookies"
      ? "waitingRoom.noCookies.title"
      : view.kind === "tooManyJoins"
        ? "waitingRoom.tooManyJoins.title"
        : view.kind === "preQueue"
          ? "waitingRoom.preQueue.title"
          : "waitingRoom.title";
  const refreshSeconds = refreshOf(view);
  return (
    <html lang={page.locale} data-theme={page.theme} data-wording-set={page.wordingSet}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${t(titleKey)} – ${t("brand.name")}`}</title>
        {refreshSeconds === undefined ? null : (
          <noscript>
            <meta httpEquiv="refresh" content={String(refreshSeconds)} />
          </noscript>
        )}
        <meta name="robots" content="noindex" />
        <link rel="stylesheet" href={THEME_STYLESHEETS[page.theme]} />
        <link rel="icon" href={`/logos/${page.theme}-icon.svg`} type="image/svg+xml" />
      </head>
      <body>
        <a className="skip-link" href="#main-content">
          {t("frame.skipLink")}
        </a>
        <SiteHeaderView brand={page.brand} customer={null} phone={page.phone} link={PlainLink} />
        <main id="main-content" className="page" tabIndex={-1}>
          <WaitingContent view={view} opens={page.opens} />
        </main>
        <SiteFooterView brand={page.brand} link={PlainLink} withLanguage={page.withLanguage} />
        {refreshSeconds === undefined ? null : (
          <script
            nonce={page.nonce}
            src={CHECK_SCRIPT}
            defer
            data-seconds={refreshSeconds}
            data-events={JSON.stringify(page.trackedEvents)}
          />
        )}
      </body>
    </html>
  );
}

/** "About 3 minutes", "less than a minute", or that nobody can say yet. */
function waitText(t: (key: string, options?: Record<string, unknown>) => string, seconds: number | null): string {
  if (seconds === null) return t("waitingRoom.waitUnknown");
  if (seconds < 60) return t("waitingRoom.waitUnderMinute");
  return t("waitingRoom.waitMinutes", { count: Math.ceil(seconds / 60) });
}

function RefreshControls({ view }: { view: Extract<WaitingView, { kind: "waiting" | "preQueue" }> }) {
  const { t } = useTranslation();
  return (
    <>
      <p>
        {view.autoRefresh
          ? t("waitingRoom.autoRefresh", { count: view.refreshSeconds })
          : t("waitingRoom.refreshStopped")}{" "}
        <a href={view.toggleRefreshHref}>
          {view.autoRefresh ? t("waitingRoom.stopRefresh") : t("waitingRoom.startRefresh")}
        </a>
      </p>
      <p>
        <a href={view.checkHref} className="button button--secondary">
          {t("waitingRoom.checkNow")}
        </a>
      </p>
    </>
  );
}

/** Why the buyer has no place (yet), what to do, and the way to try again. */
function Refusal({
  title,
  lines,
  retry,
  retryHref,
}: {
  title: string;
  lines: string[];
  retry: string;
  retryHref: string;
}) {
  return (
    <div className="message message--error" role="alert">
      <h1>{title}</h1>
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      <p>
        <a href={retryHref}>{retry}</a>
      </p>
    </div>
  );
}

function WaitingContent({ view, opens }: { view: WaitingView; opens: string | null }) {
  const { t } = useTranslation();
  if (view.kind === "noCookies") {
    return (
      <Refusal
        title={t("waitingRoom.noCookies.title")}
        lines={[t("waitingRoom.noCookies.message"), t("errors.noCookies.next")]}
        retry={t("waitingRoom.noCookies.retry")}
        retryHref={view.retryHref}
      />
    );
  }
  if (view.kind === "tooManyJoins") {
    return (
      <Refusal
        title={t("waitingRoom.tooManyJoins.title")}
        lines={[
          t("waitingRoom.tooManyJoins.message"),
          t("waitingRoom.tooManyJoins.when", { count: Math.ceil(view.retryAfterSeconds / 60) }),
        ]}
        retry={t("waitingRoom.tooManyJoins.retry")}
        retryHref={view.retryHref}
      />
    );
  }
  if (view.kind === "preQueue") {
    return (
      <>
        <h1>{t("waitingRoom.preQueue.title")}</h1>
        <div role="status" aria-live="polite" {...{ [STATUS_ATTRIBUTE]: "" }}>
          <p>{t("waitingRoom.preQueue.opens", { time: opens })}</p>
          <p>{t("waitingRoom.preQueue.waiting", { count: view.waiting })}</p>
        </div>
        <p>{t("waitingRoom.preQueue.fair")}</p>
        <RefreshControls view={view} />
      </>
    );
  }
  return (
    <>
      <h1>{t("waitingRoom.title")}</h1>
      <p>{t("waitingRoom.lead")}</p>
      <div role="status" aria-live="polite" className="waiting-room__place" {...{ [STATUS_ATTRIBUTE]: "" }}>
        <p>
          <strong>{t("waitingRoom.place", { place: view.place, waiting: view.waiting })}</strong>
        </p>
        <p>{waitText(t, view.estimatedWaitSeconds)}</p>
      </div>
      {view.soldOut ? (
        <div className="message message--warning">
          <p>{t("waitingRoom.soldOut")}</p>
          <p>
            <a href={view.otherDatesHref}>{t("waitingRoom.otherDates")}</a>
          </p>
        </div>
      ) : null}
      <p>{t("waitingRoom.keepPlace")}</p>
      <RefreshControls view={view} />
    </>
  );
}
