import { randomUUID } from "node:crypto";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";

/** A customer account row for a test not about signing in (its password is never checked). */
export async function insertCustomer(store: Store, clock: Clock): Promise<string> {
  const id = randomUUID();
  const now = clock.now().toISOString();
  await store.db
    .insertInto("customers")
    .values({
      id,
      email: `${id}@example.com`,
      email_key: `${id}@example.com`,
      password_hash: "scrypt$unused",
      first_name: "Jo",
      last_name: "Bloggs",
      phone: null,
      address: null,
      contact_consent: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
