import { Migrator } from "kysely";
import type { DialectName } from "~/db/connection.server";
import { MIGRATIONS } from "~/db/migrations";
import {
  createScratchStore,
  LOCAL_POSTGRES_URL,
  postgresReachable,
  type ScratchStore,
} from "~/db/scratch-store.server";

// The store suites run on SQLite and on PostgreSQL. PostgreSQL is the local server (trust auth);
// each test file gets a throw-away database. Without a reachable server the PostgreSQL suites are
// skipped with a notice, except under CI, where they must run.
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? LOCAL_POSTGRES_URL;

const reachable = await postgresReachable(POSTGRES_URL);
if (!reachable) {
  if (process.env.CI)
    throw new Error(`PostgreSQL is not reachable at ${POSTGRES_URL}, and CI requires the PostgreSQL suites`);
  process.stdout.write(
    `\nNOTICE: PostgreSQL is not reachable at ${POSTGRES_URL}: the PostgreSQL store suites are skipped.\n`,
  );
}

export const DIALECTS: DialectName[] = reachable ? ["sqlite", "postgres"] : ["sqlite"];

export type TestStore = ScratchStore;

export function createTestStore(dialect: DialectName, poolSize = 20): Promise<TestStore> {
  return createScratchStore(dialect, POSTGRES_URL, poolSize);
}

/** A store migrated up to and including `migration` only, for a migration's own test to fill and move on. */
export function createTestStoreAt(dialect: DialectName, migration: string): Promise<TestStore> {
  return createScratchStore(dialect, POSTGRES_URL, 5, async (db) => {
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } }).migrateTo(
      migration,
    );
    if (error) throw error;
  });
}
