// `npm run catalogue:import -- FILE`: validates a JSON catalogue and loads all of it, or nothing,
// reporting every problem with the field and the entry it is in.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { systemClock } from "~/clock";
import { ConfigError, loadStoreConfig } from "~/config/env.server";
import { openCommandStore } from "~/db/command-store.server";
import { CatalogueError, importCatalogue } from "~/ticketing/import-catalogue.server";

const file = process.argv[2];
if (!file) {
  console.error("Usage: npm run catalogue:import -- FILE.json");
  process.exit(2);
}

let input: unknown;
try {
  input = JSON.parse(readFileSync(resolve(file), "utf8"));
} catch (error) {
  console.error(`Could not read ${file} as JSON: ${(error as Error).message}`);
  process.exit(1);
}

try {
  const config = loadStoreConfig();
  const { store } = await openCommandStore(config);
  try {
    // A picture's src is relative to the catalogue file; its sizes go where the server serves them.
    const summary = await importCatalogue(store, input, systemClock, {
      pictures: { from: dirname(resolve(file)), to: resolve(config.dataDir, "images") },
    });
    console.log(
      `Imported ${summary.venues} venue(s), ${summary.shows} show(s), ${summary.seats} seat(s), ${summary.performances} performance(s) and ${summary.pictures} picture(s).`,
    );
  } finally {
    await store.close();
  }
} catch (error) {
  if (error instanceof CatalogueError || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
