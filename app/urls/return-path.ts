// Any origin would do: relative resolution never depends on it. It has to be http(s), though,
// so the parser reads backslashes as slashes the way browsers do for web pages.
const SITE = "https://site.invalid";

/**
 * The one place a return path the request chose (`redirectTo`, `returnTo`, a payment's return URL)
 * becomes somewhere to send the buyer: a path on this site, or `fallback`.
 *
 * Checking the text by hand misses what browsers quietly rewrite: `/\t/evil.example/` loses its tab
 * and `/\evil.example` its backslash, and both become `//evil.example`, another site. So the value
 * goes through the WHATWG URL parser browsers use, resolved against the site, and is kept only if
 * it stays on the site. What comes back is the parser's serialisation: percent-encoded ASCII,
 * always a valid Location header (a raw non-Latin-1 character there makes the response throw).
 */
export function safeReturnPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/")) return fallback;
  const url = onSite(value);
  if (!url) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil.example` stays on the site while parsed, but its path `//evil.example` would not:
  // only a path that reads back as itself is safe to hand to a browser.
  return onSite(path)?.href === url.href ? path : fallback;
}

function onSite(value: string): URL | null {
  try {
    const url = new URL(value, SITE);
    return url.origin === SITE ? url : null;
  } catch {
    return null;
  }
}
