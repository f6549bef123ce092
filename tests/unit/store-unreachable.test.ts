import SQLite from "better-sqlite3";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { watchClaimChanges } from "~/db/change-feed.server";
import type { Store } from "~/db/connection.server";
import { isStoreUnreachable } from "~/ticketing/errors";

// Which failures mean the store is out of reach (503, come back later) rather than a query it
// refused: built as each driver builds them.

const sqlite = (code: string) => new SQLite.SqliteError("the driver's words", code);
const postgres = (code: string) => Object.assign(new pg.DatabaseError("the server's words", 0, "error"), { code });
const network = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe("isStoreUnreachable", () => {
  it.each([
    ["SQLite: a file that cannot be opened", sqlite("SQLITE_CANTOPEN")],
    ["SQLite: a disk failing to read or write", sqlite("SQLITE_IOERR_SHORT_READ")],
    ["SQLite: a full disk", sqlite("SQLITE_FULL")],
    ["SQLite: a volume remounted read-only", sqlite("SQLITE_READONLY")],
    ["SQLite: a file that is no database", sqlite("SQLITE_NOTADB")],
    ["SQLite: a damaged file", sqlite("SQLITE_CORRUPT")],
    ["SQLite: a closed connection", new TypeError("The database connection is not open")],
    ["a closed store (Kysely)", new Error("driver has already been destroyed")],
    ["PostgreSQL refusing connections", network("ECONNREFUSED")],
    ["PostgreSQL's host unknown", network("ENOTFOUND")],
    ["PostgreSQL shutting down", postgres("57P01")],
    ["PostgreSQL starting up", postgres("57P03")],
    ["a broken connection", postgres("08006")],
    ["too many connections", postgres("53300")],
    ["a connection dropped mid-query", new Error("Connection terminated unexpectedly")],
    ["the pool's wait for a connection over", new Error("timeout exceeded when trying to connect")],
    ["every address of the host refused", new AggregateError([network("ECONNREFUSED"), network("ECONNREFUSED")])],
    ["a connection timeout", new Error("Connection terminated due to connection timeout")],
    ["a failure caused by a refused connection", new Error("query failed", { cause: network("ECONNREFUSED") })],
  ])("%s", (_name, error) => {
    expect(isStoreUnreachable(error)).toBe(true);
  });

  it.each([
    ["a seat already taken (SQLite)", sqlite("SQLITE_CONSTRAINT_PRIMARYKEY")],
    ["a seat already taken (PostgreSQL)", postgres("23505")],
    ["a table missing: a bug, not an outage", sqlite("SQLITE_ERROR")],
    ["a syntax error", postgres("42601")],
    ["a lock waited on too long: busy, the engine's own refusal", sqlite("SQLITE_BUSY")],
    ["a serialization failure", postgres("40001")],
    ["an ordinary bug", new TypeError("Cannot read properties of undefined (reading 'id')")],
    ["a thrown Response", new Response(null, { status: 404 })],
    ["nothing", null],
    ["a string", "ECONNREFUSED"],
  ])("not %s", (_name, error) => {
    expect(isStoreUnreachable(error)).toBe(false);
  });
});

describe("SQLite's change feed when the file cannot be read", () => {
  it("stops calling itself live, drops what was kept and says so, without ending the process; and comes back", async () => {
    let failing: Error | null = null;
    let version = 1;
    const store = {
      dataVersion: () => {
        if (failing) throw failing;
        return version;
      },
    } as unknown as Store;
    const states: string[] = [];
    const feed = watchClaimChanges(store, { pollMs: 5, onState: (state) => states.push(state) });
    const heard = vi.fn();
    feed.subscribe(heard);
    try {
      expect(feed.live()).toBe(true);
      failing = sqlite("SQLITE_NOTADB");
      await vi.waitFor(() => expect(feed.live()).toBe(false));
      expect(heard).toHaveBeenCalledWith(null);
      expect(states).toEqual(["lost"]);
      failing = null;
      version = 2;
      await vi.waitFor(() => expect(feed.live()).toBe(true));
      expect(states).toEqual(["lost", "listening"]);
    } finally {
      await feed.close();
    }
  });
});
