import { expect } from "vitest";
import { ROOT } from "./app";

/**
 * Nothing in an answer to a visitor that only a developer should see: no stack frames, no file
 * paths, no SQL (Kysely's quoted identifiers) or database error codes, nor any of `secrets` (the
 * error's own message, say). A page's data is JSON-like text, where a newline is written `\n`.
 */
export function expectNoInternals(body: string, secrets: string[] = []) {
  expect(body).not.toMatch(/(?:\n|\\n)\s+at /);
  expect(body).not.toMatch(/\bat \S+ \(\S+:\d+:\d+\)/);
  for (const path of ["/app/", "node_modules", ROOT, "file://"]) expect(body).not.toContain(path);
  expect(body).not.toMatch(/\b(?:from|into|update|join) "\w+"/i);
  expect(body).not.toMatch(/SQLITE_|SqliteError|ECONNREFUSED/);
  for (const secret of secrets) expect(body).not.toContain(secret);
}
