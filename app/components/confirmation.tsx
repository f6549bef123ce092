import { useEffect, useId, useRef, type ReactNode } from "react";
import { Link } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { PostForm } from "./post-form";

/**
 * The spec's dialogs (session expired, release seats, empty your cart, membership offer, promo
 * removal): without script, a section of the page that asks the question; with script, the same
 * content in a modal `<dialog>`. Either way the buttons inside are ordinary forms and links, so one
 * server action answers both.
 */
export function Confirmation({
  open,
  title,
  children,
  onClose,
  alert = false,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  /** With script: the buyer pressed Escape or a close control. Without it, not called. */
  onClose?: () => void;
  /** Something the buyer must act on (session expired): announced at once. */
  alert?: boolean;
}) {
  const hydrated = useHydrated();
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open, hydrated]);

  if (!hydrated) {
    return open ? (
      <section className="confirmation" aria-labelledby={titleId} role={alert ? "alert" : undefined}>
        <h2 id={titleId}>{title}</h2>
        {children}
      </section>
    ) : null;
  }
  return (
    <dialog
      ref={dialog}
      className="confirmation confirmation--dialog"
      aria-labelledby={titleId}
      role={alert ? "alertdialog" : undefined}
      onCancel={(event) => {
        if (!onClose) event.preventDefault();
      }}
      onClose={() => onClose?.()}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

/**
 * A confirmation's two answers: do it (a form posting `intent` to `action`), or keep things as
 * they are (closes the dialog with script; a link back without it).
 */
export function ConfirmActions({
  action,
  intent,
  confirmLabel,
  keepLabel,
  onKeep,
  keepHref,
  fields = {},
}: {
  action: string;
  intent: string;
  confirmLabel: string;
  keepLabel: string;
  onKeep?: () => void;
  keepHref: string;
  fields?: Record<string, string>;
}) {
  return (
    <div className="confirmation__actions">
      <PostForm action={action}>
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="intent" value={intent} />
        <button type="submit" className="button button--warning">
          {confirmLabel}
        </button>
      </PostForm>
      {onKeep ? (
        <button type="button" className="button button--secondary" onClick={onKeep}>
          {keepLabel}
        </button>
      ) : (
        <Link to={keepHref} className="button button--secondary">
          {keepLabel}
        </Link>
      )}
    </div>
  );
}
