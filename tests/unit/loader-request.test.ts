// What a loader is handed through the patched @remix-run/server-runtime (patches/, decision 0025):
// the request as it came when it carries none of the parameters Remix strips, and otherwise, as
// unpatched, a request without them. The first case fails without the patch (every loader was
// handed a copy).
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";

function recordingBuild() {
  const seen: { root: Request[]; index: Request[] } = { root: [], index: [] };
  const route = (id: string, parentId?: string) => ({
    id,
    parentId,
    path: parentId ? undefined : "",
    index: parentId ? true : undefined,
    module: `/build/${id}.js`,
    hasAction: false,
    hasLoader: true,
    hasClientAction: false,
    hasClientLoader: false,
    hasErrorBoundary: false,
  });
  const loader =
    (id: "root" | "index") =>
    ({ request }: { request: Request }) => {
      seen[id].push(request);
      return { id };
    };
  const build = {
    mode: "production",
    entry: { module: { default: () => new Response("page") } },
    routes: {
      root: { id: "root", path: "", module: { default: () => null, loader: loader("root") } },
      index: { id: "index", parentId: "root", index: true, module: { default: () => null, loader: loader("index") } },
    },
    assets: {
      entry: { module: "/build/entry.client.js", imports: [] },
      routes: { root: route("root"), index: route("index", "root") },
      url: "/build/manifest.js",
      version: "test",
    },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: { v3_singleFetch: true },
    isSpaMode: false,
  } as unknown as ServerBuild;
  return { handler: createRequestHandler(build, "production"), seen };
}

describe("the request a loader is handed", () => {
  it("is the request itself when it carries no index or _routes parameter", async () => {
    const { handler, seen } = recordingBuild();
    const request = new Request("http://box.office/?q=1", { headers: { accept: "text/html" } });
    expect((await handler(request)).status).toBe(200);
    expect(seen.root).toEqual([request]);
    expect(seen.root[0]).toBe(request);
    expect(seen.index[0]).toBe(request);
  });

  it("loses an empty index parameter and the _routes parameter, and keeps the rest", async () => {
    const { handler, seen } = recordingBuild();
    await handler(new Request("http://box.office/?index&q=1&_routes=root", { headers: { accept: "text/html" } }));
    expect(seen.root.map((request) => request.url)).toEqual(["http://box.office/?q=1"]);
    expect(seen.index.map((request) => request.url)).toEqual(["http://box.office/?q=1"]);
  });
});
