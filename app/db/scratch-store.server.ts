import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { Kysely } from "kysely";
import { openPostgres, openSqlite, type DialectName, type Store } from "./connection.server";
import { migrateToLatest } from "./migrate.server";
import type { Database } from "./schema";

// Throw-away databases for the test suites and the benchmark: a SQLite file in the temp folder,
// or a fresh PostgreSQL database on the given server; migrated (to the latest, unless a migration
// test wants it as it was before one), and removed by drop().

export const LOCAL_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export interface ScratchStore extends Store {
  /** For SQLite, the file; for PostgreSQL, the connection URL of the throw-away database. */
  location: string;
  drop(): Promise<void>;
}

export async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
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

async function onServer(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createScratchStore(
  dialect: DialectName,
  postgresUrl = LOCAL_POSTGRES_URL,
  poolSize = 20,
  migrate: (db: Kysely<Database>) => Promise<unknown> = migrateToLatest,
): Promise<ScratchStore> {
  if (dialect === "sqlite") {
    const file = join(tmpdir(), `box-office-scratch-${randomUUID()}.sqlite`);
    const store = openSqlite(file);
    await migrate(store.db);
    return {
      ...store,
      location: file,
      drop: async () => {
        await store.close();
        for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
      },
    };
  }
  const name = `box_office_scratch_${randomUUID().replace(/-/g, "")}`;
  await onServer(postgresUrl, `create database ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const store = openPostgres(url.toString(), poolSize);
  await migrate(store.db);
  return {
    ...store,
    location: url.toString(),
    drop: async () => {
      await store.close();
      await onServer(postgresUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
