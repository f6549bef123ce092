import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { CacheStats } from "~/caches.server";
import type { Counted } from "./counted";

// What an operator watches (issue 42 item 2; docs/operating.md, "Metrics"): one registry per
// process, in Prometheus's text format at /metrics. Counters count what happened in this process
// since it started; gauges are read when scraped. Label values come only from fixed sets (route
// ids, statuses, outcomes, the catalogue's rooms and the named caches), never from what a visitor
// sends, so no request can grow the series without bound.

/** What the gauges read when scraped. */
export interface Watched {
  /** Each room's line: places waiting and admitted. */
  queues(): Promise<{ room: string; waiting: number; admitted: number }[]>;
  caches(): CacheStats[];
  /** PostgreSQL's connection pool; null on SQLite (one connection, no pool). */
  pool(): { total: number; idle: number; waiting: number } | null;
}

export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: "box_office_" });
  const requestDuration = new Histogram({
    name: "box_office_http_request_duration_seconds",
    help: "Time from a request's arrival to its response's last byte, by route id, method and status",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const orders = new Counter({
    name: "box_office_orders_total",
    help: "Orders placed, paid, failed (payment), cancelled (given up) and refunded, in this process",
    labelNames: ["event"] as const,
    registers,
  });
  const holds = new Counter({
    name: "box_office_holds_total",
    help: "Hold requests granted (made), and places freed after their hold ran out (expired)",
    labelNames: ["event"] as const,
    registers,
  });
  const payments = new Counter({
    name: "box_office_payment_attempts_total",
    help: "Answers from the payment provider by provider and outcome (authorised, declined, actionRequired, pending, error)",
    labelNames: ["provider", "outcome"] as const,
    registers,
  });
  const reconciler = new Counter({
    name: "box_office_reconciler_actions_total",
    help: "Payments the reconciler settled with the provider, won answers it finished, orders it gave up",
    labelNames: ["action"] as const,
    registers,
  });

  const counted: Counted = {
    order: (event) => orders.inc({ event }),
    holds: (event, count = 1) => {
      if (count > 0) holds.inc({ event }, count);
    },
    paymentAttempt: (provider, outcome) => payments.inc({ provider, outcome }),
    reconciled: (action) => reconciler.inc({ action }),
  };

  /** Caches made outside the services (the web layer's), reported beside theirs. */
  const moreCaches: (() => CacheStats)[] = [];
  const watchCache = (stats: () => CacheStats) => void moreCaches.push(stats);

  /** The gauges, read from the running services at each scrape. */
  function watch(watched: Watched) {
    new Gauge({
      name: "box_office_queue_places",
      help: "Places in each waiting room's line, by state (waiting, admitted)",
      labelNames: ["room", "state"] as const,
      registers,
      async collect() {
        this.reset();
        for (const { room, waiting, admitted } of await watched.queues()) {
          this.set({ room, state: "waiting" }, waiting);
          this.set({ room, state: "admitted" }, admitted);
        }
      },
    });
    const cacheGauge = (name: string, help: string, read: (stats: CacheStats) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ["cache"] as const,
        registers,
        collect() {
          for (const stats of [...watched.caches(), ...moreCaches.map((more) => more())])
            this.set({ cache: stats.name }, read(stats));
        },
      });
    // Hits and misses only ever grow, but are read from the caches, so they are gauges here.
    cacheGauge("box_office_cache_hits", "Lookups that found their entry, by named cache", (stats) => stats.hits);
    cacheGauge("box_office_cache_misses", "Lookups that did not, by named cache", (stats) => stats.misses);
    cacheGauge("box_office_cache_bytes", "Bytes held (keys and values), by named cache", (stats) => stats.bytes);
    cacheGauge("box_office_cache_max_bytes", "The bound in bytes, by named cache", (stats) => stats.maxBytes);
    new Gauge({
      name: "box_office_db_pool_connections",
      help: "PostgreSQL pool: connections open (total), idle, and queries waiting for one",
      labelNames: ["state"] as const,
      registers,
      collect() {
        const pool = watched.pool();
        if (!pool) return;
        this.set({ state: "total" }, pool.total);
        this.set({ state: "idle" }, pool.idle);
        this.set({ state: "waiting" }, pool.waiting);
      },
    });
  }

  return { registry, requestDuration, counted, watch, watchCache };
}

export type Metrics = ReturnType<typeof createMetrics>;
