/**
 * The query parameters a page reads, as its routes declare them (`handle.query`). Only these are
 * carried on into the page's own links and hidden fields (the language links, a return path, the
 * seat map's filter), so nothing else a visitor puts in an address is written back into a page;
 * and a page the server may keep is kept only for addresses without any other, and only when each
 * declared one has a value its route accepts as written (`keptQuery`; app/web/page-cache.server.ts).
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

/**
 * A route module's `keptQuery` export, for a page that may be kept: the values of its declared
 * parameters that may key a kept page, each as the page's own links write it (canonical), by
 * name. A value it does not accept is still answered, but not kept, so a client cycling junk
 * values fills nothing; a declared parameter without a test here is never kept with any value.
 * An export of its own rather than part of `handle`: only the server reads it, and Remix leaves a
 * route's other exports out of the page's script (a handle is sent to the browser).
 */
export type KeptQuery = Readonly<Record<string, (value: string) => boolean>>;

/** Each declared parameter's test of a value that may key a kept page. */
export type DeclaredQueryValues = ReadonlyMap<string, (value: string) => boolean>;

type Match = { handle?: unknown; keptQuery?: KeptQuery };

/** The names every matched route declares (the root's among them). */
export function declaredQuery(matches: readonly Match[]): Set<string> {
  const names = new Set<string>();
  for (const { handle } of matches)
    for (const name of (handle as PageQueryHandle | undefined)?.query ?? []) names.add(name);
  return names;
}

/**
 * The declared parameters of the page (as `declaredQuery`), each with the test its routes give a
 * value that may key a kept page: every route's test that has one must accept it.
 */
export function declaredQueryValues(matches: readonly Match[]): DeclaredQueryValues {
  const tests = new Map<string, ((value: string) => boolean)[]>();
  for (const name of declaredQuery(matches)) tests.set(name, []);
  for (const { keptQuery } of matches)
    for (const [name, test] of Object.entries(keptQuery ?? {})) tests.get(name)?.push(test);
  return new Map(
    [...tests].map(([name, all]) => [name, (value: string) => all.length > 0 && all.every((test) => test(value))]),
  );
}

// Plain functions, called inside each route's own tests, rather than tests made by calling
// helpers at the top of a module: a call there is kept in every page's script that imports the
// module (the bundler cannot know it is pure), though only the server reads `keptQuery`.

/** A whole number as a page's links write it (no sign, no leading zero, no spaces), up to `max`. */
export function isCanonicalWholeNumber(value: string, max: number): boolean {
  return /^(0|[1-9]\d{0,8})$/.test(value) && Number(value) <= max;
}

/** Nothing chosen (a GET form's empty field: "any price", "all sections"), or what `test` accepts. */
export function emptyOr(value: string, test: (value: string) => boolean): boolean {
  return value === "" || test(value);
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
