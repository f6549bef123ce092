/**
 * The query parameters a page reads, as its routes declare them (`handle.query`). Only these are
 * carried on into the page's own links and hidden fields (the language links, a return path, the
 * seat map's filter), so nothing else a visitor puts in an address is written back into a page;
 * and a page the server may keep is kept only for addresses without any other
 * (app/web/page-cache.server.ts).
 */
export interface PageQueryHandle {
  /** The query parameters the route's page reads. */
  query?: readonly string[];
  /**
   * Every visitor sees the page alike, given its data: the server may keep what it wrote and
   * serve it again while the data is unchanged.
   */
  keptPage?: boolean;
}

type Match = { handle?: unknown };

/** The names every matched route declares (the root's among them). */
export function declaredQuery(matches: readonly Match[]): Set<string> {
  const names = new Set<string>();
  for (const { handle } of matches)
    for (const name of (handle as PageQueryHandle | undefined)?.query ?? []) names.add(name);
  return names;
}

/** The declared parameters of `search`, less any in `except`, in the order the address has them. */
export function declaredParams(search: string, matches: readonly Match[], except: readonly string[] = []) {
  const declared = declaredQuery(matches);
  const kept = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(search))
    if (declared.has(name) && !except.includes(name)) kept.append(name, value);
  return kept;
}

/** `pathname` with the declared parameters of `search` (and `set` over them). */
export function pathWithDeclaredQuery(
  pathname: string,
  search: string,
  matches: readonly Match[],
  set: Record<string, string> = {},
) {
  const params = declaredParams(search, matches);
  for (const [name, value] of Object.entries(set)) params.set(name, value);
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}
