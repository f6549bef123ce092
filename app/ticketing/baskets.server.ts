import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import { createCatalogueFacts, type CatalogueFacts } from "./catalogue-facts.server";
import { basketSnapshots, type BasketSnapshot } from "./basket-snapshot.server";
import {
  mayChoosePriceOption,
  defaultPriceOption,
  hasPriceChanged,
  priceBasket,
  priceFingerprint,
  type Currency,
  type PricedBasket,
} from "./pricing";
import { EXTRA_MAX_QUANTITY } from "~/forms/checkout/steps";
import { parseContactDetails, type ContactDetails } from "~/views/contact-details";
import { priceRuleOf, type PromoCode } from "./promotions.server";

// A basket's contents beyond its holds (price options, extras, protection, delivery, promo code,
// vouchers) and the one way to price it: read the basket's snapshot (one statement), hand it with
// the catalogue's kept facts to priceBasket. A checkout step reads the snapshot once and answers
// with one write that also records the prices the buyer's own change leads to.

/** The checkout's answers a basket carries. */
export interface BasketAnswers {
  /** The membership bought with this basket (alone, or beside tickets). */
  membershipProductId: string | null;
  /** Whether a checkout page has shown the buyer its prices (later prices are compared with them). */
  pricesSeen: boolean;
  extrasDone: boolean;
  /** Extra id → quantity chosen. */
  quantities: Record<string, number>;
  /** Ticket protection: chosen, declined, or not answered yet. */
  protection: boolean | null;
  deliveryMethodId: string | null;
  contacts: ContactDetails | null;
}

export interface MemberBenefits {
  protectionIncluded: boolean;
  noTransactionFee: boolean;
  /** Member price options may be chosen. */
  memberPrices: boolean;
}

export const NO_BENEFITS: MemberBenefits = { protectionIncluded: false, noTransactionFee: false, memberPrices: false };

export type BasketRefusal = "not-found" | "not-allowed";

export interface BasketPrice {
  priced: PricedBasket;
  fingerprint: string;
  /** True when what the buyer would pay differs from what they last accepted. */
  changed: boolean;
}

/**
 * A checkout step's answer to the basket. `extras` is the extras step's whole answer (each
 * extra's quantity, 0 for none), which also marks that step answered.
 */
export interface BasketChange {
  extras?: Record<string, number>;
  protection?: boolean;
  deliveryMethodId?: string | null;
  contacts?: ContactDetails;
}

export type { BasketSnapshot };

/** The answers a snapshot carries, decoded from the basket's row (its 0/1 flags, its stored contact details). */
export function answersOf(snapshot: BasketSnapshot): BasketAnswers {
  const { basket } = snapshot;
  return {
    membershipProductId: basket.membership_product_id,
    pricesSeen: basket.last_seen_prices !== null,
    extrasDone: basket.extras_done === 1,
    quantities: Object.fromEntries(snapshot.extras.map((row) => [row.extra_id, row.quantity])),
    protection: basket.protection_choice === null ? null : basket.protection_choice === 1,
    deliveryMethodId: basket.delivery_method_id,
    contacts: parseContactDetails(basket.contacts),
  };
}

/** The seats and standing places the basket still holds at `now`. */
export function heldAt(snapshot: BasketSnapshot, now: string) {
  return {
    seats: snapshot.seats.filter((seat) => seat.held_until > now),
    standing: snapshot.standing.filter((claim) => claim.held_until > now),
  };
}

/** The basket as it would be after the change, in memory (nothing is written). */
function withChange(snapshot: BasketSnapshot, change: BasketChange): BasketSnapshot {
  const basket = { ...snapshot.basket };
  if (change.protection !== undefined) basket.protection_choice = change.protection ? 1 : 0;
  if (change.deliveryMethodId !== undefined) basket.delivery_method_id = change.deliveryMethodId;
  if (change.contacts !== undefined) basket.contacts = JSON.stringify(change.contacts);
  if (change.extras === undefined) return { ...snapshot, basket };
  basket.extras_done = 1;
  const extras = Object.entries(change.extras)
    .filter(([, quantity]) => quantity > 0)
    .map(([extra_id, quantity]) => ({ extra_id, quantity }));
  return { ...snapshot, basket, extras };
}

const sameExtras = (a: BasketSnapshot["extras"], b: BasketSnapshot["extras"]) =>
  a.length === b.length &&
  a.every((row) => b.some((other) => other.extra_id === row.extra_id && other.quantity === row.quantity));

export function createBaskets(store: Store, clock: Clock, facts: CatalogueFacts = createCatalogueFacts(store, clock)) {
  const { db } = store;
  const snapshot = basketSnapshots(store);

  /**
   * The membership the basket carries, in the currency of its tickets (a basket is paid in one
   * currency; the operator prices the membership in each one it sells in).
   */
  async function basketMembership(productId: string | null, currency: string | undefined) {
    if (!productId) return undefined;
    const chosen = await db
      .selectFrom("membership_products")
      .selectAll()
      .where("id", "=", productId)
      .executeTakeFirst();
    if (!chosen || !currency || chosen.currency === currency) return chosen;
    return db
      .selectFrom("membership_products")
      .selectAll()
      .where("kind", "=", chosen.kind)
      .where("currency", "=", currency)
      .executeTakeFirst();
  }

  /** Prices the basket as the snapshot shows it, and says whether that differs from what the buyer last accepted. */
  async function priceOf(basket: BasketSnapshot, benefits: MemberBenefits = NO_BENEFITS): Promise<BasketPrice> {
    const { seats, standing } = heldAt(basket, clock.now().toISOString());
    // A basket's places are all for one performance (a hold is per performance, and choosing
    // another date empties the basket first).
    const performanceId = [...seats, ...standing][0]?.performance_id;
    const [venue, options, extras, delivery] = await Promise.all([
      performanceId ? facts.venueOfPerformance(performanceId) : undefined,
      facts.priceOptionsOfBands([...seats, ...standing].map((ticket) => ticket.price_band_id)),
      Promise.all(basket.extras.map(async (row) => ({ row, extra: await facts.extra(row.extra_id) }))),
      basket.basket.delivery_method_id ? facts.deliveryMethod(basket.basket.delivery_method_id) : undefined,
    ]);
    // Until the buyer picks another, the option the seat map's price was shown for.
    const optionFor = (bandId: string, chosen: string | null) =>
      options.find((option) => option.id === chosen && option.price_band_id === bandId) ??
      defaultPriceOption(options.filter((option) => option.price_band_id === bandId))!;
    const tickets = [
      ...seats.map((seat) => ({
        ref: `seat:${seat.performance_id}:${seat.seat_id}`,
        option: optionFor(seat.price_band_id, seat.price_option_id),
      })),
      ...standing.flatMap((claim) =>
        Array.from({ length: claim.quantity }, (_, index) => ({
          ref: `standing:${claim.id}:${index}`,
          option: optionFor(claim.price_band_id, claim.price_option_id),
        })),
      ),
    ].map(({ ref, option }) => ({
      ref,
      priceOptionId: option.id,
      faceValue: option.face_value,
      bookingFee: option.booking_fee,
    }));

    const membership = await basketMembership(basket.basket.membership_product_id, venue?.currency);
    const { promo } = basket;
    const priced = priceBasket({
      currency: (venue?.currency ?? membership?.currency ?? "GBP") as Currency,
      tickets,
      membership: membership
        ? { productId: membership.id, name: membership.name, months: membership.months, price: membership.price }
        : null,
      extras: extras.flatMap(({ row, extra }) =>
        extra ? [{ id: extra.id, unitPrice: extra.price, quantity: row.quantity }] : [],
      ),
      protection: {
        chosen: basket.basket.protection_choice === null ? null : basket.basket.protection_choice === 1,
        feePerTicket: venue?.protection_fee ?? 0,
      },
      delivery: delivery ? { method: delivery.kind, fee: delivery.fee } : null,
      transactionFee: venue?.transaction_fee ?? 0,
      benefits,
      promo: promo
        ? {
            code: promo.code,
            rule: priceRuleOf(promo as PromoCode, (kind) =>
              options.filter((option) => option.kind === kind).map((option) => option.id),
            ),
          }
        : null,
      vouchers: basket.vouchers,
    });
    return {
      priced,
      fingerprint: priceFingerprint(priced),
      changed: hasPriceChanged(basket.basket.last_seen_prices, priced),
    };
  }

  return {
    /** The basket as it stands now (one statement), or undefined when there is no such basket. */
    snapshot,

    priceOf,

    /** What the buyer has answered in the checkout so far, or undefined when there is no such basket. */
    async answers(basketId: string): Promise<BasketAnswers | undefined> {
      const found = await snapshot(basketId);
      return found && answersOf(found);
    },

    /** Puts the paid membership in the basket (creating the basket), or takes it out. */
    async setMembership(basketId: string, productId: string | null) {
      const now = clock.now().toISOString();
      await db
        .insertInto("baskets")
        .values({ id: basketId, created_at: now, updated_at: now, membership_product_id: productId })
        .onConflict((oc) => oc.column("id").doUpdateSet({ membership_product_id: productId, updated_at: now }))
        .execute();
    },

    /**
     * Chooses a price option for one held seat (or standing claim). The option must belong to the
     * seat's band for this performance; member prices only for members.
     */
    async choosePriceOption(
      basketId: string,
      ticket: { seatId: number } | { standingClaimId: string },
      priceOptionId: string,
      benefits: MemberBenefits = NO_BENEFITS,
    ): Promise<{ ok: true } | { ok: false; reason: BasketRefusal }> {
      const found = await snapshot(basketId);
      if (!found) return { ok: false, reason: "not-found" };
      const { seats, standing } = heldAt(found, clock.now().toISOString());
      const held =
        "seatId" in ticket
          ? seats.find((seat) => seat.seat_id === ticket.seatId)
          : standing.find((claim) => claim.id === ticket.standingClaimId);
      if (!held) return { ok: false, reason: "not-found" };
      const option = (await facts.priceOptionsOfBands([held.price_band_id])).find(
        (candidate) => candidate.id === priceOptionId,
      );
      if (!option) return { ok: false, reason: "not-found" };
      if (!mayChoosePriceOption(option.kind, benefits)) return { ok: false, reason: "not-allowed" };
      if ("seatId" in ticket) {
        await db
          .updateTable("seat_claims")
          .set({ price_option_id: option.id })
          .where("performance_id", "=", held.performance_id)
          .where("seat_id", "=", ticket.seatId)
          .execute();
      } else {
        await db
          .updateTable("standing_claims")
          .set({ price_option_id: option.id })
          .where("id", "=", ticket.standingClaimId)
          .execute();
      }
      return { ok: true };
    },

    /**
     * A checkout step's answer, written at once: the basket's row changes in one statement (the
     * extras, when they change, with it in one transaction). With `acknowledge`, the prices the
     * change leads to are recorded as seen: the buyer's own change is not news to them. A price
     * change they had not yet acknowledged stays unacknowledged. A quantity no basket may carry
     * is refused (the step's form check tells the buyer before it gets here).
     */
    async answer(
      before: BasketSnapshot,
      change: BasketChange,
      options: { benefits: MemberBenefits; acknowledge: boolean },
    ): Promise<void> {
      const quantities = Object.values(change.extras ?? {});
      if (quantities.some((quantity) => !Number.isInteger(quantity) || quantity < 0 || quantity > EXTRA_MAX_QUANTITY)) {
        throw new RangeError(`an extra's quantity must be a whole number from 0 to ${EXTRA_MAX_QUANTITY}`);
      }
      const after = withChange(before, change);
      const basketId = before.basket.id;
      const columns = {
        protection_choice: after.basket.protection_choice,
        delivery_method_id: after.basket.delivery_method_id,
        contacts: after.basket.contacts,
        extras_done: after.basket.extras_done,
        updated_at: clock.now().toISOString(),
        ...(options.acknowledge && { last_seen_prices: (await priceOf(after, options.benefits)).fingerprint }),
      };
      if (sameExtras(before.extras, after.extras)) {
        await db.updateTable("baskets").set(columns).where("id", "=", basketId).execute();
        return;
      }
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("basket_extras").where("basket_id", "=", basketId).execute();
        if (after.extras.length) {
          await trx
            .insertInto("basket_extras")
            .values(after.extras.map((row) => ({ basket_id: basketId, ...row })))
            .execute();
        }
        await trx.updateTable("baskets").set(columns).where("id", "=", basketId).execute();
      });
    },

    async setPromo(basketId: string, promoCodeId: string | null) {
      await db.updateTable("baskets").set({ promo_code_id: promoCodeId }).where("id", "=", basketId).execute();
    },

    async addVoucher(basketId: string, voucherId: string) {
      await db
        .insertInto("basket_vouchers")
        .values({ basket_id: basketId, voucher_id: voucherId, applied_at: clock.now().toISOString() })
        .onConflict((oc) => oc.columns(["basket_id", "voucher_id"]).doNothing())
        .execute();
    },

    async removeVoucher(basketId: string, voucherId: string) {
      await db
        .deleteFrom("basket_vouchers")
        .where("basket_id", "=", basketId)
        .where("voucher_id", "=", voucherId)
        .execute();
    },

    /** Prices the basket as it stands now, or undefined when there is no such basket. */
    async price(basketId: string, benefits: MemberBenefits = NO_BENEFITS): Promise<BasketPrice | undefined> {
      const found = await snapshot(basketId);
      return found && priceOf(found, benefits);
    },

    /** The buyer has seen these prices (and, after a change, acknowledged them). */
    async acknowledgePrices(basketId: string, fingerprint: string) {
      await db
        .updateTable("baskets")
        .set({ last_seen_prices: fingerprint, updated_at: clock.now().toISOString() })
        .where("id", "=", basketId)
        .execute();
    },
  };
}

export type Baskets = ReturnType<typeof createBaskets>;
