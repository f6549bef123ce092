import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type DatabaseConnection, type Driver } from "kysely";
import pg from "pg";
import type { Database } from "./schema";

export type DialectName = "sqlite" | "postgres";

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

// PostgreSQL returns COUNT(*) and SUM() as bigint (OID 20) and numeric (OID 1700) strings. Every
// number we store is far below 2^53 (money is integer minor units, counts are seats), so they are
// parsed to numbers here, once, rather than at every call site.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
pg.types.setTypeParser(1700, (value) => Number.parseFloat(value));

/**
 * SQLite transactions start with BEGIN IMMEDIATE: a transaction takes the write lock when it
 * starts (waiting up to the busy timeout), so two processes can never both read, then both try to
 * upgrade to a write and have one fail at once.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    };
    return driver;
  }
}

export function openSqlite(file: string): Store {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma("busy_timeout = 5000");
  database.pragma("foreign_keys = ON");
  database.pragma("synchronous = NORMAL");
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database }) });
  return { db, dialect: "sqlite", close: () => db.destroy() };
}

export function openPostgres(
  connectionString: string,
  poolSize = 10,
  onIdleError: (error: Error) => void = () => {},
): Store {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // An idle connection can be closed by the server (restart, failover); the pool replaces it, and
  // without a listener the error would end the process.
  pool.on("error", onIdleError);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: "postgres", close: () => db.destroy() };
}

/** DATABASE_URL unset → the embedded SQLite file; postgres://… → PostgreSQL. */
export function openStore(
  databaseUrl: string | undefined,
  sqliteFile: string,
  onIdleError?: (error: Error) => void,
): Store {
  return databaseUrl ? openPostgres(databaseUrl, 10, onIdleError) : openSqlite(sqliteFile);
}
