import { redirect, type AppLoadContext } from "@remix-run/node";
import type { PaymentState } from "~/payments/payment-state";
import { checkoutPath } from "~/urls/paths";
import { pageForPayment } from "~/ticketing/checkout-steps";
import type { Order } from "~/ticketing/orders.server";
import type { ClientEvent } from "~/views/events";
import { flashEvents, track } from "~/web/track.server";
import { basketCookieHeader, promoCookieHeader, readBuyer } from "./buyer.server";
import { ORDER_SHOWN_MINUTES } from "./session.server";

// The buyer's order around and after payment. While paying, the order is found through the basket
// cookie; once paid, the basket is finished (its cookie goes, so the next booking starts a fresh
// basket) and the confirmation page finds the order through its own cookie.
//
// A browser is shown its paid order for a short time only (issue 53): a shared or kiosk browser
// must not keep the e-tickets' link and the buyer's details for whoever comes next. The link
// stays in the confirmation email. The buyer can end it sooner ("this is a shared computer", or
// signing out), which forgets the order's cookie.

/** Whether a paid order may still be shown to the browser that paid for it, by the clock. */
function stillShown(order: Order | undefined, context: AppLoadContext): order is Order {
  if (order?.status !== "paid" || !order.paid_at) return false;
  return context.clock.now().getTime() < Date.parse(order.paid_at) + ORDER_SHOWN_MINUTES * 60_000;
}

export async function basketOrder(request: Request, context: AppLoadContext): Promise<Order | undefined> {
  const buyer = await readBuyer(request, context);
  return buyer.basketId ? context.orders.byBasket(buyer.basketId) : undefined;
}

/** The order this buyer has just paid for, if any, while it is still shown to them. */
export async function paidOrder(request: Request, context: AppLoadContext): Promise<Order | undefined> {
  const id: unknown = await context.sessions.orderCookie.parse(request.headers.get("Cookie"));
  const fromCookie =
    typeof id === "string" && id ? await context.readOnce(`order:${id}`, () => context.orders.byId(id)) : undefined;
  if (stillShown(fromCookie, context)) return fromCookie;
  const fromBasket = await basketOrder(request, context);
  return stillShown(fromBasket, context) ? fromBasket : undefined;
}

/**
 * The Set-Cookie headers that make this browser forget its paid order at once: the order's
 * cookie, and the basket's if it still leads to a paid order (a response the browser never got).
 * A basket still being filled is left alone.
 */
export async function forgetPaidOrder(request: Request, context: AppLoadContext): Promise<string[]> {
  const headers = [await context.sessions.orderCookie.serialize("", { maxAge: 0 })];
  if ((await basketOrder(request, context))?.status === "paid") headers.push(await basketCookieHeader(context, null));
  return headers;
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
  return redirect(checkoutPath("confirmation"), { headers });
}

const OUTCOME_EVENT: Partial<Record<PaymentState["kind"], "makePayment.success" | "makePayment.failure">> = {
  paid: "makePayment.success",
  failed: "makePayment.failure",
  timedOut: "makePayment.failure",
};

/**
 * Where a payment in this state sends the buyer, with the events of its outcome: the
 * confirmation (the basket finished), or the page the table gives. A redirect Response.
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
  const page = pageForPayment(state);
  if (page === "confirmation") return toConfirmation(context, order, headers);
  return redirect(checkoutPath(page), { headers });
}

/** The payment states the table puts on each page after Pay. */
type StateOn<Page> = Page extends "failed"
  ? Extract<PaymentState, { kind: "failed" }>
  : Extract<PaymentState, { kind: "processing" | "action" | "timedOut" }>;

/**
 * The guard every page after Pay calls first (verify, failed): the buyer's order and its payment
 * state when this page is where the table puts them; otherwise it throws the redirect to the page
 * that is (the confirmation for a buyer whose paid basket is finished, else the payment page, when
 * there is no basket).
 */
export async function guardPaymentPage<Page extends "verify" | "failed">(
  request: Request,
  context: AppLoadContext,
  page: Page,
  order?: Order,
): Promise<{ order: Order; state: StateOn<Page> }> {
  const found = order ?? (await basketOrder(request, context));
  // No basket: a buyer who has paid (their basket finished) has a paid order; anyone else has
  // nothing tried yet.
  if (!found) {
    const paid = await paidOrder(request, context);
    throw redirect(checkoutPath(pageForPayment(paid ? { kind: "paid" } : { kind: "none" })));
  }
  const state = await context.payments.state(found);
  if (pageForPayment(state) === page) return { order: found, state: state as StateOn<Page> };
  // The verify page is where an outcome is first learned, so leaving it tracks the outcome; any
  // other page was reached after it had been tracked, so a wrong visit is only sent on.
  if (page === "verify") throw await redirectForPayment(context, found, state);
  const target = pageForPayment(state);
  throw target === "confirmation" ? await toConfirmation(context, found) : redirect(checkoutPath(target));
}
