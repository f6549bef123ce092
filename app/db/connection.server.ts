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
  /**
   * How many statements this store has sent to the database so far, BEGIN and COMMIT included:
   * each is a round trip on PostgreSQL, so it is what the bench's per-order figure counts.
   */
  statements(): number;
  close(): Promise<void>;
  /**
   * SQLite: the file's data version, which moves when another connection (another process)
   * commits. Read on this store's own connection without counting as a statement: it touches no
   * page, only the shared memory index.
   */
  dataVersion?: () => number;
  /** PostgreSQL: the pool's connections open and idle, and queries waiting for one (/metrics). */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /** PostgreSQL: where a dedicated connection (LISTEN, an advisory lock) reaches the same database. */
  connectionString?: string;
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

/** Most recently used statements kept ready; more than the app's distinct queries, bounded for IN lists. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The database as Kysely's SQLite driver sees it, with prepared statements reused: Kysely prepares
 * every query afresh, and parsing and planning the SQL costs about as much as running it. A
 * statement still being iterated (a streamed query) is busy, so another one is prepared for it.
 */
function reusingStatements(database: SQLite.Database, counter: { sent: number }) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    // Kysely's driver asks for a statement each time it runs one, transaction control included.
    prepare(sql: string) {
      counter.sent += 1;
      let statement = statements.get(sql);
      if (statement && !statement.busy) {
        // Most recently used last, so the oldest is the first to go.
        statements.delete(sql);
      } else {
        statement = database.prepare(sql);
      }
      statements.set(sql, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}

export function openSqlite(file: string): Store {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma("busy_timeout = 5000");
  database.pragma("foreign_keys = ON");
  database.pragma("synchronous = NORMAL");
  const counter = { sent: 0 };
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: reusingStatements(database, counter) }),
  });
  return {
    db,
    dialect: "sqlite",
    statements: () => counter.sent,
    close: () => db.destroy(),
    dataVersion: () => database.pragma("data_version", { simple: true }) as number,
  };
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
  const counter = { sent: 0 };
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      counter.sent += 1;
      return query(...args);
    }) as typeof client.query;
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: "postgres",
    statements: () => counter.sent,
    close: () => db.destroy(),
    connectionString,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/** The embedded database's file in DATA_DIR. */
export const SQLITE_FILE_NAME = "box-office.sqlite";

/** DATABASE_URL unset → the embedded SQLite file; postgres://… → PostgreSQL. */
export function openStore(
  databaseUrl: string | undefined,
  sqliteFile: string,
  onIdleError?: (error: Error) => void,
): Store {
  return databaseUrl ? openPostgres(databaseUrl, 10, onIdleError) : openSqlite(sqliteFile);
}
