import type { Store } from "~/db/connection.server";
import { NO_BENEFITS, type Baskets, type BasketSnapshot, type MemberBenefits } from "./baskets.server";
import type { Inventory } from "./inventory.server";
import type { Order, Orders } from "./orders.server";
import type { Promotions } from "./promotions.server";
import type { Vouchers } from "./vouchers.server";
import type { Memberships } from "./memberships.server";
import type { PricedBasket } from "./pricing";
import { UNCOUNTED, type Counted } from "~/monitoring/counted";

// The order's life around payment: placing it (idempotently, spending the promo code's use and
// the vouchers' money), completing it when payment succeeds (the held seats become sold), and
// failing or cancelling it (money and the code's use go back, seats are released).

export interface Customer {
  name: string;
  email: string;
  /** The contact details step's answers as JSON, kept with the order. */
  contacts?: string | null;
  /** The language the buyer used, for the emails. */
  language?: string | null;
  /** The signed-in customer, whose order it becomes (and who gets a membership it buys). */
  customerId?: string | null;
}

export type PlaceRefusal = "empty" | "promoUsed" | "voucherSpent" | "priceChanged" | "signInRequired";

/** The membership an order buys, from the prices the buyer agreed to. */
export function membershipLine(priced: PricedBasket) {
  for (const line of priced.lines) if (line.kind === "membership") return line;
  return undefined;
}

export function createOrderLifecycle(deps: {
  store: Store;
  baskets: Baskets;
  orders: Orders;
  promotions: Promotions;
  vouchers: Vouchers;
  inventory: Inventory;
  memberships: Memberships;
  counted?: Pick<Counted, "order">;
}) {
  const { store, baskets, orders, promotions, vouchers, inventory, memberships } = deps;
  const counted = deps.counted ?? UNCOUNTED;

  async function holdsOf(basketId: string) {
    return store.db.selectFrom("holds").select("id").where("basket_id", "=", basketId).execute();
  }

  async function undo(order: Order) {
    await vouchers.refundOrder(order.id);
    if (order.promo_code_id) await promotions.release(order.promo_code_id);
  }

  return {
    /**
     * Creates the basket's order (once: a repeat returns the same order), at the prices the buyer
     * last accepted, and spends the promo code's use and the vouchers' money for it. An order that
     * failed or was cancelled (everything it spent given back) is placed again at today's prices.
     *
     * `accepted` is what the buyer's Pay button said. The order is placed only when that is exactly
     * what is left to pay now: a voucher another buyer spent, a promo code used up or any price
     * moved since the page was shown stops it, so nobody is charged an amount they did not see.
     */
    async placeOrder(
      basket: BasketSnapshot,
      customer: Customer,
      accepted: { toPay: number },
      benefits: MemberBenefits = NO_BENEFITS,
    ): Promise<{ ok: true; order: Order; fresh: boolean } | { ok: false; reason: PlaceRefusal }> {
      const basketId = basket.basket.id;
      const existing = basket.order ?? undefined;
      const reopening = existing?.status === "failed" || existing?.status === "cancelled";
      // Already placed (a second Pay, another tab, or a request a moment ago): its payment goes on
      // at the amount accepted for it, and a page showing another amount is out of date.
      const placedBefore = (order: Order) =>
        order.status !== "pending_payment" || order.to_pay === accepted.toPay
          ? ({ ok: true, order, fresh: false } as const)
          : ({ ok: false, reason: "priceChanged" } as const);
      if (existing && !reopening) return placedBefore(existing);
      const price = await baskets.priceOf(basket, benefits);
      if (!price.priced.lines.some((line) => line.kind === "ticket" || line.kind === "membership"))
        return { ok: false, reason: "empty" };
      if (price.changed || price.priced.toPay !== accepted.toPay) {
        // A press a moment earlier (a double click) may have placed the order and spent the
        // voucher since this one looked: that changed the price, and that order is this buyer's.
        const meanwhile = await orders.byBasket(basketId);
        if (meanwhile && meanwhile.status !== "failed" && meanwhile.status !== "cancelled")
          return placedBefore(meanwhile);
        return { ok: false, reason: "priceChanged" };
      }
      // A membership belongs to an account: nobody buys one anonymously.
      const membership = membershipLine(price.priced);
      if (membership && !customer.customerId) return { ok: false, reason: "signInRequired" };
      const performance = basket.hold ? { id: basket.hold.performance_id, name: basket.hold.title_name } : undefined;
      const delivery = price.priced.lines.find((line) => line.kind === "delivery");
      const placement = {
        basketId,
        customerName: customer.name,
        email: customer.email,
        performanceId: performance?.id ?? null,
        showName: performance?.name ?? membership?.name ?? "",
        deliveryMethod: delivery?.kind === "delivery" ? delivery.method : null,
        priced: price.priced,
        promoCodeId: basket.basket.promo_code_id,
        contacts: customer.contacts ?? null,
        language: customer.language ?? null,
        customerId: customer.customerId ?? null,
      };
      let order: Order;
      // A new order, placed by this call: no payment has ever been tried for it.
      let fresh = false;
      if (existing && reopening) {
        const reopened = await orders.reopen(existing.id, placement);
        // Another request reopened it first; that one spends the code and vouchers.
        if (!reopened) return placedBefore((await orders.byBasket(basketId)) ?? existing);
        order = reopened;
      } else {
        const placed = await orders.createOnce(placement);
        if (!placed.created) return placedBefore(placed.order);
        order = placed.order;
        fresh = true;
      }

      if (order.promo_code_id && !(await promotions.redeem(order.promo_code_id))) {
        await orders.settle(order.id, "cancelled");
        // Used up by others since the buyer applied it: it comes off the basket, so the page shows
        // the total without it (and the price-change alert) rather than a discount it cannot have.
        await baskets.setPromo(basketId, null);
        return { ok: false, reason: "promoUsed" };
      }
      for (const voucher of price.priced.vouchers) {
        if (voucher.amount > 0 && !(await vouchers.redeem(voucher.id, voucher.amount, order.id))) {
          await undo(order);
          await orders.settle(order.id, "cancelled");
          return { ok: false, reason: "voucherSpent" };
        }
      }
      counted.order("placed");
      return { ok: true, order, fresh };
    },

    /** Payment succeeded: the seats become sold, a membership it bought begins, the order is paid. */
    async completeOrder(order: Order): Promise<{ ok: true } | { ok: false; reason: "expired" }> {
      const priced = JSON.parse(order.lines) as PricedBasket;
      const refs = priced.lines.flatMap((line) => (line.kind === "ticket" ? [line.ref] : []));
      const sold = await inventory.sellPlaces(order.basket_id, order.id, refs);
      if (!sold.ok) return { ok: false, reason: "expired" };
      const membership = membershipLine(priced);
      if (membership && order.customer_id) {
        const customerId = order.customer_id;
        await store.db
          .transaction()
          .execute((trx) => memberships.grant(trx, { customerId, orderId: order.id, months: membership.months }));
      }
      if (await orders.settle(order.id, "paid")) counted.order("paid");
      return { ok: true };
    },

    /** Payment failed or the buyer cancelled: nothing is kept, everything spent goes back. */
    async failOrder(order: Order, status: "failed" | "cancelled"): Promise<void> {
      if (await orders.settle(order.id, status)) {
        counted.order(status);
        await undo(order);
      }
    },

    /**
     * An order left waiting with no payment under way (see Orders.stalledOrders) is given up, and
     * what it spent goes back: a voucher's money is never kept by an order nobody is paying for.
     * The seats stay held until their hold ends, so the buyer may still come back and pay.
     */
    async cancelStalledOrder(order: Order): Promise<boolean> {
      if (!(await orders.cancelStalled(order.id))) return false;
      counted.order("cancelled");
      await undo(order);
      return true;
    },

    /** The buyer gives their seats up (or leaves): the holds end at once. */
    async releaseBasket(basketId: string): Promise<void> {
      for (const hold of await holdsOf(basketId)) await inventory.releaseHold(hold.id);
    },
  };
}

export type OrderLifecycle = ReturnType<typeof createOrderLifecycle>;
