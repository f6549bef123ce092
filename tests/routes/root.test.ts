import { describe, expect, it } from "vitest";
import { loader } from "~/root";
import { createCookie } from "~/web/cookies.server";
import { unmaskCsrfToken } from "~/web/csrf.server";
import { testContext, TEST_SECRET } from "../support/app";

async function load(
  path: string,
  { headers = {}, params = {}, env = {} } = {} as {
    headers?: Record<string, string>;
    params?: Record<string, string>;
    env?: Record<string, string>;
  },
) {
  const context = await testContext(env);
  try {
    const request = new Request(`http://localhost${path}`, { headers });
    const result = await loader({ request, params, context });
    const cookies = [...((result.init?.headers as Headers | undefined)?.getSetCookie() ?? [])];
    const session = await context.sessions.storage.getSession(cookies.map((cookie) => cookie.split(";")[0]).join("; "));
    return { data: result.data, cookies, session };
  } finally {
    await context.close();
  }
}

describe("root loader", () => {
  it("a first visit gets the deployment's defaults, a visitor id and a CSRF token", async () => {
    const { data, cookies, session } = await load("/");
    expect(data).toMatchObject({ locale: "en-GB", theme: "default", wordingSet: "common" });
    // The page carries the cookie's token masked for this response (app/web/csrf.server.ts).
    const csrfCookie = cookies.find((cookie) => cookie.startsWith("csrf="));
    const token = await createCookie("csrf", { secrets: [TEST_SECRET] }).parse(csrfCookie!.split(";")[0]!);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.csrf).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(unmaskCsrfToken(data.csrf)?.toString("base64url")).toBe(token);
    expect(session.get("visitorId")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("THEME and LANGUAGE set the deployment's defaults", async () => {
    const { data } = await load("/", { env: { THEME: "liberty", LANGUAGE: "en-US" } });
    expect(data).toMatchObject({ locale: "en-US", theme: "liberty" });
  });

  it("?cfg= with a known theme overrides it and remembers it in a cookie", async () => {
    const { data, cookies } = await load("/?cfg=regent");
    expect(data.theme).toBe("regent");
    expect(cookies.find((cookie) => cookie.startsWith("theme="))).toMatch(/Max-Age=31536000/);
    const again = await load("/", { headers: { Cookie: cookies.map((cookie) => cookie.split(";")[0]).join("; ") } });
    expect(again.data.theme).toBe("regent");
  });

  it("?cfg= with an unknown name is ignored and not remembered", async () => {
    const { data, cookies } = await load("/?cfg=..%2Fsecrets");
    expect(data.theme).toBe("default");
    expect(cookies.some((cookie) => cookie.startsWith("theme="))).toBe(false);
  });

  it("language: ?lng beats the cookie, which beats Accept-Language, which beats LANGUAGE", async () => {
    const byHeader = await load("/", { headers: { "Accept-Language": "en-US,en;q=0.8" } });
    expect(byHeader.data.locale).toBe("en-US");
    expect(byHeader.cookies.some((cookie) => cookie.startsWith("lng="))).toBe(false);

    const byQuery = await load("/?lng=en-US", { headers: { "Accept-Language": "en-GB" } });
    expect(byQuery.data.locale).toBe("en-US");
    const lngCookie = byQuery.cookies.find((cookie) => cookie.startsWith("lng="))!.split(";")[0]!;

    const byCookie = await load("/", { headers: { Cookie: lngCookie, "Accept-Language": "en-GB" } });
    expect(byCookie.data.locale).toBe("en-US");

    const queryOverCookie = await load("/?lng=en-GB", { headers: { Cookie: lngCookie } });
    expect(queryOverCookie.data.locale).toBe("en-GB");

    const unsupported = await load("/?lng=fr-FR", {
      headers: { "Accept-Language": "de-DE" },
      env: { LANGUAGE: "en-US" },
    });
    expect(unsupported.data.locale).toBe("en-US");
    expect(unsupported.cookies.some((cookie) => cookie.startsWith("lng="))).toBe(false);
  });

  it("keeps the attribution and experiment parameters in the session", async () => {
    const { session } = await load(
      "/?crmCampaignId=WINTER26&crmUserId=u-42&crmEmail=jo%40example.com&src=newsletter&force-opty=summary:top&force-opty=seatmap:b",
    );
    expect(session.get("attribution")).toEqual({
      crmCampaignId: "WINTER26",
      crmUserId: "u-42",
      crmEmail: "jo@example.com",
      src: "newsletter",
    });
    expect(session.get("forcedVariations")).toEqual({ summary: "top", seatmap: "b" });
  });

  it("a venue with its own wording set uses it; any other venue uses the common one", async () => {
    expect((await load("/", { params: { venueSlug: "foundry-hall" } })).data.wordingSet).toBe("foundry-hall");
    expect((await load("/", { params: { venueSlug: "unknown-venue" } })).data.wordingSet).toBe("common");
    const single = await load("/", { env: { ROUTING_TYPE: "SINGLE_VENUE", VENUE_SLUG: "regent-palace" } });
    expect(single.data.wordingSet).toBe("regent-palace");
  });
});
