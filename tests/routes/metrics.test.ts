import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { htmlDriver } from "../support/html-driver";
import { fillCard, holdOneSeatToPayment } from "../support/no-script-checkout";
import { seedSmall } from "../support/seed";

// Issue 42 item 2: /metrics in Prometheus's text format, read after purchases made as a buyer
// without script makes them, and closed to anyone without the token in production.

type Server = Awaited<ReturnType<typeof startServer>>;

/** One sample of the exposition: its metric name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus's text format (version 0.0.4): `name{label="value",…} number`, comments skipped. */
function samples(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [
          key!,
          value!,
        ]),
      );
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

const valueOf = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  all
    .filter(
      (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);

describe("/metrics after purchases without script", () => {
  let server: Server;

  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("counts the orders, the payments' outcomes, the holds and the requests by route", async () => {
    const paid = htmlDriver(server.url(""));
    await holdOneSeatToPayment(server.services.store, paid, "B", 3);
    fillCard(paid, "4242 4242 4242 4242");
    await paid.press(/^Pay /);
    expect(new URL(paid.url).pathname).toBe("/checkout/confirmation");

    const declined = htmlDriver(server.url(""));
    await holdOneSeatToPayment(server.services.store, declined, "B", 4);
    fillCard(declined, "4000 0000 0000 0002");
    await declined.press(/^Pay /);

    const response = await fetch(server.url("/metrics"));
    expect(response.status).toBe(200);
    const contentType = response.headers.get("content-type") ?? "";
    expect(contentType.split(";")[0]).toBe("text/plain");
    expect(contentType).toMatch(/\bversion=0\.0\.4\b/);
    const all = samples(await response.text());

    expect(valueOf(all, "box_office_orders_total", { event: "placed" })).toBe(2);
    expect(valueOf(all, "box_office_orders_total", { event: "paid" })).toBe(1);
    expect(valueOf(all, "box_office_orders_total", { event: "failed" })).toBe(1);
    expect(valueOf(all, "box_office_payment_attempts_total", { provider: "sandbox", outcome: "authorised" })).toBe(1);
    expect(valueOf(all, "box_office_payment_attempts_total", { provider: "sandbox", outcome: "declined" })).toBe(1);
    expect(valueOf(all, "box_office_holds_total", { event: "made" })).toBe(2);

    // Each buyer's Pay, by its route id; the seat map by its own, whatever performance it showed.
    const payments = all.find(
      (sample) =>
        sample.name === "box_office_http_request_duration_seconds_count" &&
        sample.labels.route?.endsWith("checkout/payment") &&
        sample.labels.method === "POST",
    );
    expect(payments?.value).toBeGreaterThanOrEqual(2);
    expect(
      all.some(
        (sample) =>
          sample.name === "box_office_http_request_duration_seconds_count" && sample.labels.route?.endsWith("tickets"),
      ),
    ).toBe(true);
    // No raw paths: made-up ones are counted under the route that answered them (the site's
    // "not found" page), never as series of their own.
    const before = new Set(all.map((sample) => sample.labels.route));
    for (const path of ["/no/such/page/12345", "/no/such/page/67890", "/x.php"]) await fetch(server.url(path));
    const after = samples(await (await fetch(server.url("/metrics"))).text());
    const routes = new Set(after.filter((s) => s.name.startsWith("box_office_http_")).map((s) => s.labels.route));
    expect([...routes].filter((route) => /12345|67890|php/.test(route ?? ""))).toEqual([]);
    const added = [...routes].filter((route) => !before.has(route));
    expect(added).toContain("not-found");
    expect(added.filter((route) => !["metrics", "not-found", "static"].includes(route!))).toEqual([]);

    // The page cache, the seat map's cache and the route labels' report themselves by name; each
    // made-up path was a label looked up once (a miss) and kept within the cache's bound.
    expect(after.some((s) => s.name === "box_office_cache_bytes" && s.labels.cache === "seat-map-sections")).toBe(true);
    expect(after.some((s) => s.name === "box_office_cache_hits" && s.labels.cache === "pages")).toBe(true);
    const labels = (name: string) =>
      after.find((s) => s.name === name && s.labels.cache === "route-labels")?.value ?? Number.NaN;
    expect(labels("box_office_cache_misses")).toBeGreaterThanOrEqual(3);
    expect(labels("box_office_cache_bytes")).toBeLessThanOrEqual(labels("box_office_cache_max_bytes"));
  });
});

describe("/metrics in production", () => {
  const production = { APP_ENV: "production", PAYMENT_PROVIDER: "sandbox", SANDBOX_IN_PRODUCTION: "yes" };

  it("answers only with METRICS_TOKEN as a bearer token", async () => {
    const server = await startServer({ ...production, METRICS_TOKEN: "metrics-token-0123456789" });
    try {
      expect((await fetch(server.url("/metrics"))).status).toBe(401);
      const wrong = await fetch(server.url("/metrics"), {
        headers: { authorization: "Bearer metrics-token-9876543210" },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/);
      const right = await fetch(server.url("/metrics"), {
        headers: { authorization: "Bearer metrics-token-0123456789" },
      });
      expect(right.status).toBe(200);
      expect(await right.text()).toContain("box_office_orders_total");
    } finally {
      await server.close();
    }
  });

  it("is not there at all without a token", async () => {
    const server = await startServer(production);
    try {
      const response = await fetch(server.url("/metrics"));
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("box_office_");
    } finally {
      await server.close();
    }
  });
});
