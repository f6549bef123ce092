import { LRUCache } from "lru-cache";

/**
 * Every cache the server keeps, in one place (docs/rendering.md, "Caches"). Each has a name, a
 * bound in bytes and a reason; its keys are made only of what its values depend on. Values are
 * counted by `sizeOf` and keys by their UTF-8 length, so a visitor who sends long query strings or
 * headers cannot grow one past its bound. The least recently used entries go first.
 */

export interface CacheStats {
  name: string;
  reason: string;
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
  maxBytes: number;
}

export interface NamedCacheOptions<Value> {
  /** Why it exists: shown beside its figures. */
  reason: string;
  maxBytes: number;
  /** The bytes a value holds (its key is counted on top). */
  sizeOf: (value: Value) => number;
}

export interface NamedCache<Value> {
  get(key: string): Value | undefined;
  set(key: string, value: Value): void;
  /** The value for `key`, made and kept if there is none; a make that answers undefined keeps nothing. */
  getOrMake(key: string, make: () => Value | undefined): Value | undefined;
  clear(): void;
  stats(): CacheStats;
}

/** The caches made so far (a list, not a cache: one entry per namedCache call in the code). */
const caches: NamedCache<never>[] = [];

export function namedCache<Value extends object | string>(
  name: string,
  { reason, maxBytes, sizeOf }: NamedCacheOptions<Value>,
): NamedCache<Value> {
  const lru = new LRUCache<string, Value>({
    maxSize: maxBytes,
    // Never 0: lru-cache refuses an entry of size 0.
    sizeCalculation: (value, key) => Math.max(1, sizeOf(value) + Buffer.byteLength(key)),
  });
  let hits = 0;
  let misses = 0;
  const get = (key: string) => {
    const value = lru.get(key);
    if (value === undefined) misses += 1;
    else hits += 1;
    return value;
  };
  // An entry larger than the whole cache is not kept (lru-cache would refuse it anyway).
  const set = (key: string, value: Value) => {
    if (sizeOf(value) + Buffer.byteLength(key) <= maxBytes) lru.set(key, value);
  };
  const cache: NamedCache<Value> = {
    get,
    set,
    getOrMake(key, make) {
      const found = get(key);
      if (found !== undefined) return found;
      const made = make();
      if (made !== undefined) set(key, made);
      return made;
    },
    clear: () => lru.clear(),
    stats: () => ({ name, reason, hits, misses, entries: lru.size, bytes: lru.calculatedSize, maxBytes }),
  };
  caches.push(cache as NamedCache<never>);
  return cache;
}

/** Every named cache's figures, for the bench and for operators. */
export function cacheStats(): CacheStats[] {
  return caches.map((cache) => cache.stats());
}

/** The bytes of a string as UTF-8, which is how a kept string's size is counted. */
export const stringBytes = (text: string) => Buffer.byteLength(text);
