import { describe, expect, it } from "vitest";
import { namedCache } from "~/caches.server";
import { askerNetwork, cutSecrets, pageCache, pageKey, withSecrets } from "~/web/page-cache.server";

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

  /** Declared parameters, each accepting any value but "junk". */
  const declaring = (...names: string[]) => new Map(names.map((name) => [name, (value: string) => value !== "junk"]));

  it("is the same for the same path, declared parameters (in any order) and data, whoever's secrets", () => {
    const declared = declaring("lng", "cfg");
    const theirs = { nonce: "an0therN0nce12345", csrf: "D".repeat(86) };
    const key = pageKey(url("?lng=en-GB&cfg=a"), declared, data, secrets)!;
    expect(key.keepable).toBe(true);
    expect(pageKey(url("?cfg=a&lng=en-GB"), declared, data.replace(secrets.csrf, theirs.csrf), theirs)).toEqual(key);
    expect(pageKey(url("?lng=en-US&cfg=a"), declared, data, secrets)!.key).not.toBe(key.key);
    expect(pageKey(url("?lng=en-GB&cfg=a"), declared, data.replace("en-GB", "en-US"), secrets)!.key).not.toBe(key.key);
  });

  it("leaves out a parameter no route declares, and then may not be kept", () => {
    const plain = pageKey(url("?lng=en-GB"), declaring("lng"), data, secrets)!;
    expect(pageKey(url("?utm=x&lng=en-GB"), declaring("lng"), data, secrets)).toEqual({
      key: plain.key,
      keepable: false,
    });
  });

  it("may not be kept for a declared parameter's value its routes do not accept, or a parameter twice", () => {
    expect(pageKey(url("?lng=junk"), declaring("lng"), data, secrets)!.keepable).toBe(false);
    expect(pageKey(url("?lng=en-GB&lng=en-US"), declaring("lng"), data, secrets)!.keepable).toBe(false);
    expect(pageKey(url("?lng=en-GB"), declaring("lng"), data, secrets)!.keepable).toBe(true);
  });

  it("is none for data without this response's CSRF value", () => {
    expect(pageKey(url(""), new Map(), data.replace(secrets.csrf, "SPRING20"), secrets)).toBeUndefined();
    expect(pageKey(url(""), new Map(), data, { ...secrets, csrf: "SPRING20" })).toBeUndefined();
  });

  it("puts each response's own secrets where the kept page had its own", () => {
    const html = `<script nonce="${secrets.nonce}"></script><input value="${secrets.csrf}"/><p>${secrets.csrf}</p>`;
    const theirs = { nonce: "an0therN0nce12345", csrf: "D".repeat(86) };
    expect(withSecrets(cutSecrets(html, secrets), theirs)).toBe(
      `<script nonce="${theirs.nonce}"></script><input value="${theirs.csrf}"/><p>${theirs.csrf}</p>`,
    );
  });

  it("keeps a page only the second time its key is asked for", () => {
    const pages = pageCache({ maxBytes: 1_000_000, newBytes: 100_000, askedOnceBytes: 10_000 });
    expect(pages.worthKeeping("k", "192.0.2.1")).toBeUndefined();
    expect(pages.worthKeeping("k", "192.0.2.1")).toBe("new");
    pages.keep("k", `<p>${secrets.csrf}</p>`, secrets, { by: "new", address: "192.0.2.1" });
    expect(pages.serve("k", { nonce: "x".repeat(17), csrf: "E".repeat(86) }, "192.0.2.1")).toBe(
      `<p>${"E".repeat(86)}</p>`,
    );
    expect(pages.serve("other", secrets, "192.0.2.1")).toBeUndefined();
  });

  it("keeps a page asked for from two addresses among the crowd's, where one address's pages never push it out", () => {
    const page = `<p>${"x".repeat(900)}${secrets.csrf}</p>`;
    const pages = pageCache({ maxBytes: 4_000, newBytes: 4_000, askedOnceBytes: 10_000 });
    expect(pages.worthKeeping("crowd", "192.0.2.1")).toBeUndefined();
    expect(pages.worthKeeping("crowd", "192.0.2.2")).toBe("crowd");
    pages.keep("crowd", page, secrets, { by: "crowd", address: "192.0.2.2" });
    // One address asks for each of many pages twice: each is kept, among its own.
    for (let index = 0; index < 50; index += 1) {
      const key = `junk-${index}`;
      pages.worthKeeping(key, "203.0.113.9");
      const by = pages.worthKeeping(key, "203.0.113.9");
      expect(by).toBe("new");
      pages.keep(key, page, secrets, { by: by!, address: "203.0.113.9" });
      expect(pages.serve(key, secrets, "203.0.113.9")).toBeDefined();
    }
    expect(pages.serve("crowd", secrets, "192.0.2.3")).toBeDefined();
    expect(pages.serve("junk-0", secrets, "203.0.113.9")).toBeUndefined();
    // A page kept for one address joins the crowd's when another asks for it.
    expect(pages.serve("junk-49", secrets, "192.0.2.4")).toBeDefined();
    const [crowd, fresh] = pages.stats();
    expect(crowd).toMatchObject({ name: "pages", entries: 2 });
    expect(fresh).toMatchObject({ name: "pages-new" });
    expect(fresh!.bytes).toBeLessThanOrEqual(4_000);
  });

  it("counts an IPv6 client by its /64 and an IPv4 client by its address", () => {
    expect(askerNetwork("203.0.113.9")).toBe("203.0.113.9");
    expect(askerNetwork("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(askerNetwork("2001:db8:0:1::1")).toBe("2001:db8:0:1::/64");
    expect(askerNetwork("2001:DB8:0000:0001:ffff:1:2:3")).toBe("2001:db8:0:1::/64");
    expect(askerNetwork("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(askerNetwork("::1")).toBe("0:0:0:0::/64");
    expect(askerNetwork("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });
});
