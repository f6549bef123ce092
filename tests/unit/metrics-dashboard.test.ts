import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMetrics } from "~/monitoring/metrics.server";
import { ROOT } from "../support/app";

// Issue 42 item 2: the Grafana dashboard in deploy/ reads only series /metrics exports, so a
// renamed metric cannot leave a panel silently empty.

const dashboard = JSON.parse(readFileSync(join(ROOT, "deploy/grafana-dashboard.json"), "utf8")) as {
  panels: { title: string; targets: { expr: string }[] }[];
};

describe("deploy/grafana-dashboard.json", () => {
  it("names only metrics the registry has", async () => {
    const metrics = createMetrics();
    metrics.watch({ queues: async () => [], caches: () => [], pool: () => null });
    const exported = new Set((await metrics.registry.getMetricsAsJSON()).map((metric) => metric.name));
    const named = new Set(
      dashboard.panels.flatMap((panel) =>
        panel.targets.flatMap((target) =>
          [...target.expr.matchAll(/\bbox_office_[a-z0-9_]+/g)].map(([name]) =>
            name.replace(/_(bucket|count|sum)$/, ""),
          ),
        ),
      ),
    );
    expect(named.size).toBeGreaterThanOrEqual(10);
    expect([...named].filter((name) => !exported.has(name))).toEqual([]);
  });
});
