import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchBackend } from "~/i18n/fetch-backend";

// i18next core retries a read whose callback says `true` (spec section 9: up to 5 retries).
function read(respond: () => Promise<Response>) {
  vi.stubGlobal("fetch", vi.fn(respond));
  const backend = fetchBackend((language, namespace) => `/locales/${language}/${namespace}.json`);
  return new Promise<{ error: unknown; data: unknown }>((resolve) =>
    backend.read("en-GB", "common", (error, data) => resolve({ error, data })),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("fetchBackend", () => {
  it("reads the wording set's JSON from its path", async () => {
    const result = await read(async () => Response.json({ greeting: "Hello" }));
    expect(result).toEqual({ error: null, data: { greeting: "Hello" } });
    expect(vi.mocked(fetch).mock.calls[0]![0]).toBe("/locales/en-GB/common.json");
  });

  it("asks for a retry after a network failure, a server error or a 429", async () => {
    for (const respond of [
      () => Promise.reject(new TypeError("Failed to fetch")),
      async () => new Response("", { status: 503 }),
      async () => new Response("", { status: 429 }),
    ]) {
      const { error, data } = await read(respond);
      expect(error).toBeInstanceOf(Error);
      expect(data).toBe(true);
    }
  });

  it("does not retry what another try will not fix: a 404 or unreadable JSON", async () => {
    for (const respond of [async () => new Response("", { status: 404 }), async () => new Response("{")]) {
      const { error, data } = await read(respond);
      expect(error).toBeInstanceOf(Error);
      expect(data).toBe(false);
    }
  });
});
