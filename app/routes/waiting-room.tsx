import { data, redirect, type HeadersArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { dateTimeFormat } from "~/i18n/format";
import { track } from "~/web/track.server";
import { waitingRoomVisit, type WaitingView } from "~/web/queue-gate.server";
import { performanceId as performanceIdParam } from "~/urls/params";

// /waiting-room: the buyer's place in the queue for a tickets page. Without script the page reloads
// itself every few seconds (a <meta> refresh, in a <noscript>) and has a link to stop that and a
// link to check now; with script it asks in the background and says what changed politely. When
// the buyer's turn comes, the loader sends them on to the page they asked for.

export const handle = {
  query: ["performance", "to", "c", "refresh"],
  titleKey: (data: { view?: WaitingView } | undefined) =>
    data?.view?.kind === "noCookies"
      ? "waitingRoom.noCookies.title"
      : data?.view?.kind === "tooManyJoins"
        ? "waitingRoom.tooManyJoins.title"
        : data?.view?.kind === "preQueue"
          ? "waitingRoom.preQueue.title"
          : "waitingRoom.title",
  noscriptRefreshSeconds: (data: { view?: WaitingView } | undefined) =>
    data?.view && data.view.kind !== "noCookies" && data.view.kind !== "tooManyJoins" && data.view.autoRefresh
      ? data.view.refreshSeconds
      : undefined,
  // The number of the venue whose performance the buyer waits for: theirs to answer about it.
  supportPhone: (data: unknown) => (data as { supportPhone?: string | null } | undefined)?.supportPhone,
};

/** The refusal's Retry-After reaches the page's answer; the rest is the parent's, as for any page. */
export function headers({ loaderHeaders, parentHeaders }: HeadersArgs) {
  const own = new Headers(parentHeaders);
  const retryAfter = loaderHeaders.get("Retry-After");
  if (retryAfter) own.set("Retry-After", retryAfter);
  return own;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const performanceId = new URL(request.url).searchParams.get("performance") ?? "";
  const requested = track(context, "fetchQueue.request", { performanceId });
  let visit;
  try {
    visit = await waitingRoomVisit(request, context);
  } catch (error) {
    track(context, "fetchQueue.failure", { performanceId });
    throw error;
  }
  if ("redirectTo" in visit) throw redirect(visit.redirectTo, visit.headers ? { headers: visit.headers } : undefined);
  // The opening time in the buyer's language, written here: the page's script need not format dates.
  const opens =
    visit.view.kind === "preQueue"
      ? dateTimeFormat(await context.i18n.getLocale(request), {
          weekday: "long",
          day: "numeric",
          month: "long",
          hour: "numeric",
          minute: "2-digit",
          timeZoneName: "short",
          timeZone: visit.view.timeZone,
        }).format(new Date(visit.view.opensAt))
      : null;
  // Only a well-formed id is looked up: the catalogue keeps what it reads, by the id asked for.
  const supportPhone = performanceIdParam.safeParse(performanceId).success
    ? await context.catalogue.venuePhoneOfPerformance(performanceId.toUpperCase())
    : null;
  const body = {
    view: visit.view,
    opens,
    supportPhone,
    trackedEvents: [requested, track(context, "fetchQueue.success", { performanceId })],
  };
  // Refused a place for now (issue 41): a 429 that says when to come back, for people and clients alike.
  if (visit.view.kind === "tooManyJoins")
    return data(body, { status: 429, headers: { "Retry-After": String(visit.view.retryAfterSeconds) } });
  return body;
}

/** "About 3 minutes", "less than a minute", or that nobody can say yet. */
function useWaitText(seconds: number | null): string {
  const { t } = useTranslation();
  if (seconds === null) return t("waitingRoom.waitUnknown");
  if (seconds < 60) return t("waitingRoom.waitUnderMinute");
  return t("waitingRoom.waitMinutes", { count: Math.ceil(seconds / 60) });
}

function RefreshControls({ view }: { view: Exclude<WaitingView, { kind: "noCookies" | "tooManyJoins" }> }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  useEffect(() => {
    // With script: ask again in the background (no reload, nothing moves under the reader); the
    // loader's redirect takes the buyer on when their turn comes.
    if (!view.autoRefresh) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, view.refreshSeconds * 1000);
    return () => clearInterval(timer);
  }, [revalidator, view.autoRefresh, view.refreshSeconds]);
  return (
    <>
      <p>
        {view.autoRefresh
          ? t("waitingRoom.autoRefresh", { count: view.refreshSeconds })
          : t("waitingRoom.refreshStopped")}{" "}
        <Link to={view.toggleRefreshHref} reloadDocument>
          {view.autoRefresh ? t("waitingRoom.stopRefresh") : t("waitingRoom.startRefresh")}
        </Link>
      </p>
      <p>
        <Link to={view.checkHref} className="button button--secondary" reloadDocument>
          {t("waitingRoom.checkNow")}
        </Link>
      </p>
    </>
  );
}

export default function WaitingRoom() {
  const { t } = useTranslation();
  const { view, opens } = useLoaderData<typeof loader>();
  const waitText = useWaitText(view.kind === "waiting" ? view.estimatedWaitSeconds : null);
  if (view.kind === "noCookies") {
    return (
      <div className="message message--error" role="alert">
        <h1>{t("waitingRoom.noCookies.title")}</h1>
        <p>{t("waitingRoom.noCookies.message")}</p>
        <p>{t("errors.noCookies.next")}</p>
        <p>
          <Link to={view.retryHref} reloadDocument>
            {t("waitingRoom.noCookies.retry")}
          </Link>
        </p>
      </div>
    );
  }
  if (view.kind === "tooManyJoins") {
    return (
      <div className="message message--error" role="alert">
        <h1>{t("waitingRoom.tooManyJoins.title")}</h1>
        <p>{t("waitingRoom.tooManyJoins.message")}</p>
        <p>{t("waitingRoom.tooManyJoins.when", { count: Math.ceil(view.retryAfterSeconds / 60) })}</p>
        <p>
          <Link to={view.retryHref} reloadDocument>
            {t("waitingRoom.tooManyJoins.retry")}
          </Link>
        </p>
      </div>
    );
  }
  if (view.kind === "preQueue") {
    return (
      <>
        <h1>{t("waitingRoom.preQueue.title")}</h1>
        <div role="status" aria-live="polite">
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
      <div role="status" aria-live="polite" className="waiting-room__place">
        <p>
          <strong>{t("waitingRoom.place", { place: view.place, waiting: view.waiting })}</strong>
        </p>
        <p>{waitText}</p>
      </div>
      {view.soldOut ? (
        <div className="message message--warning">
          <p>{t("waitingRoom.soldOut")}</p>
          <p>
            <Link to={view.otherDatesHref}>{t("waitingRoom.otherDates")}</Link>
          </p>
        </div>
      ) : null}
      <p>{t("waitingRoom.keepPlace")}</p>
      <RefreshControls view={view} />
    </>
  );
}
