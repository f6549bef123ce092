import { describe, expect, it } from "vitest";
import { keptByKey } from "~/kept";

describe("values kept by their key", () => {
  it("makes a value once, and drops the one least recently asked for past the limit", () => {
    const made: string[] = [];
    const kept = keptByKey<string>(2);
    const get = (key: string) => kept.get(key, () => (made.push(key), key.toUpperCase()));
    expect(get("a")).toBe("A");
    expect(get("b")).toBe("B");
    expect(get("a")).toBe("A");
    expect(made).toEqual(["a", "b"]);
    // "b" is now the least recently asked for: "c" takes its place, and "a" stays.
    get("c");
    get("a");
    expect(made).toEqual(["a", "b", "c"]);
    get("b");
    expect(made).toEqual(["a", "b", "c", "b"]);
  });

  it("keeps nothing for a make that answers undefined, which is asked again next time", () => {
    const kept = keptByKey<string>(2);
    let asked = 0;
    const failing = () => kept.get("forged", () => ((asked += 1), undefined));
    expect(failing()).toBeUndefined();
    expect(failing()).toBeUndefined();
    expect(asked).toBe(2);
    // Nor does it push a kept value out.
    kept.get("a", () => "A");
    kept.get("b", () => "B");
    failing();
    expect(kept.get("a", () => "made again")).toBe("A");
    expect(kept.get("b", () => "made again")).toBe("B");
  });
});
