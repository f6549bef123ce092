import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { PostalAddress } from "~/views/contact-details";

// The spec's "customer profile" and "manage account" services, embedded: what a customer keeps
// with their account (name, phone, saved address, contact consent) and the orders that are theirs.
// Sign-in and passwords are the auth service's.

export interface Profile {
  customerId: string;
  email: string;
  firstName: string;
  lastName: string;
  /** E.164, as the contact details step stores it. */
  phone: string | null;
  /** The saved delivery address for post and mail. */
  address: PostalAddress | null;
  contactConsent: boolean;
}

export type ProfileChanges = Pick<Profile, "firstName" | "lastName" | "phone" | "address" | "contactConsent">;

function parseAddress(json: string | null): PostalAddress | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as PostalAddress;
  } catch {
    return null;
  }
}

export function createCustomers(store: Store, clock: Clock) {
  const { db } = store;
  return {
    async profile(customerId: string): Promise<Profile | null> {
      const row = await db.selectFrom("customers").selectAll().where("id", "=", customerId).executeTakeFirst();
      if (!row) return null;
      return {
        customerId: row.id,
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        phone: row.phone,
        address: parseAddress(row.address),
        contactConsent: row.contact_consent === 1,
      };
    },

    /** Saves the customer's details; false when there is no such customer (nothing was saved). */
    async updateProfile(customerId: string, changes: Partial<ProfileChanges>): Promise<boolean> {
      const result = await db
        .updateTable("customers")
        .set({
          ...(changes.firstName !== undefined && { first_name: changes.firstName }),
          ...(changes.lastName !== undefined && { last_name: changes.lastName }),
          ...(changes.phone !== undefined && { phone: changes.phone }),
          ...(changes.address !== undefined && {
            address: changes.address ? JSON.stringify(changes.address) : null,
          }),
          ...(changes.contactConsent !== undefined && { contact_consent: changes.contactConsent ? 1 : 0 }),
          updated_at: clock.now().toISOString(),
        })
        .where("id", "=", customerId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Makes a paid order this customer's (an account created after buying as a guest). One
     * conditional write: an order that already has a customer keeps it, so two submissions, or two
     * people, can never take an order from whoever got it first. False when nothing changed.
     */
    async claimOrder(orderId: string, customerId: string): Promise<boolean> {
      const result = await db
        .updateTable("orders")
        .set({ customer_id: customerId, updated_at: clock.now().toISOString() })
        .where("id", "=", orderId)
        .where("customer_id", "is", null)
        .where("status", "=", "paid")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type Customers = ReturnType<typeof createCustomers>;
