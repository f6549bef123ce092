import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { prepareBuild } from "~/server/build.server";

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
