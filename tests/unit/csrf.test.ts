// @vitest-environment node
// The CSRF token (app/web/csrf.server.ts): the cookie holds it only in the shape the site makes,
// and each response's page carries it masked with a pad of its own (BREACH).
import { describe, expect, it } from "vitest";
import { loadConfig } from "~/config/env.server";
import { maskCsrfToken, unmaskCsrfToken } from "~/web/csrf.server";
import { createSessionService } from "~/web/session.server";

const NEW = "the secret that signs: at least 32 characters";
const OLD = "the secret before it: also 32 characters long";

const service = (...secrets: string[]) =>
  createSessionService(loadConfig({ APP_ENV: "test", SESSION_SECRET: secrets.join(",") }));
const header = (setCookie: string) => setCookie.split(";")[0]!;

const page = (cookie?: string) =>
  new Request("http://localhost/membership", { headers: cookie ? { Cookie: cookie } : {} });
const form = (fields: Record<string, string>, cookie?: string) =>
  new Request("http://localhost/membership", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields),
  });

/** What verifyCsrf answered: "passed", or the status and body of the response it threw. */
async function verdict(sessions: ReturnType<typeof service>, request: Request) {
  try {
    await sessions.verifyCsrf(request);
    return "passed";
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    return { status: error.status, body: await error.text() };
  }
}
const REFUSED = { status: 403, body: "" };

/** A buyer's first page: the CSRF cookie it sets, and the token that cookie holds. */
async function firstVisit(sessions: ReturnType<typeof service>) {
  const [masked, setCookie] = await sessions.csrfToken(page());
  expect(setCookie).not.toBeNull();
  const cookie = header(setCookie!);
  const token = (await sessions.csrfCookie.parse(cookie)) as string;
  return { masked, cookie, token };
}

describe("the CSRF token a page carries", () => {
  const sessions = service(NEW);

  it("is the cookie's token masked afresh for each response, never the token itself, and each verifies", async () => {
    const first = await firstVisit(sessions);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const values = [first.masked];
    for (let response = 0; response < 3; response += 1) {
      const [masked, setCookie] = await sessions.csrfToken(page(first.cookie));
      expect(setCookie).toBeNull();
      values.push(masked);
    }
    expect(new Set(values).size).toBe(values.length);
    for (const masked of values) {
      expect(masked).toMatch(/^[A-Za-z0-9_-]{86}$/);
      expect(masked).not.toContain(first.token);
      expect(unmaskCsrfToken(masked)?.toString("base64url")).toBe(first.token);
      expect(await verdict(sessions, form({ csrf: masked }, first.cookie))).toBe("passed");
    }
  });

  it("refuses it with any byte changed, pad or masked token", async () => {
    const { masked, cookie } = await firstVisit(sessions);
    for (const index of [0, 17, 31, 32, 50, 63]) {
      const bytes = Buffer.from(masked, "base64url");
      bytes[index] = bytes[index]! ^ 0x01;
      expect(await verdict(sessions, form({ csrf: bytes.toString("base64url") }, cookie)), `byte ${index}`).toEqual(
        REFUSED,
      );
    }
  });

  it("refuses any other shape: the token unmasked, padded, cut short, too long, base64, another spelling", async () => {
    const { masked, cookie, token } = await firstVisit(sessions);
    // The last character of 64 bytes in base64url holds 2 bits and 4 spare ones: another
    // spelling of the same bytes, which a lenient decoder would take.
    const last = masked.at(-1)!;
    const respelt = masked.slice(0, -1) + String.fromCharCode(last.charCodeAt(0) + 1);
    expect(Buffer.from(respelt, "base64url").equals(Buffer.from(masked, "base64url"))).toBe(true);
    const base64 = Buffer.from(masked, "base64url").toString("base64");
    for (const shape of [
      token,
      `${masked}=`,
      masked.slice(1),
      `${masked}A`,
      ` ${masked}`,
      respelt,
      base64 === masked ? null : base64,
      "",
    ]) {
      if (shape === null) continue;
      expect(await verdict(sessions, form({ csrf: shape }, cookie)), shape).toEqual(REFUSED);
    }
    expect(await verdict(sessions, form({}, cookie))).toEqual(REFUSED);
    // Another buyer's token, masked as their page carries it.
    const theirs = await firstVisit(sessions);
    expect(await verdict(sessions, form({ csrf: theirs.masked }, cookie))).toEqual(REFUSED);
  });

  it("is unmasked by XOR of its two halves: pad ‖ (pad XOR token)", () => {
    const token = Buffer.alloc(32, 0xa5);
    const masked = Buffer.from(maskCsrfToken(token), "base64url");
    expect(masked).toHaveLength(64);
    const [pad, xored] = [masked.subarray(0, 32), masked.subarray(32)];
    expect(xored.equals(Buffer.from(pad.map((byte) => byte ^ 0xa5)))).toBe(true);
    expect(unmaskCsrfToken(masked.toString("base64url"))?.equals(token)).toBe(true);
  });

  it("says cookies are needed when our form comes without any CSRF cookie, and only then", async () => {
    const { masked, cookie, token } = await firstVisit(sessions);
    const noCookies = { status: 403, body: "noCookies" };
    expect(await verdict(sessions, form({ csrf: masked }))).toEqual(noCookies);
    expect(await verdict(sessions, form({ csrf: masked }, "lng=en-GB"))).toEqual(noCookies);
    // No token in the form: not our form.
    expect(await verdict(sessions, form({ intent: "join" }))).toEqual(REFUSED);
    // A CSRF cookie sent but refused (a forgery, a secret no longer in the list): reloading mends it.
    const forged = header(await service("a forger's secret: at least 32 characters").csrfCookie.serialize(token));
    expect(await verdict(sessions, form({ csrf: masked }, forged))).toEqual(REFUSED);
    // Not a form at all.
    const json = new Request("http://localhost/membership", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie },
      body: "{}",
    });
    expect(await verdict(sessions, json)).toEqual(REFUSED);
  });
});

describe("the CSRF cookie's token", () => {
  const sessions = service(NEW);

  it("is taken only in the generator's shape: anything else gets a new token and its cookie, as if none", async () => {
    const { token } = await firstVisit(sessions);
    const respelt = token.slice(0, -1) + String.fromCharCode(token.charCodeAt(42) + 1);
    for (const held of [
      "SPRING20",
      token.slice(1),
      `${token}A`,
      `${token}=`,
      respelt,
      Buffer.from(token, "base64url").toString("base64"),
      42,
      { token },
    ]) {
      // Signed as the site signs its CSRF cookie: only the shape is wrong.
      const cookie = header(await sessions.csrfCookie.serialize(held));
      const [masked, setCookie] = await sessions.csrfToken(page(cookie));
      expect(setCookie, JSON.stringify(held)).not.toBeNull();
      const fresh = (await sessions.csrfCookie.parse(header(setCookie!))) as string;
      expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(fresh).not.toBe(held);
      expect(unmaskCsrfToken(masked)?.toString("base64url")).toBe(fresh);
      // A form carrying the held value, masked as a page would, is refused.
      if (typeof held === "string" && /^[A-Za-z0-9_-]+$/.test(held)) {
        const bytes = Buffer.alloc(32);
        Buffer.from(held, "base64url").copy(bytes);
        expect(await verdict(sessions, form({ csrf: maskCsrfToken(bytes) }, cookie)), held).toEqual(REFUSED);
      }
    }
  });

  it("still verifies when signed with an older secret in the list, and not once that secret is gone", async () => {
    const before = await firstVisit(service(OLD));
    const rotated = service(NEW, OLD);
    const [masked, setCookie] = await rotated.csrfToken(page(before.cookie));
    expect(setCookie).toBeNull();
    expect(unmaskCsrfToken(masked)?.toString("base64url")).toBe(before.token);
    expect(await verdict(rotated, form({ csrf: masked }, before.cookie))).toBe("passed");
    expect(await verdict(rotated, form({ csrf: before.masked }, before.cookie))).toBe("passed");

    const dropped = service(NEW);
    expect((await dropped.csrfToken(page(before.cookie)))[1]).not.toBeNull();
    expect(await verdict(dropped, form({ csrf: masked }, before.cookie))).toEqual(REFUSED);
  });
});
