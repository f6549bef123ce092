import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { fixedClock } from "~/clock";
import type { DialectName } from "~/db/connection.server";
import type { Store } from "~/db/connection.server";
import type { CatalogueInput } from "~/ticketing/catalogue-file";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import type { Clock } from "~/clock";
import { createBaskets, NO_BENEFITS, type MemberBenefits } from "~/ticketing/baskets.server";
import { createOrderLifecycle, type Customer } from "~/ticketing/order-lifecycle.server";
import { createInventory, type Inventory } from "~/ticketing/inventory.server";
import { createMemberships } from "~/ticketing/memberships.server";
import { createOrders } from "~/ticketing/orders.server";
import { createPromotions } from "~/ticketing/promotions.server";
import { createVouchers } from "~/ticketing/vouchers.server";
import { smallCatalogue } from "./catalogue";
import { createTestStore, type TestStore } from "./stores";

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
  /** Where a seat of the on-sale performance stands: its claim's status and order, or null when unclaimed. */
  const seatStatus = async (row: string, label: string) =>
    (await store.db
      .selectFrom("seat_claims")
      .select(["status", "order_id"])
      .where("seat_id", "=", seat(row, label))
      .where("performance_id", "=", onSale.id)
      .executeTakeFirst()) ?? null;
  return { clock, performances, seats, seat, seatStatus, standingId: standing.id, onSale, inPresale };
}

export type SeededStore = {
  store: TestStore;
  seed: Awaited<ReturnType<typeof seedSmallCatalogue>>;
  inventory: Inventory;
};

/**
 * A throw-away store with the small catalogue for one suite, and before each test the clock at
 * noon on import day and every claim but the withheld ones gone. `ready` hands the suite what it
 * made, once, before its own beforeAll hooks run.
 */
export function useSeededStore(
  dialect: DialectName,
  ready: (made: SeededStore) => void,
  catalogue: CatalogueInput = smallCatalogue(),
) {
  let made: SeededStore | undefined;
  beforeAll(async () => {
    const store = await createTestStore(dialect);
    const seed = await seedSmallCatalogue(store, catalogue);
    made = { store, seed, inventory: createInventory(store, seed.clock) };
    ready(made);
  });
  afterAll(() => made?.store.drop());
  beforeEach(async () => {
    made!.seed.clock.set("2026-11-23T12:00:00.000Z");
    await made!.store.db.deleteFrom("seat_claims").where("status", "!=", "withheld").execute();
    await made!.store.db.deleteFrom("standing_claims").execute();
  });
}

/** The engine's parts over one store and clock, wired as the server wires them. */
export function createEngine(store: Store, clock: Clock) {
  const inventory = createInventory(store, clock);
  const baskets = createBaskets(store, clock);
  const orders = createOrders(store, clock);
  const promotions = createPromotions(store, clock);
  const vouchers = createVouchers(store, clock);
  const memberships = createMemberships(store, clock);
  const orderLifecycle = createOrderLifecycle({ store, baskets, orders, promotions, vouchers, inventory, memberships });
  /** Pay pressed, as the payment page's action presses it: the basket read as the request starts, then placed. */
  async function place(
    basketId: string,
    customer: Customer,
    accepted: { toPay: number },
    benefits: MemberBenefits = NO_BENEFITS,
  ) {
    const basket = await baskets.snapshot(basketId);
    if (!basket) throw new Error(`no basket ${basketId}`);
    return orderLifecycle.placeOrder(basket, customer, accepted, benefits);
  }
  /** Pay pressed on a page showing the basket as it is priced now (what the payment page shows). */
  async function placeAsShown(basketId: string, customer: Customer, benefits: MemberBenefits = NO_BENEFITS) {
    const shown = await baskets.price(basketId, benefits);
    return place(basketId, customer, { toPay: shown?.priced.toPay ?? 0 }, benefits);
  }
  /** A basket holding these seats (with a voucher or promo code put towards it), its order placed as shown. */
  async function holdAndPlace(
    performanceId: string,
    seatIds: number[],
    extras: { voucherId?: string; promoId?: string } = {},
    customer: Customer = { name: "Jo Bloggs", email: "jo@example.com" },
  ) {
    const basketId = randomUUID();
    const held = await inventory.holdSeats({ basketId, performanceId, seatIds });
    if (!held.ok) throw new Error(held.reason);
    if (extras.voucherId) await baskets.addVoucher(basketId, extras.voucherId);
    if (extras.promoId) await baskets.setPromo(basketId, extras.promoId);
    const placed = await placeAsShown(basketId, customer);
    if (!placed.ok) throw new Error(placed.reason);
    return { basketId, order: placed.order };
  }
  return {
    inventory,
    baskets,
    orders,
    promotions,
    vouchers,
    memberships,
    orderLifecycle,
    place,
    placeAsShown,
    holdAndPlace,
  };
}
