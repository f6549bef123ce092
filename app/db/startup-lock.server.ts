import { setTimeout as sleep } from "node:timers/promises";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import type { Store } from "./connection.server";

// Distinct from Kysely's own migration lock (3853314791062309107), which it takes around the
// migrations alone.
const STARTUP_LOCK_KEY = 7_261_120_250_001n;
const SQLITE_RETRY_MS = 50;

/**
 * Runs `work` (bringing the store to the latest migration and loading the demo catalogue into an
 * empty one) in one process at a time among all those starting on the same database, so
 * containers started together neither migrate twice nor load the catalogue twice: the second
 * waits, then finds the work done.
 *
 * PostgreSQL: a session advisory lock, held on one pooled connection for the duration; the
 * server frees it if the process dies. SQLite: an exclusive transaction on a small lock file
 * beside the database (the database's own lock would stop this process's writes too); the
 * operating system frees it if the process dies. Kysely's migrator locks nothing on SQLite, and
 * runs its migrations outside a transaction there, so without this two processes would both apply one.
 */
export async function withStartupLock<T>(store: Store, sqliteFile: string, work: () => Promise<T>): Promise<T> {
  if (store.dialect === "postgres") {
    return store.db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${STARTUP_LOCK_KEY})`.execute(connection);
      try {
        return await work();
      } finally {
        await sql`select pg_advisory_unlock(${STARTUP_LOCK_KEY})`.execute(connection);
      }
    });
  }
  if (sqliteFile === ":memory:") return work();
  // No busy timeout: better-sqlite3 would wait for it synchronously, holding up the event loop.
  const lock = new SQLite(`${sqliteFile}.startup-lock`, { timeout: 0 });
  try {
    for (;;) {
      try {
        lock.exec("begin exclusive");
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
        await sleep(SQLITE_RETRY_MS);
      }
    }
    try {
      return await work();
    } finally {
      lock.exec("commit");
    }
  } finally {
    lock.close();
  }
}
