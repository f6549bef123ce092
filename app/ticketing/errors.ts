// What the engine says when it refuses. Each reason maps to wording in the locale files; the
// engine never words anything itself.
export type RefusalReason =
  | "unavailable"
  /** Best available: no block that fits the request is free. */
  | "no-block"
  | "seat-limit"
  | "not-on-sale"
  | "sales-closed"
  | "presale"
  | "restricted"
  | "companion-limit"
  | "not-found"
  | "expired"
  | "extension-limit"
  | "busy";

export interface Refusal {
  ok: false;
  reason: RefusalReason;
  /** For "seat-limit": the configured number of seats per purchase. */
  seatSelectionLimit?: number;
  /** For "unavailable": the seats that were taken. */
  seatIds?: number[];
  /** For "companion-limit": how many companion seats this buyer may book. */
  companionLimit?: number;
}

export const refuse = (reason: RefusalReason, details: Omit<Refusal, "ok" | "reason"> = {}): Refusal => ({
  ok: false,
  reason,
  ...details,
});

/** True when the database gave up waiting for a lock; the buyer is told to try again shortly. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_BUSY" || code === "40001" || code === "40P01" || code === "55P03";
}

// Failures that mean the store is out of reach (down, restarting, its disk or network failing, or
// closed), as each driver reports them: the buyer is told to come back later (503). A statement
// the store answered with an error of its own (a seat's key already taken, a bug in a query) keeps
// its own handling. The PostgreSQL driver words some only in a message, without a code.
const UNREACHABLE_CODES = new Set([
  // The network between us and PostgreSQL.
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  // PostgreSQL shutting down, crashed or starting up; its disk failing.
  "57P01",
  "57P02",
  "57P03",
  "58030",
]);
// PostgreSQL's connection exceptions (08…), and out of connections, memory or disk (53…).
const UNREACHABLE_SQLSTATE_CLASSES = ["08", "53"];
// SQLite: its file cannot be opened, read or written (a failing or full disk, a volume gone or
// remounted read-only), or is no longer a database.
const UNREACHABLE_SQLITE_CODES = [
  "SQLITE_CANTOPEN",
  "SQLITE_IOERR",
  "SQLITE_FULL",
  "SQLITE_READONLY",
  "SQLITE_NOTADB",
  "SQLITE_CORRUPT",
];
const UNREACHABLE_MESSAGES = new Set([
  // pg and pg-pool.
  "Connection terminated",
  "Connection terminated unexpectedly",
  "Connection terminated due to connection timeout",
  "timeout exceeded when trying to connect",
  "timeout expired",
  "Query read timeout",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
  "Cannot use a pool after calling end on the pool",
  // better-sqlite3, once the file's connection is closed.
  "The database connection is not open",
  // Kysely, once the store is closed.
  "driver has already been destroyed",
]);

/** True when the store could not be reached at all, rather than refusing what it was asked. */
export function isStoreUnreachable(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 3) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === "string") {
    if (
      UNREACHABLE_CODES.has(code) ||
      UNREACHABLE_SQLSTATE_CLASSES.some((prefix) => code.length === 5 && code.startsWith(prefix))
    )
      return true;
    if (UNREACHABLE_SQLITE_CODES.some((prefix) => code === prefix || code.startsWith(`${prefix}_`))) return true;
  }
  if (typeof message === "string" && UNREACHABLE_MESSAGES.has(message)) return true;
  // Node's connection attempts to each of a host's addresses fail together, as one AggregateError.
  if (Array.isArray(errors) && errors.some((each) => isStoreUnreachable(each, depth + 1))) return true;
  return isStoreUnreachable(cause, depth + 1);
}
