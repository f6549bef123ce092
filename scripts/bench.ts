// `npm run bench`: prints the engine's figures on SQLite and on PostgreSQL (when reachable):
// - holds per second while 100 buyers race for one 2,341-seat performance until it sells out, and
//   how many seats were sold twice (must be 0);
// - best-available time (p50/p95) at 90% sold;
// - the calendar availability query for 120 days of performances;
// then the page budgets on the production build (scripts/bench-pages.ts), a whole no-script
// purchase by many buyers at once (scripts/bench-purchase.ts), an on-sale rush (scripts/bench-spike.ts),
// the page cache and the waiting room at scale.
// Every speed budget is a ratio to a baseline measured first, in the same run (a bare `node:http`
// request and a bare Remix page: scripts/bench-baselines.ts, design.md section 8); each budget line
// ends in "within budget" or "OVER BUDGET". Milliseconds and orders a minute are printed beside the
// machine's cores and load, for information. A script that prints figures, not a test.
import { join } from "node:path";
import { performance as perf } from "node:perf_hooks";
import { sql } from "kysely";
import { fixedClock } from "~/clock";
import type { DialectName, Store } from "~/db/connection.server";
import { createScratchStore, postgresReachable } from "~/db/scratch-store.server";
import { availabilityOf, calendarFacts } from "~/ticketing/availability.server";
import { readDemoCatalogue } from "~/ticketing/demo.server";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { activeClaim, createInventory } from "~/ticketing/inventory.server";
import { createSeatSearch } from "~/ticketing/seat-search.server";
import { machineLine, measureBaselines, type Baselines } from "./bench-baselines";
import { benchCache, benchPages, loadBuild, POSTGRES_URL, requireBuild } from "./bench-pages";
import { benchPurchase } from "./bench-purchase";
import { benchQueue } from "./bench-queue";
import { benchSpike } from "./bench-spike";

const BUYERS = 100;
const root = join(import.meta.dirname, "..");
const clock = fixedClock("2026-11-23T10:00:00.000Z");

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function regentPerformances(store: Store) {
  return store.db
    .selectFrom("performances")
    .innerJoin("runs", "runs.id", "performances.run_id")
    .innerJoin("titles", "titles.id", "runs.title_id")
    .select(["performances.id", "performances.price_plan_id", "performances.run_id"])
    .where("titles.slug", "=", "the-lantern-keeper")
    .where("performances.presale_from", "is", null)
    .orderBy("performances.starts_at")
    .execute();
}

async function race(store: Store, performanceId: string, pricePlanId: string) {
  const inventory = createInventory(store, clock);
  const guestSeats = (
    await store.db
      .selectFrom("seats")
      .innerJoin("price_plan_seats", "price_plan_seats.seat_id", "seats.id")
      .select(["seats.id"])
      .where("price_plan_seats.price_plan_id", "=", pricePlanId)
      .where("seats.restrictions", "in", ["", "amex"])
      // Companion seats are for a wheelchair user's companion, not a guest's to hold.
      .where("seats.seat_type", "!=", "companion")
      .execute()
  ).map((seat) => seat.id);
  const sold = new Map<number, number>();
  let attempts = 0;
  let holds = 0;
  const started = perf.now();
  await Promise.all(
    Array.from({ length: BUYERS }, async (_, buyer) => {
      for (let round = 0; ; round += 1) {
        // Each buyer looks at what is free (a moment-old view, as a page would be), picks up to
        // four seats at random and tries to hold them.
        const taken = new Set(
          (
            await store.db
              .selectFrom("seat_claims")
              .select("seat_id")
              .where("performance_id", "=", performanceId)
              .where(activeClaim(clock.now().toISOString()))
              .execute()
          ).map((claim) => claim.seat_id),
        );
        const free = guestSeats.filter((id) => !taken.has(id));
        if (free.length === 0) return;
        const want = Math.min(free.length, 1 + ((buyer + round) % 4));
        const picked = new Set<number>();
        while (picked.size < want) picked.add(free[Math.floor(Math.random() * free.length)]!);
        attempts += 1;
        const result = await inventory.holdSeats({
          basketId: `bench-${buyer}-${round}`,
          performanceId,
          seatIds: [...picked],
        });
        if (result.ok) {
          holds += 1;
          for (const id of picked) sold.set(id, (sold.get(id) ?? 0) + 1);
        } else if (result.reason !== "unavailable" && result.reason !== "busy") {
          // Any other refusal would repeat forever: the race could never sell out.
          throw new Error(`bench: a guest's hold was refused (${result.reason}); the race cannot finish`);
        }
      }
    }),
  );
  const seconds = (perf.now() - started) / 1000;
  const oversold = [...sold.values()].filter((count) => count > 1).length;
  return { seconds, attempts, holds, seats: sold.size, oversold };
}

async function bench(dialect: DialectName) {
  const store = await createScratchStore(dialect, POSTGRES_URL);
  try {
    await importCatalogue(store, readDemoCatalogue(root, { pictures: false }), clock);
    const performances = await regentPerformances(store);
    const [raced, searched] = [performances[0]!, performances[1]!];

    const result = await race(store, raced.id, raced.price_plan_id);
    console.log(
      `${dialect}: holds: ${(result.holds / result.seconds).toFixed(0)} holds/s (${(result.attempts / result.seconds).toFixed(0)} attempts/s), ` +
        `${BUYERS} buyers, ${result.seats} seats held in ${result.holds} holds over ${result.seconds.toFixed(2)} s; oversold seats: ${result.oversold}`,
    );

    // 90% sold: claim nine seats in ten as sold, straight into the store.
    const seats = await store.db
      .selectFrom("price_plan_seats")
      .select("seat_id")
      .where("price_plan_id", "=", searched.price_plan_id)
      .execute();
    const toSell = seats.filter((_, index) => index % 10 !== 0).map((seat) => seat.seat_id);
    await store.db.deleteFrom("seat_claims").where("performance_id", "=", searched.id).execute();
    for (let start = 0; start < toSell.length; start += 400) {
      await store.db
        .insertInto("seat_claims")
        .values(
          toSell.slice(start, start + 400).map((seatId) => ({
            performance_id: searched.id,
            seat_id: seatId,
            status: "sold" as const,
            hold_id: null,
            held_until: null,
            order_id: "bench",
          })),
        )
        .execute();
    }
    // As autovacuum would after a busy sale: statistics for the planner.
    if (dialect === "postgres") await sql`analyze`.execute(store.db);
    const search = createSeatSearch(store, clock);
    await search.search(searched.id, { quantity: 2 });
    const times: number[] = [];
    let found = 0;
    for (let index = 0; index < 200; index += 1) {
      const started = perf.now();
      if (await search.search(searched.id, { quantity: 1 + (index % 4) })) found += 1;
      times.push(perf.now() - started);
    }
    console.log(
      `${dialect}: best available at 90% sold (2,341-seat house, 1–4 seats): p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))} (${found}/200 found a block)`,
    );

    const run = await store.db.selectFrom("performances").select("id").where("run_id", "=", raced.run_id).execute();
    const calendar: number[] = [];
    for (let index = 0; index < 50; index += 1) {
      const started = perf.now();
      await availabilityOf(
        store,
        run.map((row) => row.id),
        clock.now(),
      );
      calendar.push(perf.now() - started);
    }
    console.log(
      `${dialect}: calendar availability for 120 days (${run.length} performances): p50 ${ms(percentile(calendar, 50))}, p95 ${ms(percentile(calendar, 95))}`,
    );
    const facts: number[] = [];
    for (let index = 0; index < 50; index += 1) {
      const started = perf.now();
      await calendarFacts(
        store,
        run.map((row) => row.id),
        clock.now(),
        index % 2 ? { maxPrice: 6500 } : {},
      );
      facts.push(perf.now() - started);
    }
    console.log(
      `${dialect}: calendar facts with filters (price range, parts of house, filtered availability), 120 days: p50 ${ms(percentile(facts, 50))}, p95 ${ms(percentile(facts, 95))}`,
    );
  } finally {
    await store.drop();
  }
}

// `npm run bench -- PART` runs one part: "engine" (the race, best available and the calendar
// queries), "pages" (the page budgets: what a front-end change moves), "purchase" (the buyers) or
// "spike" (an on-sale rush through the waiting room) or "cache" (the page cache under random query
// strings) or "queue" (the waiting room with 100,000 in line, issue 41).
const PARTS = ["engine", "pages", "purchase", "spike", "cache", "queue"] as const;
const only = process.argv[2];
if (only !== undefined && !(PARTS as readonly string[]).includes(only)) {
  console.error(`bench: unknown part "${only}"; the parts that run alone are ${PARTS.join(", ")}`);
  process.exit(1);
}
const runs = (part: (typeof PARTS)[number]) => only === undefined || only === part;
requireBuild(root);
const dialects: DialectName[] = (await postgresReachable(POSTGRES_URL)) ? ["sqlite", "postgres"] : ["sqlite"];
if (!dialects.includes("postgres")) console.log(`postgres: not reachable at ${POSTGRES_URL}; skipped`);
// Every figure here moves with whatever else the machine is doing: each part says how busy it was
// as it began, so a figure can be read beside it.
const machine = (part: string) => console.log(machineLine(part));
// The baselines the budgets are ratios to: measured once, before any part that reads them.
const RATIO_PARTS: readonly (typeof PARTS)[number][] = ["pages", "purchase", "spike"];
const baselines: Baselines | undefined = RATIO_PARTS.some(runs)
  ? await measureBaselines((await loadBuild(root)).future)
  : undefined;
const measured = () => {
  if (!baselines) throw new Error("bench: the baselines were not measured");
  return baselines;
};
const work: Record<(typeof PARTS)[number], () => Promise<void>> = {
  engine: async () => {
    for (const dialect of dialects) {
      machine(`engine (${dialect})`);
      await bench(dialect);
    }
  },
  pages: () => benchPages(root, measured()),
  purchase: () => benchPurchase(root, dialects, measured()),
  spike: () => benchSpike(root, measured()),
  cache: () => benchCache(root),
  queue: () => benchQueue(root, dialects),
};
for (const part of PARTS) {
  if (!runs(part)) continue;
  if (part !== "engine") machine(part); // the engine says it for each database
  await work[part]();
}
