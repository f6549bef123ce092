import { fixedClock } from "~/clock";
import type { AppServices } from "~/web/context";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { smallCatalogue } from "./catalogue";

/** Seeds a test server with the small catalogue, imported "now" so its performances are on sale. */
export async function seedSmall(services: AppServices) {
  await importCatalogue(services.store, smallCatalogue(), fixedClock(services.clock.now()));
}

export async function firstPerformanceId(services: AppServices): Promise<string> {
  const performance = await services.store.db
    .selectFrom("performances")
    .select("id")
    .orderBy("starts_at")
    .executeTakeFirstOrThrow();
  return performance.id;
}
