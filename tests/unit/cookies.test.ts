// @vitest-environment node
// The site's cookies (app/web/cookies.server.ts): @remix-run/node's, each signed with keys of its
// own name, so a value the site signed for one cookie is refused as another (issue 37).
import { createHmac } from "node:crypto";
import { createCookie as remixCookie, type Cookie } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { loadConfig } from "~/config/env.server";
import { cookieKey, createCookie, createCookieSessionStorage } from "~/web/cookies.server";
import { createSessionService } from "~/web/session.server";

const header = (setCookie: string) => setCookie.split(";")[0]!;
const valueOf = (setCookie: string) => header(setCookie).slice(header(setCookie).indexOf("=") + 1);

const NEW = "the secret that signs: at least 32 characters";
const OLD = "the secret before it: also 32 characters long";

describe("the site's signed cookies", () => {
  it("are @remix-run/node's cookies, signed with HMAC-SHA256(secret, 'box-office cookie:' + name) as the key", async () => {
    expect(cookieKey(NEW, "basket")).toBe(
      createHmac("sha256", NEW).update("box-office cookie:basket").digest("base64url"),
    );
    const ours = createCookie("basket", { secrets: [NEW] });
    const published = remixCookie("basket", { secrets: [cookieKey(NEW, "basket")] });
    const value = { basketId: "b-1", items: [1, 2, 3] };
    expect(await ours.serialize(value)).toBe(await published.serialize(value));
    expect(await ours.parse(header(await published.serialize(value)))).toEqual(value);
  });

  it("refuse a value signed for another name, and one signed with the bare secret (before issue 37)", async () => {
    const basket = createCookie("basket", { secrets: [NEW] });
    const promo = createCookie("promo", { secrets: [NEW] });
    const signedForPromo = valueOf(await promo.serialize("SPRING20"));
    expect(await promo.parse(`promo=${signedForPromo}`)).toBe("SPRING20");
    expect(await basket.parse(`basket=${signedForPromo}`)).toBeNull();
    const bare = remixCookie("basket", { secrets: [NEW] });
    expect(await basket.parse(header(await bare.serialize({ basketId: "b-1" })))).toBeNull();
  });

  it("sign with the first secret and verify with every one, until a secret leaves the list", async () => {
    const rotated = createCookie("basket", { secrets: [NEW, OLD] });
    const before = createCookie("basket", { secrets: [OLD] });
    const after = createCookie("basket", { secrets: [NEW] });
    const value = { basketId: "b-2" };
    const signedBefore = header(await before.serialize(value));
    expect(await rotated.parse(signedBefore)).toEqual(value);
    expect(await after.parse(header(await rotated.serialize(value)))).toEqual(value);
    expect(await after.parse(signedBefore)).toBeNull();
  });

  it("refuse a forged or altered value", async () => {
    const cookie = createCookie("session", { secrets: [NEW] });
    const forger = createCookie("session", { secrets: ["not our secret though 32 characters"] });
    const sent = header(await cookie.serialize({ visitorId: "v-1" }));
    expect(await cookie.parse(sent)).toEqual({ visitorId: "v-1" });
    const altered = sent.slice(0, -2) + (sent.endsWith("AA") ? "BB" : "AA");
    expect(await cookie.parse(altered)).toBeNull();
    expect(await cookie.parse(header(await forger.serialize({ visitorId: "v-1" })))).toBeNull();
  });

  it("keep a session as @remix-run/node's session storage does, under the session cookie's own keys", async () => {
    const storage = createCookieSessionStorage({ cookie: { name: "session", secrets: [NEW] } });
    const session = await storage.getSession();
    session.set("visitorId", "v-9");
    const sent = header(await storage.commitSession(session));
    const again = await storage.getSession(sent);
    expect(again.get("visitorId")).toBe("v-9");
    // Each read is its own session: a change to one is not seen by the next read.
    again.set("visitorId", "changed");
    expect((await storage.getSession(sent)).get("visitorId")).toBe("v-9");
    expect(await createCookie("session", { secrets: [NEW] }).parse(sent)).toEqual({ visitorId: "v-9" });
  });
});

/** Production needs a payment provider named; the sandbox, said in so many words, is one. */
const SANDBOX = { PAYMENT_PROVIDER: "sandbox", SANDBOX_IN_PRODUCTION: "yes" };

describe.each([
  ["test", ""],
  ["production", "__Host-"],
])("every pair of the site's signed cookies (%s names)", (appEnv, prefix) => {
  const sessions = createSessionService(loadConfig({ APP_ENV: appEnv, SESSION_SECRET: `${NEW},${OLD}`, ...SANDBOX }));
  /** What each signed cookie sets for the same value, and what it reads back from a Cookie header. */
  const asCookie = (cookie: Cookie) => ({
    name: cookie.name,
    signed: async (value: Record<string, string>) => valueOf(await cookie.serialize(value)),
    read: (cookieHeader: string) => cookie.parse(cookieHeader) as Promise<unknown>,
  });
  const signedCookies = [
    {
      name: `${prefix}session`,
      signed: async (value: Record<string, string>) => {
        const session = await sessions.storage.getSession();
        for (const [key, field] of Object.entries(value)) session.set(key as "visitorId", field);
        return valueOf(await sessions.commitSession(session));
      },
      // A session cookie that fails its check starts an empty session.
      read: async (cookieHeader: string) => {
        const { data } = await sessions.storage.getSession(cookieHeader);
        return Object.keys(data).length > 0 ? data : null;
      },
    },
    ...[
      sessions.csrfCookie,
      sessions.basketCookie,
      sessions.promoCookie,
      sessions.eventsCookie,
      sessions.orderCookie,
      sessions.authCookie,
      sessions.staffCookie,
    ].map(asCookie),
  ];

  it("has them all, each under its own name", () => {
    expect(signedCookies.map((cookie) => cookie.name)).toEqual(
      ["session", "csrf", "basket", "promo", "events", "order", "auth", "staff"].map((name) => `${prefix}${name}`),
    );
  });

  it("keeps the staff's cookie HttpOnly, SameSite=Strict, for the staff session's length, Secure in production", async () => {
    const sent = await sessions.staffCookie.serialize("token");
    expect(sent.startsWith(`${prefix}staff=`)).toBe(true);
    expect(sent).toMatch(/; Path=\/(;|$)/);
    expect(sent).toMatch(/; HttpOnly(;|$)/);
    expect(sent).toMatch(/; SameSite=Strict(;|$)/);
    expect(sent).toMatch(/; Max-Age=43200(;|$)/);
    expect(/; Secure(;|$)/.test(sent)).toBe(appEnv === "production");
  });

  it("refuses as each the value signed for any other, and reads each's own", async () => {
    const value = { visitorId: "v-1" };
    for (const from of signedCookies) {
      const signed = await from.signed(value);
      for (const to of signedCookies) {
        const read = await to.read(`${to.name}=${signed}`);
        if (to === from) expect(read, `${from.name} as itself`).toEqual(value);
        else expect(read, `${from.name}'s value as ${to.name}`).toBeNull();
      }
    }
  });
});
