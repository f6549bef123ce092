import { execFileSync } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, statSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { sql } from "kysely";
import type { AppServices } from "~/web/context";

// Store outages for the tests. PostgreSQL: a cluster of the test's own, stopped as a crash or a
// restart stops one; the shared server at 5432 serves every other test file and is left alone.
// SQLite: the running server's database file turns unreadable, as on a failing disk.

/**
 * The SQLite file of a server's store (DATA_DIR) overwritten with zeros where it lies, so its
 * connection's next read finds no database (SQLITE_NOTADB), as the driver reports a damaged file.
 * Everything is in the file first, not the write-ahead log, and the connection keeps no pages in
 * memory: otherwise it would go on answering from them.
 */
export async function wipeSqliteFile(services: AppServices) {
  const { db } = services.store;
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  await sql`pragma cache_size = 0`.execute(db);
  const file = join(services.config.dataDir, "box-office.sqlite");
  const fd = openSync(file, "r+");
  try {
    const size = statSync(file).size;
    writeSync(fd, Buffer.alloc(size), 0, size, 0);
  } finally {
    closeSync(fd);
  }
}

const PG_CREATECLUSTER = "/usr/bin/pg_createcluster";

export interface PrivatePostgres {
  url: string;
  /** The outage: the server stops, and every connection to it is refused. */
  stop(): void;
  /** Stops it if need be and removes it, data and configuration. */
  drop(): void;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The PostgreSQL outage tests cannot run here: a notice, but under CI an error (they must run there). */
function unavailable(why: string): null {
  const notice = `${why}: the PostgreSQL outage tests are skipped`;
  if (process.env.CI) throw new Error(notice);
  process.stdout.write(`\nNOTICE: ${notice}.\n`);
  return null;
}

/**
 * A new PostgreSQL cluster (the Debian tools' pg_createcluster, trust auth on 127.0.0.1), started;
 * or null where those tools are missing or may not be used (they need root or postgres).
 */
export async function privatePostgres(): Promise<PrivatePostgres | null> {
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").sort() : [];
  const version = versions.at(-1);
  if (!existsSync(PG_CREATECLUSTER) || version === undefined) return unavailable("pg_createcluster is missing");
  const name = `box_office_outage_${process.pid}_${Date.now()}`;
  const port = await freePort();
  const run = (...args: string[]) => execFileSync(args[0]!, args.slice(1), { stdio: "pipe" });
  try {
    // No fsync: the cluster lives for one test file, and initdb's syncing is most of its start.
    run(PG_CREATECLUSTER, version, name, "-p", String(port), "--start", "--", "--auth=trust", "--no-sync");
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return unavailable(`pg_createcluster failed (${stderr || String(error)})`);
  }
  let dropped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => run("pg_ctlcluster", version, name, "stop"),
    drop: () => {
      if (dropped) return;
      dropped = true;
      run("pg_dropcluster", "--stop", version, name);
    },
  };
}
