// `npm run migrate`: brings the database named by DATABASE_URL (or the embedded SQLite file under
// DATA_DIR) to the latest migration. The server also does this at start-up.
import { resolve } from "node:path";
import { ConfigError, loadStoreConfig } from "~/config/env.server";
import { openStore } from "~/db/connection.server";
import { migrateToLatest } from "~/db/migrate.server";
import { withStartupLock } from "~/db/startup-lock.server";

try {
  const config = loadStoreConfig();
  const file = resolve(config.dataDir, "box-office.sqlite");
  const store = openStore(config.databaseUrl, file);
  // Servers starting at the same moment migrate under the same lock: one of them (or this) does it.
  const applied = await withStartupLock(store, file, () => migrateToLatest(store.db));
  await store.close();
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Already up to date.");
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
