import { redirect, type AppLoadContext } from "@remix-run/node";
import type { PaymentState } from "~/services/payments.server";
import type { Order } from "~/ticketing/orders.server";
import type { ClientEvent } from "~/views/events";
import { flashEvents, track } from "~/web/track.server";
import { basketCookieHeader, promoCookieHeader, readBuyer } from "./buyer.server";

// The buyer's order around and after payment. While paying, the order is found through the basket
// cookie; once paid, the basket is finished (its cookie goes, so the next booking starts a fresh
// basket) and the confirmation page finds the order through its own cookie.

export async function basketOrder(request: Request, context: AppLoadContext): Promise<Order | undefined> {
  const buyer = await readBuyer(request, context);
  return buyer.basketId ? context.orders.byBasket(buyer.basketId) : undefined;
}

/** The order this buyer has just paid for, if any. */
export async function paidOrder(request: Request, context: AppLoadContext): Promise<Order | undefined> {
  const id: unknown = await context.sessions.orderCookie.parse(request.headers.get("Cookie"));
  const fromCookie = typeof id === "string" && id ? await context.orders.byId(id) : undefined;
  if (fromCookie?.status === "paid") return fromCookie;
  const fromBasket = await basketOrder(request, context);
  return fromBasket?.status === "paid" ? fromBasket : undefined;
}

/**
 * To the confirmation of a paid order, the basket finished. Also where a second Pay (a double
 * click, a reloaded POST) lands when the first has already paid: it must carry the order's cookie
 * itself, since the browser may have dropped the first response.
 */
export async function toConfirmation(
  context: AppLoadContext,
  order: Order,
  headers = new Headers(),
): Promise<Response> {
  headers.append("Set-Cookie", await context.sessions.orderCookie.serialize(order.id));
  headers.append("Set-Cookie", await basketCookieHeader(context, null));
  headers.append("Set-Cookie", await promoCookieHeader(context, null));
  return redirect("/checkout/confirmation", { headers });
}

const OUTCOME_EVENT: Partial<Record<PaymentState["kind"], "makePayment.success" | "makePayment.failure">> = {
  paid: "makePayment.success",
  failed: "makePayment.failure",
  timedOut: "makePayment.failure",
};

/**
 * Where a payment in this state sends the buyer: the confirmation (the basket finished), the
 * failed page, or the verify page (a step at the gateway, or still waiting). A redirect Response.
 */
export async function redirectForPayment(
  context: AppLoadContext,
  order: Order,
  state: PaymentState,
  events: ClientEvent[] = [],
): Promise<Response> {
  const headers = new Headers();
  const outcome = OUTCOME_EVENT[state.kind];
  if (state.kind === "failed" && state.failure === "cancelled") {
    events.push(track(context, "paymentAborted", { orderId: order.id }));
  } else if (outcome) {
    const reason = state.kind === "failed" ? state.failure : state.kind === "timedOut" ? "timeout" : undefined;
    events.push(track(context, outcome, { orderId: order.id, ...(reason ? { reason } : {}) }));
  }
  await flashEvents(context, headers, events);
  if (state.kind === "paid") return toConfirmation(context, order, headers);
  // A buyer who cancelled at PayPal (or the bank) chose to: back to the payment page, not "failed".
  if (state.kind === "failed" && state.failure === "cancelled") return redirect("/checkout/payment", { headers });
  if (state.kind === "failed") return redirect("/checkout/failed", { headers });
  if (state.kind === "none") return redirect("/checkout/payment", { headers });
  return redirect("/checkout/verify", { headers });
}
