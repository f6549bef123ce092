import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";

describe("the server-error page", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer(
      { APP_ENV: "production", SESSION_SECRET: "s".repeat(40) },
      {
        adjust: (services) => {
          services.sessions.getSession = async () => {
            throw new Error("database password is hunter2 at /srv/app/secret.ts:12");
          };
        },
      },
    );
  });
  afterAll(() => server.close());

  it("answers 500 in the spec's words, with no stack trace or internals", async () => {
    const response = await fetch(server.url("/"));
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("Unknown error");
    expect(html).toContain("Please try again in a few moments.");
    expect(html).not.toContain("hunter2");
    expect(html).not.toContain("secret.ts");
    expect(html).not.toMatch(/at \S+ \(/);
  });
});
