import { LRUCache } from "lru-cache";

/**
 * How every cache the server keeps is made (the list: docs/rendering.md, "Caches"). Each has a name, a
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
  delete(key: string): void;
  /** The value for `key`, made and kept if there is none; a make that answers undefined keeps nothing. */
  getOrMake(key: string, make: () => Value | undefined): Value | undefined;
  stats(): CacheStats;
}

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
  // lru-cache keeps no entry larger than the whole cache.
  const set = (key: string, value: Value) => void lru.set(key, value);
  return {
    get,
    set,
    delete: (key) => void lru.delete(key),
    getOrMake(key, make) {
      const found = get(key);
      if (found !== undefined) return found;
      const made = make();
      if (made !== undefined) set(key, made);
      return made;
    },
    stats: () => ({ name, reason, hits, misses, entries: lru.size, bytes: lru.calculatedSize, maxBytes }),
  };
}
