import { Link, useLocation, useMatches, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "remix-utils/use-hydrated";

import { Confirmation, ConfirmActions } from "./confirmation";
import { formatDateTime as dateTime, formatTime as time, timeZonePlace } from "~/i18n/format";
import { PostForm } from "./post-form";
import type { HoldView } from "~/views/hold";
import { pathWithDeclaredQuery } from "~/urls/page-query";
import { checkoutPath } from "~/urls/paths";

/** Two minutes before the hold runs out the buyer is warned and offered more time. */
export const WARNING_SECONDS = 120;
/** With script: after this long without input, the page offers a refresh of availability. */
const INACTIVITY_MS = 10 * 60 * 1000;

export const HOLD_ACTION = checkoutPath("hold");

export function formatClock(seconds: number): string {
  const safe = Math.max(0, Math.floor(seconds));
  return `${Math.floor(safe / 60)}:${String(safe % 60).padStart(2, "0")}`;
}

/** Seconds left, counted down in the browser from what the server said (never the buyer's clock). */
function useSecondsLeft(serverSeconds: number): number {
  const hydrated = useHydrated();
  const [left, setLeft] = useState(serverSeconds);
  useEffect(() => {
    setLeft(serverSeconds);
    if (!hydrated) return;
    const start = performance.now();
    const timer = window.setInterval(() => {
      const next = Math.max(0, serverSeconds - Math.floor((performance.now() - start) / 1000));
      setLeft(next);
      if (next === 0) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [serverSeconds, hydrated]);
  return left;
}

/** Whether the hold has run out, as the server said or as the countdown reaches zero. */
export function useHoldExpired(hold: HoldView | null): boolean {
  const left = useSecondsLeft(hold?.secondsLeft ?? 0);
  return hold !== null && (hold.expired || left === 0);
}

/**
 * The reservation's clock, shown wherever the buyer holds seats: minutes:seconds from the server,
 * counting down with script; a polite announcement at each minute mark (not every second); a
 * warning with "Extend" two minutes before the end; and the Session expired dialog at zero.
 */
export function HoldPanel({ hold, releaseTo }: { hold: HoldView; releaseTo?: string }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const returnTo = pathWithDeclaredQuery(location.pathname, location.search, useMatches());
  const left = useSecondsLeft(hold.secondsLeft);
  const expired = hold.expired || left === 0;
  const [announcement, setAnnouncement] = useState("");
  const lastMinute = useRef(Math.ceil(hold.secondsLeft / 60));
  const [releasing, setReleasing] = useState(false);
  const hydrated = useHydrated();

  useEffect(() => {
    const minutes = Math.ceil(left / 60);
    if (minutes !== lastMinute.current && left > 0) {
      lastMinute.current = minutes;
      setAnnouncement(t("hold.minutesLeft", { count: minutes }));
    }
  }, [left, t]);

  const releaseHref = `${HOLD_ACTION}?confirm=release&returnTo=${encodeURIComponent(releaseTo ?? returnTo)}`;
  return (
    <aside className="hold-panel" aria-labelledby="hold-panel-title">
      <h2 id="hold-panel-title" className="hold-panel__title">
        {t("hold.title")}
      </h2>
      <p className="hold-panel__what">
        {t("hold.what", {
          count: hold.places,
          show: hold.showName,
          when: dateTime(hold.startsAt, hold.timeZone, i18n.language),
        })}
      </p>
      {/* Once expired, the Session expired dialog below says so, with its two ways on: saying it
          here as well made a screen reader read it twice. */}
      {expired ? null : (
        <p className="hold-panel__clock">
          {t("hold.timeLeft")}{" "}
          <span className="hold-panel__time" role="timer" aria-live="off">
            {formatClock(left)}
          </span>
        </p>
      )}
      {/* In the venue's time zone, named always: the server cannot know the buyer's zone, and a
          buyer abroad (or booking a venue in another zone) plans by the clock they read here. The
          same words with script, so hydration changes nothing and nothing moves after load. */}
      {expired ? null : (
        <p className="hold-panel__until">
          {t("hold.heldUntil", {
            time: time(hold.expiresAt, hold.timeZone, i18n.language),
            place: timeZonePlace(hold.timeZone),
          })}
        </p>
      )}
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {!expired && left <= WARNING_SECONDS ? (
        <div className="hold-panel__warning" role="status">
          <p>{t("hold.warning")}</p>
          {hold.canExtend ? (
            <PostForm action={HOLD_ACTION}>
              <input type="hidden" name="returnTo" value={returnTo} />
              <input type="hidden" name="intent" value="extend" />
              <button type="submit" className="button">
                {t("hold.extend")}
              </button>
            </PostForm>
          ) : null}
        </div>
      ) : null}
      {!expired ? (
        <p>
          <Link
            to={releaseHref}
            className="hold-panel__release"
            onClick={(event) => {
              if (!hydrated) return;
              event.preventDefault();
              setReleasing(true);
            }}
          >
            {t("hold.release")}
          </Link>
        </p>
      ) : null}
      <ReleaseDialog open={releasing} onClose={() => setReleasing(false)} returnTo={releaseTo ?? returnTo} />
      <SessionExpiredDialog open={expired} />
      <InactivityDialog />
    </aside>
  );
}

export function ReleaseDialog({ open, onClose, returnTo }: { open: boolean; onClose?: () => void; returnTo: string }) {
  const { t } = useTranslation();
  // Closed and not yet hydrated (the server's render, and the browser's first): Confirmation
  // writes nothing, so nothing is worded for it. Every checkout page has two such dialogs.
  const hydrated = useHydrated();
  if (!open && !hydrated) return null;
  return (
    <Confirmation open={open} title={t("hold.releaseTitle")} onClose={onClose}>
      <p>{t("hold.releaseBody")}</p>
      <ConfirmActions
        action={HOLD_ACTION}
        intent="release"
        confirmLabel={t("hold.releaseConfirm")}
        keepLabel={t("hold.keep")}
        onKeep={onClose}
        keepHref={returnTo}
      />
    </Confirmation>
  );
}

export function SessionExpiredDialog({ open }: { open: boolean }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  if (!open && !hydrated) return null;
  return (
    <Confirmation open={open} title={t("hold.expiredTitle")} alert>
      <p>{t("hold.expiredBody")}</p>
      <div className="confirmation__actions">
        <PostForm action={HOLD_ACTION}>
          <input type="hidden" name="intent" value="reselect" />
          <button type="submit" className="button">
            {t("hold.reselect")}
          </button>
        </PostForm>
        <PostForm action={HOLD_ACTION}>
          <input type="hidden" name="intent" value="cancel" />
          <button type="submit" className="button button--secondary">
            {t("hold.cancel")}
          </button>
        </PostForm>
      </div>
    </Confirmation>
  );
}

/** With script only: after a long pause, availability on screen may be stale; offer a refresh. */
export function InactivityDialog() {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    let timer = window.setTimeout(() => setIdle(true), INACTIVITY_MS);
    const reset = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setIdle(true), INACTIVITY_MS);
    };
    const events = ["pointerdown", "keydown", "scroll", "touchstart"] as const;
    for (const name of events) window.addEventListener(name, reset, { passive: true });
    return () => {
      window.clearTimeout(timer);
      for (const name of events) window.removeEventListener(name, reset);
    };
  }, []);
  if (!idle) return null;
  return (
    <Confirmation open title={t("hold.inactivityTitle")}>
      <p>{t("hold.inactivityBody")}</p>
      <div className="confirmation__actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            setIdle(false);
            revalidator.revalidate();
          }}
        >
          {t("hold.refresh")}
        </button>
      </div>
    </Confirmation>
  );
}
