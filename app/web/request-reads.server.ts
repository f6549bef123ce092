import type { AppContext } from "~/web/context";

// A page's loaders (the layout's beside the step's) each read the buyer's basket or order; on a
// GET nothing changes between them, so they share one read, and a page costs one round trip to
// the database rather than one per loader (issue 19). A POST runs its action first, whose writes
// the loaders after it must see: it never shares.

export function requestReads(method: string): AppContext["readOnce"] {
  if (method !== "GET" && method !== "HEAD") return (_key, read) => read();
  const kept = new Map<string, Promise<unknown>>();
  return <T>(key: string, read: () => Promise<T>) => {
    let value = kept.get(key) as Promise<T> | undefined;
    if (!value) {
      value = read();
      kept.set(key, value);
    }
    return value;
  };
}
