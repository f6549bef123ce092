import { isRouteErrorResponse, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { REFUSED_FORM } from "~/views/refusals";

export type ErrorKind = "notFound" | "forbidden" | "noCookies" | "crossSite" | "tooLarge" | "serverError" | "unknown";

/** Which of the spec's error pages an error deserves. Never shows the error's own message. */
export function errorKind(error: unknown): ErrorKind {
  if (isRouteErrorResponse(error)) {
    if (error.status === 404 || error.status === 405) return "notFound";
    // The body of the actions' guard's own refusals (REFUSED_FORM).
    if (error.status === 403 && error.data === REFUSED_FORM.crossSite) return "crossSite";
    if (error.status === 403 && error.data === REFUSED_FORM.noCookies) return "noCookies";
    if (error.status === 403) return "forbidden";
    if (error.status === 413) return "tooLarge";
    return "serverError";
  }
  return "unknown";
}

export function ErrorPage({ kind }: { kind: ErrorKind; status: number }) {
  const { t } = useTranslation();
  return (
    <section className="error-page" aria-labelledby="error-title">
      <h1 id="error-title">{t(`errors.${kind}.title`)}</h1>
      <ErrorExplanation kind={kind} />
      <p>
        <Link to="/">{t("errors.homeLink")}</Link>
      </p>
    </section>
  );
}

/** What happened, and (where it is the buyer's to do) what to do next: every error page says both. */
export function ErrorExplanation({ kind }: { kind: ErrorKind }) {
  const { t, i18n } = useTranslation();
  const next = `errors.${kind}.next`;
  return (
    <>
      <p>{t(`errors.${kind}.message`)}</p>
      {i18n.exists(next) && <p>{t(next)}</p>}
    </>
  );
}
