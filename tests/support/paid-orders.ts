import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Store } from "~/db/connection.server";
import type { Entitlements } from "~/ticketing/inventory.server";
import type { Customer } from "~/ticketing/order-lifecycle.server";
import type { IssuedTicket, Order } from "~/ticketing/orders.server";
import type { PricedBasket } from "~/ticketing/pricing";
import { createRefundLedger } from "~/ticketing/refunds.server";
import { newBarcode } from "~/use-cases/barcode.server";
import type { createEngine, seedSmallCatalogue } from "./engine";

// Paid orders with their e-tickets, and refunds of them, made straight through the domain for store
// tests about what comes after a sale (the door, the box office's reports): not about paying or
// fulfilment, so the tickets are issued here as fulfilment issues them.

export const JO: Customer = { name: "Jo Bloggs", email: "jo@example.com" };

export interface PaidOrderOptions {
  customer?: Customer;
  entitlements?: Entitlements;
  /** false: placed but never paid. */
  pay?: boolean;
  /** Record the card payment the provider captured, as the payment step does: what a refund gives back to. */
  cardPayment?: boolean;
}

export function paidOrders(
  store: Store,
  seed: Awaited<ReturnType<typeof seedSmallCatalogue>>,
  engine: ReturnType<typeof createEngine>,
) {
  const ledger = () => createRefundLedger({ store, clock: seed.clock, memberships: engine.memberships });

  return {
    /** A paid order for these seats (row and number) and its tickets, named as the e-ticket names them. */
    async paidOrder(
      performanceId: string,
      seats: [string, string][],
      options: PaidOrderOptions = {},
    ): Promise<{ order: Order; tickets: IssuedTicket[] }> {
      const basketId = randomUUID();
      const held = await engine.inventory.holdSeats({
        basketId,
        performanceId,
        seatIds: seats.map(([row, label]) => seed.seat(row, label)),
        entitlements: options.entitlements,
      });
      if (!held.ok) throw new Error(held.reason);
      const placed = await engine.placeAsShown(basketId, options.customer ?? JO);
      if (!placed.ok) throw new Error(placed.reason);
      if (options.pay === false) return { order: placed.order, tickets: [] };
      expect(await engine.orderLifecycle.completeOrder(placed.order)).toEqual({ ok: true });
      if (options.cardPayment) {
        const now = seed.clock.now().toISOString();
        await store.db
          .insertInto("order_payments")
          .values({
            id: randomUUID(),
            order_id: placed.order.id,
            method: "card",
            amount: placed.order.to_pay,
            status: "succeeded",
            provider_reference: `ref-${placed.order.id}`,
            created_at: now,
            updated_at: now,
            idempotency_key: randomUUID(),
            brand: "visa",
            last4: "4242",
            action: null,
            failure: null,
            reconciled_at: null,
            currency: placed.order.currency,
            accepted_brands: null,
          })
          .execute();
      }
      const priced = JSON.parse(placed.order.lines) as PricedBasket;
      const refs = priced.lines.flatMap((line) => (line.kind === "ticket" ? [line.ref] : []));
      const places = await engine.orders.placesOf(refs);
      const tickets = await engine.orders.issueTickets(
        placed.order.id,
        refs.map((ref) => {
          const place = places.get(ref);
          const label = place?.kind === "seat" ? `${place.section}, row ${place.row}, seat ${place.seat}` : ref;
          return { ref, label, barcode: newBarcode() };
        }),
      );
      return { order: (await engine.orders.byId(placed.order.id))!, tickets };
    },

    /** A refund of the whole order or of these tickets, recorded and (unless `settle` is false) settled. */
    async refund(order: Order, tickets: IssuedTicket[] | "whole", settle = true) {
      const whole = tickets === "whole";
      const recorded = await ledger().record({
        order,
        requestKey: `refund:${order.id}:${whole ? "order" : tickets.map((ticket) => ticket.id).join(",")}`,
        whole,
        ticketIds: whole ? [] : tickets.map((ticket) => ticket.id),
        reason: null,
      });
      if (!recorded.ok) throw new Error(recorded.reason);
      if (settle) expect(await ledger().settle(recorded.refund.id)).not.toBeNull();
      return recorded.refund;
    },
  };
}
