import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { fixedClock } from "~/clock";
import { prepareStore } from "~/composition/app-services.server";
import { loadConfig } from "~/config/env.server";
import { openPostgres, openSqlite, type Store } from "~/db/connection.server";
import { watchClaimChanges, type ChangeFeed } from "~/db/change-feed.server";
import { createJobLeases, startPeriodicJob } from "~/db/leases.server";
import { createLogger } from "~/logging/logger.server";
import { createAvailability } from "~/ticketing/availability-service.server";
import { createInventory } from "~/ticketing/inventory.server";
import { smallCatalogue } from "../support/catalogue";
import { seedSmallCatalogue } from "../support/engine";
import { createTestStore, DIALECTS, POSTGRES_URL, type TestStore } from "../support/stores";

// What several processes sharing one database need of the store (decision 0030): one of them runs
// each periodic job, each hears the others' changes to availability as they commit, and start-up
// work happens once. A second connection to the same database stands for another process.

function secondConnection(store: TestStore): Store {
  return store.dialect === "sqlite" ? openSqlite(store.location) : openPostgres(store.location, 2);
}

describe.each(DIALECTS)("several processes on one %s database", (dialect) => {
  let store: TestStore;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  beforeAll(async () => {
    store = await createTestStore(dialect);
    seed = await seedSmallCatalogue(store);
  });
  afterAll(() => store.drop());

  it("a job's lease is one process's at a time, until it lapses or is given back", async () => {
    const clock = fixedClock("2026-11-25T09:00:00.000Z");
    const first = createJobLeases(store, clock, "first");
    const second = createJobLeases(store, clock, "second");
    expect(await first.acquire("job", 30_000)).toBe(true);
    expect(await second.acquire("job", 30_000)).toBe(false);
    // The holder renews it; another job is free to take.
    clock.advance(20_000);
    expect(await first.acquire("job", 30_000)).toBe(true);
    expect(await second.acquire("other job", 30_000)).toBe(true);
    clock.advance(20_000);
    expect(await second.acquire("job", 30_000)).toBe(false);
    // The holder died: its lease lapses and another process takes the job over.
    clock.advance(10_000);
    expect(await second.acquire("job", 30_000)).toBe(true);
    expect(await first.acquire("job", 30_000)).toBe(false);
    await second.release("job");
    expect(await first.acquire("job", 30_000)).toBe(true);
  });

  it("two processes' timers for one job: only the lease's holder runs it", async () => {
    const clock = fixedClock("2026-11-25T10:00:00.000Z");
    const other = secondConnection(store);
    onTestFinished(() => other.close());
    const runs: string[] = [];
    const jobs = [
      { name: "a", leases: createJobLeases(store, clock, "a") },
      { name: "b", leases: createJobLeases(other, clock, "b") },
    ].map(({ name, leases }) =>
      startPeriodicJob({
        name: "sweeper",
        intervalMs: 10,
        leases,
        run: async () => void runs.push(name),
        onError: (error) => {
          throw error;
        },
      }),
    );
    await expect.poll(() => runs.length, { timeout: 2_000, interval: 10 }).toBeGreaterThanOrEqual(6);
    // Who ran while both timers were going: once the holder stops, it hands the lease back and the
    // other may take it up before it stops too (as it should: that is a clean shutdown's handover).
    const ranWhileBoth = new Set(runs);
    await Promise.all(jobs.map((job) => job.stop()));
    expect(ranWhileBoth.size).toBe(1);
  });

  describe("availability across processes", () => {
    /** One process: its store connection, its cache, the inventory that reports to it, and its feed. */
    function process_(connection: Store, feed?: ChangeFeed) {
      const availability = createAvailability(connection, seed.clock, { maxAgeMs: 5_000, feed });
      const inventory = createInventory(connection, seed.clock, undefined, availability.changed);
      return { availability, inventory };
    }
    const left = async (availability: ReturnType<typeof process_>["availability"]) =>
      (await availability.summary([seed.onSale.id])).get(seed.onSale.id)?.left;

    it("a hold made by one process shows in the other's cached count at once, the clock standing still", async () => {
      seed.clock.set("2026-11-23T12:00:00.000Z");
      const other = secondConnection(store);
      const feed = watchClaimChanges(other, { pollMs: 10 });
      onTestFinished(async () => {
        await feed.close();
        await other.close();
      });
      await expect.poll(() => feed.live(), { timeout: 5_000, interval: 10 }).toBe(true);
      const seller = process_(store);
      const watcher = process_(other, feed);
      const before = await left(watcher.availability);
      const held = await seller.inventory.holdSeats({
        basketId: "across",
        performanceId: seed.onSale.id,
        seatIds: [seed.seat("B", "6"), seed.seat("B", "7")],
      });
      expect(held.ok).toBe(true);
      await expect.poll(() => left(watcher.availability), { timeout: 2_000, interval: 10 }).toBe(before! - 2);
      await seller.inventory.releasePart({
        basketId: "across",
        performanceId: seed.onSale.id,
        seatIds: [seed.seat("B", "6")],
      });
      await expect.poll(() => left(watcher.availability), { timeout: 2_000, interval: 10 }).toBe(before! - 1);
    });

    it("control: without the feed, the other process's count stays as it was until the maximum age", async () => {
      seed.clock.set("2026-11-23T13:00:00.000Z");
      const other = secondConnection(store);
      onTestFinished(() => other.close());
      const seller = process_(store);
      const watcher = process_(other);
      const before = await left(watcher.availability);
      await seller.inventory.holdSeats({
        basketId: "unheard",
        performanceId: seed.onSale.id,
        seatIds: [seed.seat("B", "8")],
      });
      await sleep(150);
      expect(await left(watcher.availability)).toBe(before);
      seed.clock.advance(5_001);
      expect(await left(watcher.availability)).toBe(before! - 1);
    });
  });
});

describe.runIf(DIALECTS.includes("postgres"))("the PostgreSQL listener", () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await createTestStore("postgres");
  });
  afterAll(() => store.drop());

  it("connects again when PostgreSQL drops it, saying so, and hears changes again", async () => {
    const applicationName = `listener-${Date.now()}`;
    const states: string[] = [];
    const heard: (string | null)[] = [];
    const feed = watchClaimChanges(store, { applicationName, retryMs: 20, onState: (state) => states.push(state) });
    onTestFinished(() => feed.close());
    feed.subscribe((performanceId) => heard.push(performanceId));
    await expect.poll(() => feed.live(), { timeout: 5_000, interval: 10 }).toBe(true);

    // What a restart or failover does to it.
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    onTestFinished(() => admin.end());
    await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1", [
      applicationName,
    ]);
    await expect.poll(() => states, { timeout: 5_000, interval: 10 }).toEqual(["listening", "lost", "listening"]);
    expect(feed.live()).toBe(true);
    // Losing it said "anything may have changed", so the caches fell back to reading.
    expect(heard).toContain(null);

    await sql(store, "select pg_notify('claims_changed', 'PERF-after')");
    await expect.poll(() => heard, { timeout: 2_000, interval: 10 }).toContain("PERF-after");
  });

  it("while it is away, the count falls back to the maximum age", async () => {
    const clock = fixedClock("2026-11-25T09:00:00.000Z");
    // Nothing listens on this port: the listener never connects.
    const url = new URL(store.location);
    url.port = "1";
    const feed = watchClaimChanges({ ...store, connectionString: url.toString() }, { retryMs: 10_000 });
    onTestFinished(() => feed.close());
    const seed = await seedSmallCatalogue(store);
    const availability = createAvailability(store, clock, { maxAgeMs: 5_000, feed });
    const writer = createInventory(store, seed.clock);
    clock.set("2026-11-23T12:00:00.000Z");
    seed.clock.set("2026-11-23T12:00:00.000Z");
    const left = async () => (await availability.summary([seed.onSale.id])).get(seed.onSale.id)?.left;
    const before = await left();
    await writer.holdSeats({ basketId: "unheard", performanceId: seed.onSale.id, seatIds: [seed.seat("B", "6")] });
    expect(await left()).toBe(before);
    clock.advance(5_001);
    expect(await left()).toBe(before! - 1);
  });
});

async function sql(store: TestStore, statement: string) {
  const client = new pg.Client({ connectionString: store.location });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

describe.each(DIALECTS)("processes starting together on an empty %s database", (dialect) => {
  it("migrate and load the demo catalogue once", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "box-office-start-"));
    let databaseUrl = "";
    if (dialect === "postgres") {
      const name = `box_office_start_${Date.now()}`;
      await sql({ location: POSTGRES_URL } as TestStore, `create database ${name}`);
      const url = new URL(POSTGRES_URL);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      onTestFinished(() => sql({ location: POSTGRES_URL } as TestStore, `drop database ${name} with (force)`));
    }
    // The small catalogue as the "demo", so the load is quick.
    const root = mkdtempSync(join(tmpdir(), "box-office-root-"));
    mkdirSync(join(root, "catalogue"));
    writeFileSync(join(root, "catalogue/demo.json"), JSON.stringify(smallCatalogue()));
    writeFileSync(join(root, "catalogue/demo-sales.json"), "[]");
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, DEMO_CATALOGUE: "auto" });
    const file = join(dataDir, "box-office.sqlite");
    const stores = [0, 1, 2].map(() => (databaseUrl ? openPostgres(databaseUrl, 3) : openSqlite(file)));
    onTestFinished(async () => void (await Promise.all(stores.map((each) => each.close()))));
    const logger = createLogger("silent");
    await Promise.all(stores.map((each) => prepareStore(each, { config, logger, root })));
    const db = stores[0]!.db;
    expect(await db.selectFrom("venues").select("slug").execute()).toHaveLength(1);
    const performances = await db.selectFrom("performances").select("starts_at").execute();
    expect(performances.length).toBeGreaterThan(0);
    expect(new Set(performances.map((performance) => performance.starts_at)).size).toBe(performances.length);
  }, 30_000);
});
