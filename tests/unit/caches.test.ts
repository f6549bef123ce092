import { describe, expect, it } from "vitest";
import { namedCache } from "~/caches.server";
import { cutSecrets, pageCache, pageKey, withSecrets } from "~/web/page-cache.server";

describe("a named cache", () => {
  it("holds no more bytes than its bound, counting keys as UTF-8 bytes, and drops the least recently used", () => {
    const cache = namedCache<string>("test-bytes", {
      reason: "a test",
      maxBytes: 100,
      sizeOf: (value) => value.length,
    });
    cache.set("a", "x".repeat(40));
    cache.set("b", "x".repeat(40));
    expect(cache.get("a")).toBeDefined(); // a is now the most recently used
    cache.set("c", "x".repeat(40));
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBeDefined();
    // A key of 30 characters that are 3 bytes each is 90 bytes: with its value, over the bound.
    cache.set("€".repeat(30), "x".repeat(20));
    expect(cache.get("€".repeat(30))).toBeUndefined();
    const stats = cache.stats();
    expect(stats.bytes).toBeLessThanOrEqual(100);
    expect(stats).toMatchObject({ entries: 2, hits: 2, maxBytes: 100, reason: "a test" });
    expect(stats.misses).toBe(2);
  });

  it("makes a value once and keeps nothing for a make that answers undefined", () => {
    const cache = namedCache<string>("test-make", {
      reason: "a test",
      maxBytes: 1_000,
      sizeOf: (value) => value.length,
    });
    let made = 0;
    const make = () => {
      made += 1;
      return "value";
    };
    expect(cache.getOrMake("k", make)).toBe("value");
    expect(cache.getOrMake("k", make)).toBe("value");
    expect(made).toBe(1);
    expect(cache.getOrMake("nothing", () => undefined)).toBeUndefined();
    expect(cache.get("nothing")).toBeUndefined();
  });
});

describe("the page cache's key and secrets", () => {
  const secrets = { nonce: "n0nceN0nceN0nce==", csrf: "C".repeat(86) };
  const data = `["root",{"csrf":"${secrets.csrf}","locale":"en-GB"}]`;
  const url = (query: string) => new URL(`http://localhost/shows/a/b${query}`);

  it("is the same for the same path, declared parameters (in any order) and data, whoever's secrets", () => {
    const declared = new Set(["lng", "cfg"]);
    const theirs = { nonce: "an0therN0nce12345", csrf: "D".repeat(86) };
    const key = pageKey(url("?lng=en-GB&cfg=a"), declared, data, secrets)!;
    expect(key.keepable).toBe(true);
    expect(pageKey(url("?cfg=a&lng=en-GB"), declared, data.replace(secrets.csrf, theirs.csrf), theirs)).toEqual(key);
    expect(pageKey(url("?lng=en-US&cfg=a"), declared, data, secrets)!.key).not.toBe(key.key);
    expect(pageKey(url("?lng=en-GB&cfg=a"), declared, data.replace("en-GB", "en-US"), secrets)!.key).not.toBe(key.key);
  });

  it("leaves out a parameter no route declares, and then may not be kept", () => {
    const plain = pageKey(url("?lng=en-GB"), new Set(["lng"]), data, secrets)!;
    expect(pageKey(url("?utm=x&lng=en-GB"), new Set(["lng"]), data, secrets)).toEqual({
      key: plain.key,
      keepable: false,
    });
  });

  it("is none for data without this response's CSRF value", () => {
    expect(pageKey(url(""), new Set(), data.replace(secrets.csrf, "SPRING20"), secrets)).toBeUndefined();
    expect(pageKey(url(""), new Set(), data, { ...secrets, csrf: "SPRING20" })).toBeUndefined();
  });

  it("puts each response's own secrets where the kept page had its own", () => {
    const html = `<script nonce="${secrets.nonce}"></script><input value="${secrets.csrf}"/><p>${secrets.csrf}</p>`;
    const theirs = { nonce: "an0therN0nce12345", csrf: "D".repeat(86) };
    expect(withSecrets(cutSecrets(html, secrets), theirs)).toBe(
      `<script nonce="${theirs.nonce}"></script><input value="${theirs.csrf}"/><p>${theirs.csrf}</p>`,
    );
  });

  it("keeps a page only the second time its key is asked for", () => {
    const pages = pageCache({ maxBytes: 1_000_000, askedOnceBytes: 10_000 });
    expect(pages.worthKeeping("k")).toBe(false);
    expect(pages.worthKeeping("k")).toBe(true);
    pages.keep("k", `<p>${secrets.csrf}</p>`, secrets);
    expect(pages.serve("k", { nonce: "x".repeat(17), csrf: "E".repeat(86) })).toBe(`<p>${"E".repeat(86)}</p>`);
    expect(pages.serve("other", secrets)).toBeUndefined();
  });
});
