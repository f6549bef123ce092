import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

// The statement count is the bench's per-order figure: it must see every round trip, the
// transaction's own BEGIN and COMMIT included, and nothing twice.
describe.each(DIALECTS)("the store's statement count on %s", (dialect) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await createTestStore(dialect, 2);
  });
  afterAll(async () => {
    await store.drop();
  });

  it("counts one for a query, and BEGIN, the statements and COMMIT for a transaction", async () => {
    const before = store.statements();
    await store.db.selectFrom("venues").select("id").execute();
    expect(store.statements() - before).toBe(1);

    const started = store.statements();
    await store.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await sql`select 2`.execute(trx);
    });
    expect(store.statements() - started).toBe(4);
  });

  it("counts a rolled-back transaction's ROLLBACK too", async () => {
    const started = store.statements();
    await expect(
      store.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(store.statements() - started).toBe(3);
  });
});
