// @vitest-environment node
// The site's cookies (app/web/cookies.server.ts): @remix-run/node's, with a signed value that has
// passed its check remembered so the same value is not checked again.
import { createCookie as remixCookie } from "@remix-run/node";
import cookieSignature from "cookie-signature";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createCookie, createCookieSessionStorage } from "~/web/cookies.server";

const header = (setCookie: string) => setCookie.split(";")[0]!;

describe("the site's signed cookies", () => {
  afterEach(() => vi.restoreAllMocks());

  it("read what @remix-run/node's write, and write what they read, with rotated secrets too", async () => {
    const ours = createCookie("basket", { secrets: ["new secret", "old secret"] });
    const theirs = remixCookie("basket", { secrets: ["new secret", "old secret"] });
    const oldOnly = remixCookie("basket", { secrets: ["old secret"] });
    const value = { basketId: "b-1", items: [1, 2, 3] };
    expect(await ours.parse(header(await theirs.serialize(value)))).toEqual(value);
    expect(await theirs.parse(header(await ours.serialize(value)))).toEqual(value);
    expect(await ours.parse(header(await oldOnly.serialize(value)))).toEqual(value);
    expect(await ours.serialize(value)).toBe(await theirs.serialize(value));
  });

  it("check a value once: the same value again is not checked, another one is", async () => {
    const cookie = createCookie("session-a", { secrets: ["a secret for this test"] });
    const sent = header(await cookie.serialize({ visitorId: "v-1" }));
    const checks = vi.spyOn(cookieSignature, "unsign");
    expect(await cookie.parse(sent)).toEqual({ visitorId: "v-1" });
    expect(await cookie.parse(sent)).toEqual({ visitorId: "v-1" });
    expect(checks).toHaveBeenCalledTimes(1);
    const other = header(await cookie.serialize({ visitorId: "v-2" }));
    expect(await cookie.parse(other)).toEqual({ visitorId: "v-2" });
    expect(checks).toHaveBeenCalledTimes(2);
  });

  it("refuse a forged or altered value every time, even after the genuine one has passed", async () => {
    const cookie = createCookie("session-b", { secrets: ["another secret"] });
    const forger = createCookie("session-b", { secrets: ["not our secret"] });
    const sent = header(await cookie.serialize({ visitorId: "v-1" }));
    expect(await cookie.parse(sent)).toEqual({ visitorId: "v-1" });
    const altered = sent.slice(0, -2) + (sent.endsWith("AA") ? "BB" : "AA");
    const forged = header(await forger.serialize({ visitorId: "v-1" }));
    for (let round = 0; round < 2; round += 1) {
      expect(await cookie.parse(altered)).toBeNull();
      expect(await cookie.parse(forged)).toBeNull();
    }
    // A value that passed under a secret is not taken as passed under another.
    expect(await createCookie("session-b", { secrets: ["a third secret"] }).parse(sent)).toBeNull();
  });

  it("keep a session as @remix-run/node's session storage does", async () => {
    const storage = createCookieSessionStorage({ cookie: { name: "session-c", secrets: ["s"] } });
    const session = await storage.getSession();
    session.set("visitorId", "v-9");
    const sent = header(await storage.commitSession(session));
    const again = await storage.getSession(sent);
    expect(again.get("visitorId")).toBe("v-9");
    // Each read is its own session: a change to one is not seen by the next read.
    again.set("visitorId", "changed");
    expect((await storage.getSession(sent)).get("visitorId")).toBe("v-9");
  });
});
