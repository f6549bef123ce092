import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider, useTranslation } from "react-i18next";
import type { AppLoadContext } from "@remix-run/node";
import { namedCache } from "~/caches.server";
import { SiteFooterView } from "~/components/site-footer";
import { SiteHeaderView, type FrameBrand, type FrameLink } from "~/components/site-header";
import { dateTimeFormat } from "~/i18n/format";
import { LANGUAGES, type Language } from "~/i18n/languages";
import { THEME_STYLESHEETS } from "~/themes/stylesheets";
import type { ThemeName } from "~/themes/themes";
import type { DoorPage, DoorPages } from "~/web/door.server";
import type { WaitingView } from "~/web/queue-gate.server";
import { frameBrand } from "./frame.server";

// The waiting room's page, written by the door (app/web/door.server.ts) before Remix is asked
// anything (decisions 0051 and 0056). In an on-sale rush every arriving buyer gets it, then asks
// again every few seconds, so it is the page the server writes most. Its frame (header, footer,
// the theme's stylesheet) and its fixed wording are rendered with React once per language, theme,
// wording set, venue phone and shape of page, and kept as a template; a request only fills in its
// numbers, its links and its few sentences that hold a number. Everything it says is the waiting
// room's (queue-gate.server.ts); this module only writes it out.

/** The script that checks the buyer's place in the background: public/waiting-room.js. */
const CHECK_SCRIPT = "/waiting-room.js";
/** Marks the region the script replaces with the next answer's, so a screen reader hears the change. */
const STATUS_ATTRIBUTE = "data-waiting-status";

/** A slot in a template, filled per request; no wording, name or address contains "§§". */
const slot = (name: string) => `§§${name}§§`;
const SLOTS = /§§(\w+)§§/g;

/** A plain link: no router runs on this page. */
const PlainLink: FrameLink = ({ to, className, children }) => (
  <a href={to} className={className}>
    {children}
  </a>
);

/** The sentences with a number in them, and the page's links: a request's own, put in the slots. */
interface Filling {
  [name: string]: string;
}

/** What a template is made for: everything that shapes the page but not its numbers. */
interface Shape {
  locale: Language;
  theme: ThemeName;
  wordingSet: string;
  phone: string | null;
  kind: WaitingView["kind"];
  autoRefresh: boolean;
  /** Seconds between checks, when the page checks by itself: its sentence says how many. */
  refreshSeconds: number | null;
  soldOut: boolean;
}

interface TemplateProps {
  shape: Shape;
  brand: FrameBrand;
  /** The venue's number for the header, or the site's. */
  phone: string;
}

/** The door's pages: templates made once per shape, kept in a named, bounded cache. */
export function createDoorPages(context: Pick<AppLoadContext, "config" | "i18n">): DoorPages {
  const templates = namedCache<string>("waiting-page-templates", {
    reason:
      "the waiting page's frame and fixed wording, per language, theme, wording set, venue phone and shape, so that the door writes a page without rendering it",
    maxBytes: 2 * 1024 * 1024,
    sizeOf: (template) => template.length * 2,
  });

  // The sentences with a number in them ("about 4 minutes"), as i18next words them: a page asks
  // for one or two, and the same few numbers come up again and again in a queue.
  const sentences = namedCache<string>("waiting-page-sentences", {
    reason: "the waiting page's sentences with a number in them, per language, wording set and number",
    maxBytes: 512 * 1024,
    sizeOf: (sentence) => sentence.length * 2,
  });

  async function templateFor(shape: Shape): Promise<string> {
    const key = JSON.stringify(shape);
    const kept = templates.get(key);
    if (kept !== undefined) return kept;
    const i18n = await context.i18n.createInstance(shape.locale, shape.wordingSet);
    const brand = await frameBrand(context as AppLoadContext, shape.locale, shape.theme);
    const html = `<!DOCTYPE html>${renderToStaticMarkup(
      <I18nextProvider i18n={i18n} defaultNS={shape.wordingSet}>
        <WaitingDocument shape={shape} brand={brand} phone={shape.phone ?? i18n.t("venue.supportPhone")} />
      </I18nextProvider>,
    )}`;
    templates.set(key, html);
    return html;
  }

  return {
    caches: [templates.stats, sentences.stats],
    async write(page: DoorPage): Promise<string> {
      const { view } = page;
      const shape: Shape = {
        locale: page.locale,
        theme: page.theme,
        wordingSet: page.wordingSet,
        phone: page.phone,
        kind: view.kind,
        autoRefresh: "autoRefresh" in view && view.autoRefresh,
        refreshSeconds: "autoRefresh" in view && view.autoRefresh ? view.refreshSeconds : null,
        soldOut: view.kind === "waiting" && view.soldOut,
      };
      const template = await templateFor(shape);
      const i18n = await context.i18n.createInstance(page.locale, page.wordingSet);
      const t: Translate = (key, options) =>
        sentences.getOrMake(`${page.locale}\n${page.wordingSet}\n${key}\n${JSON.stringify(options ?? {})}`, () =>
          i18n.t(key, options),
        )!;
      const filling: Filling = {
        nonce: page.nonce,
        events: JSON.stringify(page.trackedEvents),
        ...Object.fromEntries(LANGUAGES.map((language, index) => [`language${index}`, page.languageHref(language)])),
        ...fillingOf(view, page.locale, t),
      };
      return template.replace(SLOTS, (_, name: string) => escapeHtml(filling[name] ?? ""));
    },
  };
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** What a request puts in its template's slots: the sentences with its numbers, and its links. */
function fillingOf(view: WaitingView, locale: Language, t: Translate): Filling {
  switch (view.kind) {
    case "noCookies":
      return { retryHref: view.retryHref };
    case "tooManyJoins":
      return {
        retryHref: view.retryHref,
        when: t("waitingRoom.tooManyJoins.when", { count: Math.ceil(view.retryAfterSeconds / 60) }),
      };
    case "preQueue":
      return {
        ...refreshFilling(view),
        opens: t("waitingRoom.preQueue.opens", {
          time: dateTimeFormat(locale, {
            weekday: "long",
            day: "numeric",
            month: "long",
            hour: "numeric",
            minute: "2-digit",
            timeZoneName: "short",
            timeZone: view.timeZone,
          }).format(new Date(view.opensAt)),
        }),
        waiting: t("waitingRoom.preQueue.waiting", { count: view.waiting }),
      };
    case "waiting":
      return {
        ...refreshFilling(view),
        place: String(view.place),
        waiting: String(view.waiting),
        wait: waitText(t, view.estimatedWaitSeconds),
        otherDatesHref: view.otherDatesHref,
      };
  }
}

function refreshFilling(view: Extract<WaitingView, { kind: "waiting" | "preQueue" }>): Filling {
  return {
    checkHref: view.checkHref,
    toggleRefreshHref: view.toggleRefreshHref,
    refresh: `${view.refreshSeconds}; url=${view.checkHref}`,
    seconds: String(view.refreshSeconds),
  };
}

/** "About 3 minutes", "less than a minute", or that nobody can say yet. */
function waitText(t: Translate, seconds: number | null): string {
  if (seconds === null) return t("waitingRoom.waitUnknown");
  if (seconds < 60) return t("waitingRoom.waitUnderMinute");
  return t("waitingRoom.waitMinutes", { count: Math.ceil(seconds / 60) });
}

const refreshes = (shape: Shape) => (shape.kind === "waiting" || shape.kind === "preQueue") && shape.autoRefresh;

function WaitingDocument({ shape, brand, phone }: TemplateProps) {
  const { t } = useTranslation();
  const titleKey =
    shape.kind === "noCookies"
      ? "waitingRoom.noCookies.title"
      : shape.kind === "tooManyJoins"
        ? "waitingRoom.tooManyJoins.title"
        : shape.kind === "preQueue"
          ? "waitingRoom.preQueue.title"
          : "waitingRoom.title";
  return (
    <html lang={shape.locale} data-theme={shape.theme} data-wording-set={shape.wordingSet}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${t(titleKey)} – ${t("brand.name")}`}</title>
        {refreshes(shape) ? (
          <noscript>
            <meta httpEquiv="refresh" content={slot("refresh")} />
          </noscript>
        ) : null}
        <meta name="robots" content="noindex" />
        <link rel="stylesheet" href={THEME_STYLESHEETS[shape.theme]} />
        <link rel="icon" href={`/logos/${shape.theme}-icon.svg`} type="image/svg+xml" />
      </head>
      <body>
        <a className="skip-link" href="#main-content">
          {t("frame.skipLink")}
        </a>
        <SiteHeaderView brand={brand} customer={null} phone={phone} link={PlainLink} />
        <main id="main-content" className="page" tabIndex={-1}>
          <WaitingContent shape={shape} />
        </main>
        <SiteFooterView
          brand={brand}
          link={PlainLink}
          withLanguage={(language) => slot(`language${LANGUAGES.indexOf(language as Language)}`)}
        />
        {refreshes(shape) ? (
          <script
            nonce={slot("nonce")}
            src={CHECK_SCRIPT}
            defer
            data-seconds={slot("seconds")}
            data-check={slot("checkHref")}
            data-events={slot("events")}
          />
        ) : null}
      </body>
    </html>
  );
}

function RefreshControls({ shape }: { shape: Shape }) {
  const { t } = useTranslation();
  return (
    <>
      <p>
        {shape.refreshSeconds !== null
          ? t("waitingRoom.autoRefresh", { count: shape.refreshSeconds })
          : t("waitingRoom.refreshStopped")}{" "}
        <a href={slot("toggleRefreshHref")}>
          {shape.autoRefresh ? t("waitingRoom.stopRefresh") : t("waitingRoom.startRefresh")}
        </a>
      </p>
      <p>
        <a href={slot("checkHref")} className="button button--secondary">
          {t("waitingRoom.checkNow")}
        </a>
      </p>
    </>
  );
}

/** Why the buyer has no place (yet), what to do, and the way to try again. */
function Refusal({ title, lines, retry }: { title: string; lines: string[]; retry: string }) {
  return (
    <div className="message message--error" role="alert">
      <h1>{title}</h1>
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      <p>
        <a href={slot("retryHref")}>{retry}</a>
      </p>
    </div>
  );
}

function WaitingContent({ shape }: { shape: Shape }) {
  const { t } = useTranslation();
  if (shape.kind === "noCookies") {
    return (
      <Refusal
        title={t("waitingRoom.noCookies.title")}
        lines={[t("waitingRoom.noCookies.message"), t("errors.noCookies.next")]}
        retry={t("waitingRoom.noCookies.retry")}
      />
    );
  }
  if (shape.kind === "tooManyJoins") {
    return (
      <Refusal
        title={t("waitingRoom.tooManyJoins.title")}
        lines={[t("waitingRoom.tooManyJoins.message"), slot("when")]}
        retry={t("waitingRoom.tooManyJoins.retry")}
      />
    );
  }
  if (shape.kind === "preQueue") {
    return (
      <>
        <h1>{t("waitingRoom.preQueue.title")}</h1>
        <div role="status" aria-live="polite" {...{ [STATUS_ATTRIBUTE]: "" }}>
          <p>{slot("opens")}</p>
          <p>{slot("waiting")}</p>
        </div>
        <p>{t("waitingRoom.preQueue.fair")}</p>
        <RefreshControls shape={shape} />
      </>
    );
  }
  return (
    <>
      <h1>{t("waitingRoom.title")}</h1>
      <p>{t("waitingRoom.lead")}</p>
      <div role="status" aria-live="polite" className="waiting-room__place" {...{ [STATUS_ATTRIBUTE]: "" }}>
        <p>
          <strong>{t("waitingRoom.place", { place: slot("place"), waiting: slot("waiting") })}</strong>
        </p>
        <p>{slot("wait")}</p>
      </div>
      {shape.soldOut ? (
        <div className="message message--warning">
          <p>{t("waitingRoom.soldOut")}</p>
          <p>
            <a href={slot("otherDatesHref")}>{t("waitingRoom.otherDates")}</a>
          </p>
        </div>
      ) : null}
      <p>{t("waitingRoom.keepPlace")}</p>
      <RefreshControls shape={shape} />
    </>
  );
}
