import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { accessServicesOf, type AccessService } from "~/views/access-services";

// What a booking holds for access, read the same way by the door (check-in.server.ts) and by the
// access list (performance-report.server.ts), so that the two never disagree about who is coming.

/** A place kept for access, as the seat map's seat types name them. */
export type AccessPlace = "wheelchair" | "companion" | "access";

const ACCESS_PLACES: readonly string[] = ["wheelchair", "companion", "access"] satisfies AccessPlace[];
export const isAccessPlace = (seatType: string): seatType is AccessPlace => ACCESS_PLACES.includes(seatType);

/** The seat a ticket is for: its ref is `seat:<performance>:<seat id>`; a standing place's is not a seat. */
export function seatIdOfRef(ref: string): number | null {
  if (!ref.startsWith("seat:")) return null;
  const id = Number(ref.split(":")[2]);
  return Number.isInteger(id) ? id : null;
}

/** Each of the performance's services, with whether a seat that suits these (`seats.suits`) is placed for it. */
export function servicesForSeat(
  performanceServices: string | null | undefined,
  seatSuits: string | null | undefined,
): { service: AccessService; seatSuits: boolean }[] {
  const suits = accessServicesOf(seatSuits);
  return accessServicesOf(performanceServices).map((service) => ({ service, seatSuits: suits.includes(service) }));
}

/** A buyer's access registration (an access membership), as front-of-house reads it. */
export interface RegisteredNeeds {
  wheelchair: boolean;
  companions: number;
  otherNeeds: string | null;
}

/** The access registrations of these customers, by customer id; customers without one are absent. */
export async function registeredNeedsOf(
  db: Kysely<Database>,
  customerIds: readonly string[],
): Promise<Map<string, RegisteredNeeds>> {
  const ids = [...new Set(customerIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("access_registrations")
    .select(["customer_id", "wheelchair", "companions", "other_needs"])
    .where("customer_id", "in", ids)
    .execute();
  return new Map(
    rows.map((row) => [
      row.customer_id,
      { wheelchair: Number(row.wheelchair) === 1, companions: Number(row.companions), otherNeeds: row.other_needs },
    ]),
  );
}
