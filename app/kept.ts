/**
 * Values that are pure functions of their key, kept up to `limit` of them: the least recently
 * asked for is dropped first. A Map iterates in insertion order, so the one asked for is moved to
 * the end and the oldest is first.
 */
export function keptByKey<Value>(limit: number) {
  const kept = new Map<string, Value>();
  /**
   * The value kept for `key`, made and kept if there is none. A make that answers undefined has
   * nothing worth keeping (a cookie that failed its check): it is asked again the next time.
   */
  function get(key: string, make: () => Value): Value;
  function get(key: string, make: () => Value | undefined): Value | undefined;
  function get(key: string, make: () => Value | undefined): Value | undefined {
    let value = kept.get(key);
    if (value === undefined) {
      value = make();
      if (value === undefined) return undefined;
      if (kept.size >= limit) kept.delete(kept.keys().next().value!);
    } else {
      kept.delete(key);
    }
    kept.set(key, value);
    return value;
  }
  return { get };
}
