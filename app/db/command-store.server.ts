import { resolve } from "node:path";
import { openStore, SQLITE_FILE_NAME, type Store } from "./connection.server";
import { migrateToLatest } from "./migrate.server";
import { withStartupLock } from "./startup-lock.server";

/**
 * The store an operator's command works on (`migrate`, the catalogue import, `vouchers`): the
 * database the configuration names, brought to the latest migration under the start-up lock, so
 * a server starting at the same moment and the command migrate it once between them. The caller
 * closes the store; `applied` names the migrations this call applied.
 */
export async function openCommandStore(config: {
  databaseUrl: string | undefined;
  dataDir: string;
}): Promise<{ store: Store; applied: string[] }> {
  const file = resolve(config.dataDir, SQLITE_FILE_NAME);
  const store = openStore(config.databaseUrl, file);
  try {
    return { store, applied: await withStartupLock(store, file, () => migrateToLatest(store.db)) };
  } catch (error) {
    await store.close();
    throw error;
  }
}
