/**
 * Why a form was refused before its route saw it: the body of the refusal, which the error
 * pages (components/error-page.tsx) turn into words saying what happened and what to do.
 * Shared by the actions' guard (build.server.ts), the CSRF check (session.server.ts) and the pages.
 */
export const REFUSED_FORM = {
  crossSite: "crossSite",
  tooLarge: "tooLarge",
  /** The form carried its token but the browser sent no CSRF cookie: it refuses (or lost) cookies. */
  noCookies: "noCookies",
} as const;
