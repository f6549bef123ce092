import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { SummaryError } from "~/views/errors";

/**
 * The GOV.UK error summary: at the top of the page, focused when it appears and the page's title
 * starting "Error: " (with script; without it the server's title and the summary's place at the
 * top do the same job), a link to each field.
 */
export function ErrorSummary({ errors }: { errors: SummaryError[] }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const signature = errors.map((error) => `${error.field}:${error.text}`).join("|");
  const prefix = t("frame.errorPrefix");
  useEffect(() => {
    if (!signature) return;
    box.current?.focus();
    // Errors found in the browser (the form's schema, before any request) need the "Error: " title
    // too; the root gives it only to an action's answer.
    if (document.title.startsWith(prefix)) return;
    document.title = `${prefix}${document.title}`;
    return () => {
      if (document.title.startsWith(prefix)) document.title = document.title.slice(prefix.length);
    };
  }, [signature, prefix]);
  if (errors.length === 0) return null;
  return (
    <div ref={box} className="error-summary" tabIndex={-1} role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title" className="error-summary__title">
        {t("frame.errorSummaryTitle")}
      </h2>
      <ul className="error-summary__list">
        {errors.map((error) => (
          <li key={`${error.field}:${error.text}`}>
            {error.field ? <a href={`#${error.field}`}>{error.text}</a> : error.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
