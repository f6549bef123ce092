import { fixedClock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { CatalogueInput } from "~/ticketing/catalogue-file";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { smallCatalogue } from "./catalogue";

export const IMPORTED_AT = "2026-11-23T10:00:00.000Z";

/** Imports the small catalogue (or a variant of it) and returns what the tests need to find in it. */
export async function seedSmallCatalogue(store: Store, catalogue: CatalogueInput = smallCatalogue()) {
  const clock = fixedClock(IMPORTED_AT);
  await importCatalogue(store, catalogue, clock);
  const performances = await store.db.selectFrom("performances").selectAll().orderBy("starts_at").execute();
  const seats = await store.db
    .selectFrom("seats")
    .innerJoin("sections", "sections.id", "seats.section_id")
    .select([
      "seats.id",
      "seats.row_name",
      "seats.label",
      "seats.seat_type",
      "seats.restrictions",
      "sections.name as section",
    ])
    .orderBy("seats.id")
    .execute();
  const standing = await store.db
    .selectFrom("sections")
    .select("id")
    .where("kind", "=", "standing")
    .executeTakeFirstOrThrow();
  const seat = (row: string, label: string) =>
    seats.find((candidate) => candidate.row_name === row && candidate.label === label)!.id;
  const onSale = performances.find((performance) => performance.presale_from === null)!;
  const inPresale = performances.find((performance) => performance.presale_from !== null)!;
  return { clock, performances, seats, seat, standingId: standing.id, onSale, inPresale };
}
