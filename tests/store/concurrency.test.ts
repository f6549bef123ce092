import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { activeClaim, createInventory, type Inventory } from "~/ticketing/inventory.server";
import { ROOT } from "../support/app";
import { seedSmallCatalogue } from "../support/engine";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

const run = promisify(execFile);

describe.each(DIALECTS)("racing buyers on %s", (dialect) => {
  let store: TestStore;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  let inventory: Inventory;

  beforeAll(async () => {
    store = await createTestStore(dialect, 25);
    seed = await seedSmallCatalogue(store);
    inventory = createInventory(store, seed.clock);
  });
  afterAll(() => store.drop());
  beforeEach(async () => {
    seed.clock.set("2026-11-23T12:00:00.000Z");
    await store.db.deleteFrom("seat_claims").where("status", "!=", "withheld").execute();
    await store.db.deleteFrom("standing_claims").execute();
  });

  /** The naive way, for the control: look, then write. No lock, no constraint doing the work. */
  async function holdWithoutLocking(basketId: string, performanceId: string, seatId: number): Promise<boolean> {
    const now = seed.clock.now().toISOString();
    const taken = await store.db
      .selectFrom("seat_claims")
      .select("seat_id")
      .where("performance_id", "=", performanceId)
      .where("seat_id", "=", seatId)
      .where(activeClaim(now))
      .execute();
    if (taken.length > 0) return false;
    const holdId = randomUUID();
    await store.db.insertInto("baskets").values({ id: basketId, created_at: now, updated_at: now }).execute();
    await store.db
      .insertInto("holds")
      .values({ id: holdId, basket_id: basketId, performance_id: performanceId, created_at: now, expires_at: "9999" })
      .execute();
    await store.db
      .insertInto("seat_claims")
      .values({
        performance_id: performanceId,
        seat_id: seatId,
        status: "held",
        hold_id: holdId,
        held_until: "9999",
        order_id: null,
      })
      .onConflict((oc) => oc.columns(["performance_id", "seat_id"]).doUpdateSet({ hold_id: holdId }))
      .execute();
    return true;
  }

  it("50 buyers at once for the last seat: exactly one holds it", async () => {
    const performanceId = seed.onSale.id;
    const lastSeat = seed.seat("A", "5");
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        inventory.holdSeats({ basketId: `racer-${index}`, performanceId, seatIds: [lastSeat] }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok && result.reason === "unavailable")).toHaveLength(49);
  });

  it("control: without locking, the same race lets several buyers 'hold' the seat, so the test above can fail", async () => {
    const performanceId = seed.onSale.id;
    const seat = seed.seat("A", "6");
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) => holdWithoutLocking(`naive-${index}`, performanceId, seat)),
    );
    expect(results.filter(Boolean).length).toBeGreaterThan(1);
  });

  it("overlapping groups at once: no seat is ever held twice", async () => {
    const performanceId = seed.onSale.id;
    const row = ["3", "4", "5", "6", "7", "8"].map((label) => seed.seat("A", label));
    const groups = Array.from({ length: 30 }, (_, index) => row.slice(index % 4, (index % 4) + 3));
    const results = await Promise.all(
      groups.map((seatIds, index) =>
        inventory.holdSeats({ basketId: `group-${index}`, performanceId, seatIds: [...seatIds].reverse() }),
      ),
    );
    const claims = await store.db
      .selectFrom("seat_claims")
      .select(["seat_id", "hold_id"])
      .where("status", "=", "held")
      .execute();
    expect(new Set(claims.map((claim) => claim.seat_id)).size).toBe(claims.length);
    const winners = results.filter((result) => result.ok).length;
    expect(winners).toBeGreaterThanOrEqual(1);
    expect(claims.length).toBe(winners * 3);
  });

  it("20 buyers at once for 5 standing places: exactly 5 get one", async () => {
    const performanceId = seed.onSale.id;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        inventory.holdStanding({
          basketId: `standing-${index}`,
          performanceId,
          sectionId: seed.standingId,
          quantity: 1,
        }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(5);
  });
});

describe("SQLite across processes", () => {
  let store: TestStore;
  let seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  beforeAll(async () => {
    store = await createTestStore("sqlite");
    seed = await seedSmallCatalogue(store);
  });
  afterAll(() => store.drop());

  it("four processes racing for one seat in one SQLite file: exactly one holds it", async () => {
    const performanceId = seed.onSale.id;
    const seat = seed.seat("B", "5");
    // The workers use the real clock: give them a performance that is on sale now.
    await store.db
      .updateTable("performances")
      .set({ on_sale_from: "2000-01-01T00:00:00.000Z", on_sale_until: "2999-01-01T00:00:00.000Z" })
      .where("id", "=", performanceId)
      .execute();
    const outputs = await Promise.all(
      [0, 1, 2, 3].map((worker) =>
        run(
          process.execPath,
          [
            "--import",
            "tsx",
            "tests/support/hold-worker.ts",
            store.location,
            performanceId,
            String(seat),
            "10",
            String(worker),
          ],
          {
            cwd: ROOT,
          },
        ),
      ),
    );
    const results = outputs.flatMap((output) => JSON.parse(output.stdout) as string[]);
    expect(results).toHaveLength(40);
    expect(results.filter((result) => result === "held")).toHaveLength(1);
    expect(results.filter((result) => result === "unavailable")).toHaveLength(39);
  });
});
