import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import { createCatalogueFacts, type CatalogueFacts } from "./catalogue-facts.server";
import { heldSeats, heldStanding } from "./held-places.server";
import {
  mayChoosePriceOption,
  defaultPriceOption,
  hasPriceChanged,
  priceBasket,
  priceFingerprint,
  type Currency,
  type PricedBasket,
} from "./pricing";
import { parseContactDetails, type ContactDetails } from "~/views/contact-details";
import { priceRuleOf, type PromoCode } from "./promotions.server";

// A basket's contents beyond its holds (price options, extras, protection, delivery, promo code,
// vouchers) and the one way to price it: gather everything from the store, hand it to priceBasket.

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

export function createBaskets(store: Store, clock: Clock, facts: CatalogueFacts = createCatalogueFacts(store, clock)) {
  const { db } = store;

  /** The basket's live holds: its held (not expired) seats, in seat order, and standing places. */
  async function heldTickets(basketId: string) {
    const live = { basketId, liveAt: clock.now().toISOString() };
    const [seats, standing] = await Promise.all([
      heldSeats(db, live).orderBy("seat_claims.seat_id").execute(),
      heldStanding(db, live).execute(),
    ]);
    return { seats, standing };
  }

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

  return {
    /**
     * What the buyer has answered in the checkout so far, decoded from the basket's row (its
     * 0/1 flags, its stored contact details), or undefined when there is no such basket.
     */
    async answers(basketId: string): Promise<BasketAnswers | undefined> {
      const [basket, extras] = await Promise.all([
        db.selectFrom("baskets").selectAll().where("id", "=", basketId).executeTakeFirst(),
        db.selectFrom("basket_extras").select(["extra_id", "quantity"]).where("basket_id", "=", basketId).execute(),
      ]);
      if (!basket) return undefined;
      return {
        membershipProductId: basket.membership_product_id,
        pricesSeen: basket.last_seen_prices !== null,
        extrasDone: basket.extras_done === 1,
        quantities: Object.fromEntries(extras.map((row) => [row.extra_id, row.quantity])),
        protection: basket.protection_choice === null ? null : basket.protection_choice === 1,
        deliveryMethodId: basket.delivery_method_id,
        contacts: parseContactDetails(basket.contacts),
      };
    },

    /** The promo code the basket carries, as the buyer typed it, or null. */
    async promoCode(basketId: string): Promise<string | null> {
      const row = await db
        .selectFrom("baskets")
        .innerJoin("promo_codes", "promo_codes.id", "baskets.promo_code_id")
        .select("promo_codes.code")
        .where("baskets.id", "=", basketId)
        .executeTakeFirst();
      return row?.code ?? null;
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
      const { seats, standing } = await heldTickets(basketId);
      const held =
        "seatId" in ticket
          ? seats.find((seat) => seat.seat_id === ticket.seatId)
          : standing.find((claim) => claim.id === ticket.standingClaimId);
      if (!held) return { ok: false, reason: "not-found" };
      const option = await db
        .selectFrom("price_options")
        .select(["id", "kind", "price_band_id"])
        .where("id", "=", priceOptionId)
        .executeTakeFirst();
      if (!option || option.price_band_id !== held.price_band_id) return { ok: false, reason: "not-found" };
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

    async setProtection(basketId: string, protect: boolean) {
      await db
        .updateTable("baskets")
        .set({ protection_choice: protect ? 1 : 0 })
        .where("id", "=", basketId)
        .execute();
    },

    async setExtra(basketId: string, extraId: string, quantity: number) {
      if (!Number.isInteger(quantity) || quantity < 0 || quantity > 20) return false;
      await db.deleteFrom("basket_extras").where("basket_id", "=", basketId).where("extra_id", "=", extraId).execute();
      if (quantity > 0)
        await db.insertInto("basket_extras").values({ basket_id: basketId, extra_id: extraId, quantity }).execute();
      return true;
    },

    /** The buyer has answered the extras step, whatever they chose (none is an answer). */
    async setExtrasDone(basketId: string) {
      await db.updateTable("baskets").set({ extras_done: 1 }).where("id", "=", basketId).execute();
    },

    /** The contact details step's answers, as JSON (ContactDetails; never card data). */
    async setContacts(basketId: string, contacts: string) {
      await db.updateTable("baskets").set({ contacts }).where("id", "=", basketId).execute();
    },

    async setDelivery(basketId: string, deliveryMethodId: string | null) {
      await db
        .updateTable("baskets")
        .set({ delivery_method_id: deliveryMethodId })
        .where("id", "=", basketId)
        .execute();
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

    /** Prices the basket as it stands now, and says whether that differs from what the buyer last accepted. */
    async price(basketId: string, benefits: MemberBenefits = NO_BENEFITS): Promise<BasketPrice | undefined> {
      const basket = await db.selectFrom("baskets").selectAll().where("id", "=", basketId).executeTakeFirst();
      if (!basket) return undefined;
      const { seats, standing } = await heldTickets(basketId);
      // A basket's places are all for one performance (a hold is per performance, and choosing
      // another date empties the basket first).
      const performanceId = [...seats, ...standing][0]?.performance_id;
      const venue = performanceId ? await facts.venueOfPerformance(performanceId) : undefined;
      const options = await facts.priceOptionsOfBands([...seats, ...standing].map((ticket) => ticket.price_band_id));
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

      const extras = await db
        .selectFrom("basket_extras")
        .innerJoin("extras", "extras.id", "basket_extras.extra_id")
        .select(["extras.id", "extras.price", "basket_extras.quantity"])
        .where("basket_extras.basket_id", "=", basketId)
        .execute();
      const delivery = basket.delivery_method_id ? await facts.deliveryMethod(basket.delivery_method_id) : undefined;
      const promo = basket.promo_code_id
        ? ((await db
            .selectFrom("promo_codes")
            .selectAll()
            .where("id", "=", basket.promo_code_id)
            .executeTakeFirst()) as PromoCode | undefined)
        : undefined;
      const vouchers = await db
        .selectFrom("basket_vouchers")
        .innerJoin("vouchers", "vouchers.id", "basket_vouchers.voucher_id")
        .select(["vouchers.id", "vouchers.balance"])
        .where("basket_vouchers.basket_id", "=", basketId)
        .orderBy("basket_vouchers.applied_at")
        .execute();

      const membership = await basketMembership(basket.membership_product_id, venue?.currency);
      const priced = priceBasket({
        currency: (venue?.currency ?? membership?.currency ?? "GBP") as Currency,
        tickets,
        membership: membership
          ? { productId: membership.id, name: membership.name, months: membership.months, price: membership.price }
          : null,
        extras: extras.map((extra) => ({ id: extra.id, unitPrice: extra.price, quantity: extra.quantity })),
        protection: {
          chosen: basket.protection_choice === null ? null : basket.protection_choice === 1,
          feePerTicket: venue?.protection_fee ?? 0,
        },
        delivery: delivery ? { method: delivery.kind, fee: delivery.fee } : null,
        transactionFee: venue?.transaction_fee ?? 0,
        benefits,
        promo: promo
          ? {
              code: promo.code,
              rule: priceRuleOf(promo, (kind) =>
                options.filter((option) => option.kind === kind).map((option) => option.id),
              ),
            }
          : null,
        vouchers: vouchers.map((voucher) => ({ id: voucher.id, balance: voucher.balance })),
      });
      return {
        priced,
        fingerprint: priceFingerprint(priced),
        changed: hasPriceChanged(basket.last_seen_prices, priced),
      };
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
