import { Migrator, type Kysely, type MigrationProvider } from "kysely";
import { MIGRATIONS } from "./migrations";

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Applies every migration not yet applied, in name order; throws (and applies nothing more) on failure. */
export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<string[]> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((result) => result.status === "Success").map((result) => result.migrationName);
}
