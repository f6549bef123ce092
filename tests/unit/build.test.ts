import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { prepareBuild } from "~/web/build.server";

function fakeBuild(): ServerBuild {
  const route = (id: string, module: Record<string, unknown> = {}) => ({ id, path: id, module });
  return {
    routes: {
      root: route("root"),
      "DEFAULT/home": route("DEFAULT/home"),
      "MULTI_VENUE/home": route("MULTI_VENUE/home"),
      "DEFAULT/tickets": route("DEFAULT/tickets", { action: async () => "reserved" }),
      membership: route("membership"),
    },
    assets: {
      routes: { root: {}, "DEFAULT/home": {}, "MULTI_VENUE/home": {}, "DEFAULT/tickets": {}, membership: {} },
    },
  } as unknown as ServerBuild;
}

const args = (body = "") =>
  ({ request: new Request("http://localhost/", { method: "POST", body }), params: {}, context: {} }) as never;

describe("prepareBuild", () => {
  it("keeps the active mode's routes and the shared ones, on the server and in the browser's manifest", () => {
    const build = prepareBuild(fakeBuild(), "MULTI_VENUE", async () => {});
    expect(Object.keys(build.routes).sort()).toEqual(["MULTI_VENUE/home", "membership", "root"]);
    expect(Object.keys(build.assets.routes).sort()).toEqual(["MULTI_VENUE/home", "membership", "root"]);
  });

  it("checks CSRF before any action runs", async () => {
    const verify = vi.fn(async () => {
      throw new Response(null, { status: 403 });
    });
    const action = prepareBuild(fakeBuild(), "DEFAULT", verify).routes["DEFAULT/tickets"]!.module.action!;
    await expect(action(args())).rejects.toMatchObject({ status: 403 });
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it("runs the action once the check passes", async () => {
    const action = prepareBuild(fakeBuild(), "DEFAULT", async () => {}).routes["DEFAULT/tickets"]!.module.action!;
    await expect(action(args())).resolves.toBe("reserved");
  });

  it("a route without an action answers 405, but only after the CSRF check", async () => {
    const verify = vi.fn(async () => {});
    const action = prepareBuild(fakeBuild(), "DEFAULT", verify).routes.membership!.module.action!;
    await expect(action(args())).rejects.toMatchObject({ status: 405 });
    expect(verify).toHaveBeenCalledTimes(1);
  });
});

describe("prepareBuild: what every form passes before its route reads it", () => {
  const LIMIT = 16;
  const guarded = (verify: (request: Request) => Promise<void>, action?: (args: { request: Request }) => unknown) => {
    const build = fakeBuild();
    if (action) build.routes["DEFAULT/tickets"]!.module.action = action as never;
    return prepareBuild(build, "DEFAULT", verify, LIMIT).routes["DEFAULT/tickets"]!.module.action!;
  };
  const logger = { warn: vi.fn() };
  const post = (request: Request, context: Record<string, unknown> = {}) =>
    ({ request, params: {}, context: { logger, ...context } }) as never;
  const form = (body: BodyInit, headers: Record<string, string> = {}) =>
    new Request("http://localhost/", { method: "POST", body, headers, duplex: "half" } as RequestInit);

  it("a form from another site: 403, before anything reads it", async () => {
    const verify = vi.fn(async () => {});
    const request = form("csrf=x");
    await expect(guarded(verify)(post(request, { formFromAnotherSite: true }))).rejects.toMatchObject({ status: 403 });
    expect(verify).not.toHaveBeenCalled();
    expect(request.bodyUsed).toBe(false);
  });

  it("a Content-Length over the limit: 413 without reading the body", async () => {
    const verify = vi.fn(async () => {});
    const request = form("a=1", { "Content-Length": String(LIMIT + 1) });
    await expect(guarded(verify)(post(request))).rejects.toMatchObject({ status: 413 });
    expect(verify).not.toHaveBeenCalled();
    expect(request.bodyUsed).toBe(false);
  });

  it("a body without a Content-Length is counted, and refused as soon as it passes the limit", async () => {
    const verify = vi.fn(async () => {});
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(10).fill(97));
      },
    });
    await expect(guarded(verify)(post(form(body)))).rejects.toMatchObject({ status: 413 });
    expect(verify).not.toHaveBeenCalled();
    expect(pulled).toBeLessThan(5);
    expect(logger.warn).toHaveBeenCalled();
  });

  it("a body within the limit reaches the CSRF check and the action whole", async () => {
    const seen: string[] = [];
    const verify = async (request: Request) => void seen.push(await request.clone().text());
    const action = async ({ request }: { request: Request }) => request.text();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of ["csrf=", "abc&", "seat=1"]) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    await expect(guarded(verify, action)(post(form(body)))).resolves.toBe("csrf=abc&seat=1");
    expect(seen).toEqual(["csrf=abc&seat=1"]);
  });
});

describe("prepareBuild: a store that cannot be reached", () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  const bug = Object.assign(new Error("no such table: seat_claims"), { code: "SQLITE_ERROR" });
  const build = (loader: () => unknown) => {
    const fake = fakeBuild();
    fake.routes["DEFAULT/tickets"]!.module.loader = loader as never;
    fake.routes["DEFAULT/tickets"]!.module.action = loader as never;
    return prepareBuild(fake, "DEFAULT", async () => {}).routes["DEFAULT/tickets"]!.module;
  };
  const withLogger = () => {
    const logger = { error: vi.fn(), warn: vi.fn() };
    const args = { request: new Request("http://localhost/", { method: "POST" }), params: {}, context: { logger } };
    return { logger, args: args as never };
  };

  it("a loader's or an action's outage answers 503 with Retry-After, logged with the error", async () => {
    const module = build(async () => {
      throw refused;
    });
    for (const run of [module.loader!, module.action!]) {
      const { logger, args } = withLogger();
      const thrown = (await Promise.resolve(run(args)).catch((error: unknown) => error)) as Response;
      expect(thrown).toBeInstanceOf(Response);
      expect(thrown.status).toBe(503);
      expect(Number(thrown.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(await thrown.text()).toBe("");
      expect(logger.error).toHaveBeenCalledWith({ err: refused }, "store unreachable");
    }
  });

  it("any other failure goes on to Remix as it was thrown, and a loader's answer as it was", async () => {
    const { args } = withLogger();
    await expect(
      build(async () => {
        throw bug;
      }).loader!(args),
    ).rejects.toBe(bug);
    await expect(build(async () => "the page").loader!(args)).resolves.toBe("the page");
  });

  it("the route showing the error passes its Retry-After on; otherwise a route's headers are as before", () => {
    const headersOf = (module: ServerBuild["routes"][string]["module"], errorHeaders?: Headers) =>
      new Headers(
        (module.headers as (args: unknown) => HeadersInit)({
          parentHeaders: new Headers({ "Cache-Control": "no-store" }),
          loaderHeaders: new Headers(),
          actionHeaders: new Headers(),
          errorHeaders,
        }),
      );
    const plain = build(async () => null);
    expect(Object.fromEntries(headersOf(plain))).toEqual({ "cache-control": "no-store" });
    expect(headersOf(plain, new Headers({ "Retry-After": "30" })).get("Retry-After")).toBe("30");
    const fake = fakeBuild();
    fake.routes.membership!.module.headers = () => ({ "X-Own": "yes" });
    const own = prepareBuild(fake, "DEFAULT", async () => {}).routes.membership!.module;
    expect(Object.fromEntries(headersOf(own, new Headers({ "Retry-After": "30" })))).toEqual({
      "x-own": "yes",
      "retry-after": "30",
    });
  });
});
