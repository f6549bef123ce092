import { randomUUID } from "node:crypto";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { AuthService, SignedUp } from "~/use-cases/auth.server";

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

/**
 * An account made as a person makes one: asked for, then created by following the emailed link
 * (its token, as the email carries it) with a password. Signed in, as following the link leaves them.
 */
export async function registerCustomer(
  auth: AuthService,
  who: { email: string; password: string; firstName: string; lastName: string; address?: string },
): Promise<SignedUp> {
  const asked = await auth.requestSignUp({ ...who, address: who.address ?? "192.0.2.1" });
  if (!asked.ok || asked.kind !== "link") throw new Error(`no sign-up link for ${who.email}: ${JSON.stringify(asked)}`);
  const made = await auth.completeSignUp({ token: asked.token, password: who.password });
  if (!made.ok) throw new Error(`the sign-up link for ${who.email} did not work`);
  return made;
}
