import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openPostgres, openSqlite, type DialectName, type Store } from "~/db/connection.server";
import { migrateToLatest } from "~/db/migrate.server";

// The store suites run on SQLite and on PostgreSQL. PostgreSQL is the local server (trust auth);
// each test file gets a throw-away database. Without a reachable server the PostgreSQL suites are
// skipped with a notice, except under CI, where they must run.
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const reachable = await postgresReachable();
if (!reachable) {
  if (process.env.CI)
    throw new Error(`PostgreSQL is not reachable at ${POSTGRES_URL}, and CI requires the PostgreSQL suites`);
  process.stdout.write(
    `\nNOTICE: PostgreSQL is not reachable at ${POSTGRES_URL}: the PostgreSQL store suites are skipped.\n`,
  );
}

export const DIALECTS: DialectName[] = reachable ? ["sqlite", "postgres"] : ["sqlite"];

export interface TestStore extends Store {
  /** For SQLite, the file; for PostgreSQL, the connection URL of the throw-away database. */
  location: string;
  drop(): Promise<void>;
}

export async function createTestStore(dialect: DialectName, poolSize = 20): Promise<TestStore> {
  if (dialect === "sqlite") {
    const file = join(tmpdir(), `box-office-test-${randomUUID()}.sqlite`);
    const store = openSqlite(file);
    await migrateToLatest(store.db);
    return {
      ...store,
      location: file,
      drop: async () => {
        await store.close();
        for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
      },
    };
  }
  const name = `box_office_test_${randomUUID().replace(/-/g, "")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const store = openPostgres(url.toString(), poolSize);
  await migrateToLatest(store.db);
  return {
    ...store,
    location: url.toString(),
    drop: async () => {
      await store.close();
      const cleanup = new pg.Client({ connectionString: POSTGRES_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
