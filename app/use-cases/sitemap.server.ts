import type { AppLoadContext } from "@remix-run/node";
import { LEGAL_DOCUMENTS } from "~/legal";
import { accessPath, calendarPath, showPath, ticketsPath, venuePath, venuesPath } from "~/urls/paths";

// /sitemap.xml and /robots.txt (issue 40 item 4): every public page a buyer can land on from a
// search (home, show, calendar, venue, venues, performance and access pages, in the deployment's
// routing mode; issue 56 item 7: every listing page), with
// absolute addresses from PUBLIC_URL; and what crawlers should leave alone (a buyer's checkout,
// account and e-tickets, the payment sandbox, the waiting room).

type Reads = Pick<AppLoadContext, "catalogue" | "config" | "clock">;

/** The sitemap protocol's limit for one file; far above any catalogue so far (the demo has ~1,300). */
const MAX_URLS = 50_000;

const latest = (moments: (string | null | undefined)[]) =>
  moments
    .filter((moment): moment is string => Boolean(moment))
    .sort()
    .at(-1) ?? null;

const xml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The public pages, each with when it last changed as far as the catalogue knows: its show's or
 * venue's import, or a later moment its sale (presale, queue, general sale) opened, which changes
 * what the page offers. A page whose moments are all unknown has no lastmod.
 */
export async function publicPages({ catalogue, config, clock }: Reads) {
  const now = clock.now();
  const at = now.toISOString();
  const mode = config.routingType;
  const pages = new Map<string, string | null>();
  const add = (path: string, lastmod: string | null) => {
    const known = pages.get(path);
    if (!pages.has(path) || (lastmod && (!known || lastmod > known))) pages.set(path, lastmod);
  };
  const venueSlug = mode === "SINGLE_VENUE" || mode === "SINGLE_SHOW" ? config.venueSlug : undefined;
  const shows = (await catalogue.listShows(now, venueSlug)).filter(
    (show) => mode !== "SINGLE_SHOW" || show.slug === config.titleSlug,
  );
  for (const listed of shows) {
    for (const run of listed.runs) {
      const show = await catalogue.showAtVenue(listed.slug, run.venueSlug);
      if (!show) continue;
      const performances = await catalogue.nextPerformances(show.runId, now, MAX_URLS);
      const performanceDates = performances.map((performance) => {
        const opened = [performance.presaleFrom, performance.queueOpensAt, performance.onSaleFrom].filter(
          (moment): moment is string => moment !== null && moment <= at,
        );
        const lastmod = latest([show.importedAt, ...opened]);
        add(ticketsPath(mode, show.slug, show.venueSlug, performance.id), lastmod);
        return lastmod;
      });
      const showLastmod = latest([show.importedAt, ...performanceDates]);
      add(showPath(mode, show.slug, show.venueSlug), showLastmod);
      // The calendar lists every date; its first month is the one with something on sale.
      add(calendarPath(mode, show.slug, show.venueSlug), showLastmod);
      if (mode === "DEFAULT") {
        const venueLastmod = latest([show.venueImportedAt, show.importedAt]);
        add(venuePath(show.venueSlug), venueLastmod);
        add(venuesPath(), venueLastmod);
      }
      // Each venue's access performances (issue 43), where the deployment has more than one venue.
      if (!venueSlug) add(accessPath(show.venueSlug), null);
      add("/", showLastmod);
    }
  }
  add("/", null);
  add(accessPath(), null);
  for (const document of LEGAL_DOCUMENTS) add(`/legal/${document}`, null);
  return [...pages].slice(0, MAX_URLS).map(([path, lastmod]) => ({ path, lastmod }));
}

export async function sitemapXml(reads: Reads): Promise<string> {
  const base = reads.config.publicUrl;
  const entries = (await publicPages(reads)).map(
    ({ path, lastmod }) =>
      `<url><loc>${xml(new URL(path, `${base}/`).toString())}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("\n")}\n</urlset>\n`;
}

/** The paths crawlers are asked to leave alone: a buyer's own pages, and pages that are no content. */
export const DISALLOWED_PATHS = ["/checkout", "/account", "/sandbox", "/e-tickets", "/waiting-room"] as const;

export function robotsTxt(config: Pick<AppLoadContext["config"], "publicUrl">): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${config.publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}
