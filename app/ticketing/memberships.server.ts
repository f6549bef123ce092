import { randomUUID } from "node:crypto";
import { addMonths } from "date-fns";
import type { Transaction } from "kysely";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { Database, MembershipProductTable } from "~/db/schema";
import { MAX_COMPANIONS, NOT_A_MEMBER, type AccessNeeds, type MembershipStatus } from "./memberships";

// Memberships in the store: what the paid one costs, the periods customers have bought, and the
// access needs they registered.

/** The paid membership as the operator prices it in one currency. */
export type MembershipProduct = MembershipProductTable;

export interface MembershipPeriod {
  startsAt: string;
  endsAt: string;
  orderId: string | null;
}

export function createMemberships(store: Store, clock: Clock) {
  const { db } = store;

  return {
    /** What the customer is a member of now; a guest (null) is a member of nothing. */
    async status(customerId: string | null): Promise<MembershipStatus> {
      if (!customerId) return NOT_A_MEMBER;
      const now = clock.now().toISOString();
      // Periods not yet over: a renewal bought early starts when the current one ends, so the
      // membership runs from the first of them to the end of the last.
      const [plus, access] = await Promise.all([
        db
          .selectFrom("memberships")
          .select((eb) => [eb.fn.min("starts_at").as("starts_at"), eb.fn.max("ends_at").as("ends_at")])
          .where("customer_id", "=", customerId)
          .where("kind", "=", "plus")
          .where("ends_at", ">", now)
          .executeTakeFirst(),
        db.selectFrom("access_registrations").selectAll().where("customer_id", "=", customerId).executeTakeFirst(),
      ]);
      const latest = plus?.starts_at && String(plus.starts_at) <= now ? plus : undefined;
      return {
        plus: latest?.ends_at ? { endsAt: String(latest.ends_at) } : null,
        access: access
          ? { wheelchair: access.wheelchair === 1, companions: access.companions, otherNeeds: access.other_needs }
          : null,
      };
    },

    /** The paid membership in this currency, if the operator sells it. */
    async product(currency: string): Promise<MembershipProduct | undefined> {
      return db
        .selectFrom("membership_products")
        .selectAll()
        .where("kind", "=", "plus")
        .where("currency", "=", currency)
        .executeTakeFirst();
    },

    /** Records (or changes) the customer's access needs: this is joining the access membership. */
    async registerAccess(customerId: string, needs: AccessNeeds): Promise<void> {
      const now = clock.now().toISOString();
      const values = {
        wheelchair: needs.wheelchair ? 1 : 0,
        companions: Math.min(Math.max(Math.trunc(needs.companions), 0), MAX_COMPANIONS),
        other_needs: needs.otherNeeds?.trim() || null,
        updated_at: now,
      };
      await db
        .insertInto("access_registrations")
        .values({ customer_id: customerId, created_at: now, ...values })
        .onConflict((oc) => oc.column("customer_id").doUpdateSet(values))
        .execute();
    },

    async leaveAccess(customerId: string): Promise<void> {
      await db.deleteFrom("access_registrations").where("customer_id", "=", customerId).execute();
    },

    /**
     * The paid order's membership period: from now, or from the end of the one the customer
     * already has. Once per order (a repeated call, such as a second payment notification, adds
     * nothing).
     */
    async grant(
      trx: Transaction<Database>,
      input: { customerId: string; orderId: string; months: number },
    ): Promise<void> {
      const already = await trx
        .selectFrom("memberships")
        .select("id")
        .where("order_id", "=", input.orderId)
        .executeTakeFirst();
      if (already) return;
      const now = clock.now();
      const current = await trx
        .selectFrom("memberships")
        .select((eb) => eb.fn.max("ends_at").as("ends_at"))
        .where("customer_id", "=", input.customerId)
        .where("kind", "=", "plus")
        .where("ends_at", ">", now.toISOString())
        .executeTakeFirst();
      const startsAt = current?.ends_at ? new Date(String(current.ends_at)) : now;
      await trx
        .insertInto("memberships")
        .values({
          id: randomUUID(),
          customer_id: input.customerId,
          kind: "plus",
          order_id: input.orderId,
          starts_at: startsAt.toISOString(),
          ends_at: addMonths(startsAt, input.months).toISOString(),
          created_at: now.toISOString(),
        })
        .execute();
    },

    /**
     * The membership an order bought ends now, because the order was refunded: a period under way
     * stops today, one not yet begun (a renewal) never starts. Once per order, like `grant`.
     */
    async endForOrder(trx: Transaction<Database>, orderId: string): Promise<boolean> {
      const now = clock.now().toISOString();
      const periods = await trx
        .selectFrom("memberships")
        .select(["id", "starts_at", "ends_at"])
        .where("order_id", "=", orderId)
        .where("ends_at", ">", now)
        .execute();
      for (const period of periods) {
        await trx
          .updateTable("memberships")
          .set({ ends_at: period.starts_at > now ? period.starts_at : now })
          .where("id", "=", period.id)
          .execute();
      }
      return periods.length > 0;
    },

    async periods(customerId: string): Promise<MembershipPeriod[]> {
      const rows = await db
        .selectFrom("memberships")
        .select(["starts_at", "ends_at", "order_id"])
        .where("customer_id", "=", customerId)
        .orderBy("starts_at")
        .execute();
      return rows.map((row) => ({ startsAt: row.starts_at, endsAt: row.ends_at, orderId: row.order_id }));
    },
  };
}

export type Memberships = ReturnType<typeof createMemberships>;
