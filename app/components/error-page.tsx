import { isRouteErrorResponse, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export type ErrorKind = "notFound" | "forbidden" | "crossSite" | "tooLarge" | "serverError" | "unknown";

/** Which of the spec's error pages an error deserves. Never shows the error's own message. */
export function errorKind(error: unknown): ErrorKind {
  if (isRouteErrorResponse(error)) {
    if (error.status === 404 || error.status === 405) return "notFound";
    // The body of the actions' guard's own refusals (REFUSED_FORM in build.server.ts).
    if (error.status === 403 && error.data === "crossSite") return "crossSite";
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
      <p>{t(`errors.${kind}.message`)}</p>
      <p>
        <Link to="/">{t("errors.homeLink")}</Link>
      </p>
    </section>
  );
}
