// `npm run migrate`: brings the database named by DATABASE_URL (or the embedded SQLite file under
// DATA_DIR) to the latest migration. The server also does this at start-up.
import { ConfigError, loadStoreConfig } from "~/config/env.server";
import { openCommandStore } from "~/db/command-store.server";

try {
  // Servers starting at the same moment migrate under the same lock: one of them (or this) does it.
  const { store, applied } = await openCommandStore(loadStoreConfig());
  await store.close();
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Already up to date.");
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
