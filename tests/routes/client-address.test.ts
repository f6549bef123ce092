import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { cookiesFrom, startServer } from "../support/app";
import { smallCatalogueFacts } from "../support/checkout-journey";
import { seedSmall } from "../support/seed";

// Issue 53: with TRUST_PROXY=true Express believed the left-most X-Forwarded-For entry, which the
// client writes, so one client took 24 waiting-room places against a limit of 5 and tried 30
// accounts' passwords without one 429. Here the test client is the trusted proxy (127.0.0.1), as
// nginx is, forwarding what a client forged before the address it saw itself: the right-most.

/** A client behind the proxy: its cookies kept, every request forwarded as `forwardedFor` says. */
function clientBehindProxy(url: (path: string) => string) {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const pair of cookiesFrom(response).split("; ").filter(Boolean)) {
      const [name, value] = pair.split(/=(.*)/s) as [string, string];
      cookies.set(name, value);
    }
    return response;
  };
  const headers = (forwardedFor: string, extra: Record<string, string> = {}) => ({
    "X-Forwarded-For": forwardedFor,
    Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    ...extra,
  });
  return {
    /** Follows redirects as a browser does, each hop sent the same way. */
    async get(path: string, forwardedFor: string): Promise<Response> {
      let response = keep(await fetch(url(path), { headers: headers(forwardedFor), redirect: "manual" }));
      for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 5; hops += 1) {
        await response.arrayBuffer();
        const next = new URL(response.headers.get("Location")!, url("/"));
        response = keep(
          await fetch(url(next.pathname + next.search), { headers: headers(forwardedFor), redirect: "manual" }),
        );
      }
      return response;
    },
    /** Posts a form with the CSRF token of a page's form (the one posted to, unless another is named). */
    async post(
      path: string,
      fields: Record<string, string>,
      forwardedFor: string,
      { headers: extra, formOn = path }: { headers?: Record<string, string>; formOn?: string } = {},
    ) {
      const page = await this.get(formOn, forwardedFor);
      const csrf = /<input[^>]* name="csrf" value="([^"]*)"/.exec(await page.text())?.[1];
      if (csrf === undefined) throw new Error(`${path} has no form`);
      return keep(
        await fetch(url(path), {
          method: "POST",
          headers: headers(forwardedFor, extra),
          body: new URLSearchParams({ ...fields, csrf }),
          redirect: "manual",
        }),
      );
    },
  };
}

/** What a client writes itself, a new one each time, before the address the proxy saw. */
const forged = (index: number, real: string) => `198.51.100.${index}, ${real}`;

describe.each(["1", "loopback"])("behind a trusted proxy (TRUST_PROXY=%s)", (trustProxy) => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let tickets: string;
  beforeAll(async () => {
    server = await startServer(
      {
        TRUST_PROXY: trustProxy,
        QUEUE_ACTIVE_BUYERS: "1",
        QUEUE_IDLE_MINUTES: "60",
        QUEUE_JOINS_PER_ADDRESS: "2",
        QUEUE_JOINS_PER_SESSION: "100",
      },
      // Sign-in's throttle waits are measured on this clock, which stands still.
      { seed: seedSmall, clock: fixedClock("2026-12-07T10:00:00Z") },
    );
    const { performanceId } = await smallCatalogueFacts(server.services.store);
    tickets = `/shows/test-show/test-hall/tickets/${performanceId}`;
  });
  afterAll(() => server.close());

  it("waiting-room places are counted by the address the proxy saw, whatever the client wrote before it", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      const response = await clientBehindProxy(server.url).get(tickets, forged(index, "203.0.113.7"));
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    // In, then a place in the queue, then refused: two places per address.
    expect(statuses).toEqual([200, 200, 429, 429]);
    const elsewhere = await clientBehindProxy(server.url).get(tickets, forged(9, "203.0.113.8"));
    expect(elsewhere.status).toBe(200);
    // The door answers at the tickets page's own address with the place it took (issue 54).
    expect(new URL(elsewhere.url).pathname).toBe(tickets);
    expect(await elsewhere.text()).toMatch(/Your place in the queue: 2 of 2/);
  });

  it("wrong passwords are counted by the address the proxy saw, whatever the client wrote before it", async () => {
    const signIn = (index: number, real: string) =>
      clientBehindProxy(server.url).post(
        "/account/sign-in",
        { email: `nobody${index}@example.com`, password: "not the password", redirectTo: "" },
        forged(index, real),
      );
    const statuses: number[] = [];
    for (let index = 0; index < 8; index += 1) statuses.push((await signIn(index, "203.0.113.9")).status);
    // A few free tries (the sign-in throttle's), then made to wait: each to a different account.
    expect(statuses[0]).toBe(400);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    expect((await signIn(20, "203.0.113.10")).status).toBe(400);
  });

  it("believes the proxy's X-Forwarded-Host, so a form's Origin is compared with the host the browser used", async () => {
    const response = await clientBehindProxy(server.url).post("/legal/privacy-policy", {}, "203.0.113.11", {
      formOn: "/account/sign-in",
      headers: { Origin: "https://tickets.example", "X-Forwarded-Host": "tickets.example" },
    });
    // Past the check: this page has no action.
    expect(response.status).toBe(405);
  });
});

describe("without a trusted proxy (TRUST_PROXY unset)", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it("believes no X-Forwarded-For: every forged address is the one client it is", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 8; index += 1) {
      const response = await clientBehindProxy(server.url).post(
        "/account/sign-in",
        { email: `nobody${index}@example.com`, password: "not the password", redirectTo: "" },
        `198.51.100.${index}`,
      );
      statuses.push(response.status);
    }
    expect(statuses[0]).toBe(400);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });

  it("believes no X-Forwarded-Host: a form from another site naming its own host there is still refused", async () => {
    const response = await clientBehindProxy(server.url).post("/legal/privacy-policy", {}, "198.51.100.1", {
      formOn: "/account/sign-in",
      headers: { Origin: "https://evil.example", "X-Forwarded-Host": "evil.example" },
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("This form came from another site");
  });
});
