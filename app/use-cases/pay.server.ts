import type { Logger } from "pino";
import type { Clock } from "~/clock";
import type { CardDetails } from "~/forms/checkout/card-types";
import type { GatewayAction, GatewayResult, PaymentGateway, PaymentRequest } from "~/payments/gateway";
import type { PaymentFailureReason, PaymentState } from "~/payments/payment-state";
import type { OrderLifecycle } from "~/ticketing/order-lifecycle.server";
import { brandRule, refusalOf, termsOf } from "~/payments/payment-terms";
import type { Order, OrderPayment, Orders } from "~/ticketing/orders.server";
import { DEFAULT_RECONCILE_AFTER_SECONDS } from "~/config/env.server";
import { startPeriodicJob, type JobLeases } from "~/db/leases.server";
import { UNCOUNTED, type Counted } from "~/monitoring/counted";

// The spec's payment service: takes an order's money through the gateway, once. Every attempt is
// written down (with the idempotency key the gateway sees) before the gateway is called, and every
// answer is applied by a conditional update, so a double Pay, a reload, a late answer racing the
// timeout, or two servers at once all end in one charge and one outcome. Seats become sold only
// after authorisation; an authorisation that comes too late (the hold expired, the buyer gave up,
// the timeout passed) is voided. What nobody answered (the buyer closed the browser at the bank,
// the server died while waiting) the reconciler settles by asking the gateway
// (docs/decisions/0013-payment-reconciler.md).

export type PayInput =
  /** Nothing left to pay: the vouchers cover the order. */
  | { method: "voucher" }
  | { method: "card"; card: CardDetails }
  /** A card typed on the provider's own page (a gateway whose cards are `hosted`). */
  | { method: "hostedCard" }
  | { method: "paypal" }
  | { method: "googlePay" | "applePay"; token: string };

// The states live in the domain, which gives each its page; callers keep importing them from here.
export type { PaymentFailureReason, PaymentState } from "~/payments/payment-state";

const IN_FLIGHT: readonly OrderPayment["status"][] = ["attempted", "action"];

/**
 * The return address's parameter naming the attempt a buyer left a provider's hosted card page by
 * its cancel link: Stripe Checkout puts the session's id in the success address only, so the
 * cancel address names the attempt itself (its idempotency key), and the buyer's return settles it.
 */
const CANCELLED_PARAM = "cancelled";

/** Attempts settled per pass, so a backlog (a long outage) is worked through a slice at a time. */
const RECONCILE_BATCH = 50;

export interface PaymentServiceOptions {
  orders: Orders;
  orderLifecycle: OrderLifecycle;
  gateway: PaymentGateway;
  clock: Clock;
  logger: Logger;
  /** After this long without an answer, the buyer is told the payment timed out. */
  timeoutMs: number;
  /** How long Pay waits for a quick answer before showing the "we're checking" page. */
  inlineWaitMs?: number;
  /** Runs once an order is paid: tickets issued, email queued. Never fails the payment. */
  onPaid(order: Order): Promise<void>;
  /** How long after Pay a payment still waiting is settled by `reconcile` (default 300 s). */
  reconcileAfterMs?: number;
  /** Counts each attempt's outcome once, as it is decided, and what the reconciler did. */
  counted?: Pick<Counted, "paymentAttempt" | "reconciled">;
  /** Who takes payments of this method (card and wallets: the card provider; PayPal: PayPal). */
  providerOf?: (method: string) => string;
}

export function createPaymentService(options: PaymentServiceOptions) {
  const { orders, orderLifecycle, gateway, clock, logger, timeoutMs } = options;
  const inlineWaitMs = Math.min(options.inlineWaitMs ?? 3000, timeoutMs);
  const reconcileAfterMs = options.reconcileAfterMs ?? DEFAULT_RECONCILE_AFTER_SECONDS * 1000;
  const counted = options.counted ?? UNCOUNTED;
  const providerOf = options.providerOf ?? (() => "unknown");
  /** An attempt's outcome, counted by the request that decided it (the one whose update won). */
  const decided = (attempt: OrderPayment, outcome: string) =>
    counted.paymentAttempt(attempt.method === "voucher" ? "voucher" : providerOf(attempt.method), outcome);

  async function latestAttempt(orderId: string): Promise<OrderPayment | undefined> {
    const attempts = await orders.payments(orderId);
    return attempts.at(-1);
  }

  async function voidQuietly(reference: string | null) {
    if (!reference) return;
    try {
      await gateway.void(reference);
    } catch (error) {
      logger.error({ err: error, reference }, "voiding a payment failed; reconcile it with the gateway");
    }
  }

  async function fail(order: Order, attempt: OrderPayment, failure: PaymentFailureReason, from = IN_FLIGHT) {
    if (await orders.updatePayment(attempt.id, from, { status: "failed", failure })) {
      decided(attempt, failure === "error" ? "error" : "declined");
      // Vouchers' money and the promo code's use go back; the seats stay held for another try.
      await orderLifecycle.failOrder(order, "failed");
    }
  }

  /**
   * Applies one gateway answer to an attempt. Safe to call twice with the same answer, and from
   * every path at once (the call's own answer, the webhook, the buyer's return, the reconciler):
   * this is the one way from "authorised" to "sold". An authorisation is first held to what the
   * attempt asked for (amount, currency, the card brands it may use); then one conditional update
   * on the attempt, from in flight, decides between selling and giving the money back, so no path
   * sells seats for a payment another is cancelling.
   */
  async function apply(order: Order, attempt: OrderPayment, result: GatewayResult): Promise<void> {
    const card = { brand: "brand" in result ? result.brand : null, last4: "last4" in result ? result.last4 : null };
    if (result.status === "actionRequired") {
      const asked = await orders.updatePayment(attempt.id, IN_FLIGHT, {
        status: "action",
        action: JSON.stringify(result.action),
        provider_reference: result.reference,
        ...card,
      });
      if (asked) decided(attempt, "actionRequired");
      return;
    }
    if (result.status === "declined") {
      await orders.updatePayment(attempt.id, IN_FLIGHT, { provider_reference: result.reference, ...card });
      await fail(order, attempt, result.failure);
      return;
    }
    if (result.status !== "authorised") return;
    const refusal = refusalOf(termsOf(attempt), result);
    if (refusal) {
      await refuse(order, attempt, result.reference, refusal, card);
      return;
    }
    // Win the attempt before touching the order: from here no timeout, abandonment or second
    // answer can move it (they move only attempts still in flight), so the order completed below
    // is never also given up, and only this answer captures and issues tickets.
    const won = await orders.updatePayment(attempt.id, IN_FLIGHT, {
      status: "succeeded",
      provider_reference: result.reference,
      action: null,
      ...card,
    });
    if (!won) {
      // Something moved it first. The same answer twice (the gateway's notification beside the
      // call's own answer): the first has done everything, and the money must not be given back.
      // Otherwise a timeout or a buyer giving up came first: too late.
      const current = await orders.payment(attempt.id);
      if (current?.status !== "succeeded") await tooLate(current, result.reference);
      return;
    }
    decided(attempt, "authorised");
    await finishWon(order, { ...attempt, status: "succeeded" }, result.reference);
  }

  /**
   * An authorisation the attempt's terms refuse: given back once, by the path whose update decides
   * the attempt, and the order failed. A path that finds the attempt decided already does what
   * that decision needs: nothing if it sold (another path saw the answer differently and won
   * first), otherwise the money goes back.
   */
  async function refuse(
    order: Order,
    attempt: OrderPayment,
    reference: string,
    failure: PaymentFailureReason,
    card: { brand: string | null; last4: string | null },
  ) {
    const refused = await orders.updatePayment(attempt.id, IN_FLIGHT, {
      status: "voided",
      failure,
      provider_reference: reference,
      action: null,
      ...card,
    });
    if (!refused) {
      const current = await orders.payment(attempt.id);
      if (current?.status !== "succeeded") await tooLate(current, reference);
      return;
    }
    decided(attempt, "refused");
    logger.warn({ orderId: order.id, failure, brand: card.brand }, "authorisation refused by the payment's terms");
    await voidQuietly(reference);
    await orderLifecycle.failOrder(order, "failed");
  }

  /** An authorisation for an attempt already given up (timed out, abandoned): nothing may be charged. */
  async function tooLate(current: OrderPayment | undefined, reference: string) {
    await voidQuietly(reference);
    if (current?.status === "timedOut" || current?.status === "failed")
      await orders.updatePayment(current.id, [current.status], { status: "voided", provider_reference: reference });
  }

  /**
   * After an answer has won its attempt: the seats become sold and the order paid, then the money
   * is captured and the tickets issued; or, when the hold ran out while the buyer was at the bank
   * or PayPal, the money goes back and the order fails, rather than a seat being sold twice. The
   * reconciler calls it again for an attempt won by a server that died before finishing.
   */
  async function finishWon(order: Order, attempt: OrderPayment, reference: string): Promise<void> {
    const sold = await orderLifecycle.completeOrder(order);
    if (!sold.ok) {
      await voidQuietly(reference);
      if (await orders.updatePayment(attempt.id, ["succeeded"], { status: "voided", failure: "holdExpired" }))
        await orderLifecycle.failOrder(order, "failed");
      return;
    }
    const captured =
      attempt.method === "voucher"
        ? { ok: true }
        : await gateway.capture(reference, attempt.amount).catch((error: unknown) => {
            logger.error({ err: error, orderId: order.id }, "capture failed; reconcile with the gateway");
            return { ok: false };
          });
    if (!captured.ok)
      logger.error({ orderId: order.id }, "capture refused; the order is paid but the money is not yet taken");
    await options.onPaid(order).catch((error: unknown) => {
      logger.error({ err: error, orderId: order.id }, "issuing tickets or queueing the email failed");
    });
  }

  /** Watches a gateway call that was sent: applies its answer whenever it comes. */
  function follow(order: Order, attempt: OrderPayment, call: Promise<GatewayResult>): Promise<void> {
    return call
      .then((result) => apply(order, attempt, result))
      .catch(async (error: unknown) => {
        logger.error({ err: error, orderId: order.id }, "payment gateway call failed");
        await fail(order, attempt, "error");
      });
  }

  async function succeedWithoutGateway(order: Order, attempt: OrderPayment) {
    await apply(order, attempt, {
      status: "authorised",
      reference: `voucher:${order.id}`,
      brand: null,
      last4: null,
      amount: attempt.amount,
      currency: attempt.currency,
    });
  }

  /**
   * Settles one attempt with what the gateway says of it now. An answer is applied exactly as the
   * buyer's return would apply it (`apply`: sold, captured and ticketed while the seats are held,
   * voided when they are not); a payment still waiting on the buyer, or unknown to the gateway,
   * is given up: timed out, the order failed (vouchers and promo code back) and anything at the
   * gateway voided, so it can never be authorised later without an order.
   */
  async function reconcileAttempt(attempt: OrderPayment): Promise<void> {
    const order = await orders.byId(attempt.order_id);
    if (!order || !attempt.idempotency_key) {
      await orders.markReconciled(attempt.id);
      return;
    }
    if (attempt.method === "voucher") {
      // Nothing at the gateway: the server died between recording the attempt and completing it.
      if (IN_FLIGHT.includes(attempt.status)) await succeedWithoutGateway(order, attempt);
      await orders.markReconciled(attempt.id);
      return;
    }
    const result = await gateway.status(attempt.idempotency_key, attempt.provider_reference);
    const reference = ("reference" in result ? result.reference : null) ?? attempt.provider_reference;
    if (IN_FLIGHT.includes(attempt.status)) {
      if (result.status === "authorised" || result.status === "declined") {
        await apply(order, attempt, result);
        counted.reconciled("settled");
      } else if (
        // From the status read, not any in-flight one: a buyer coming back this instant has
        // moved it on, and their answer decides.
        await orders.updatePayment(attempt.id, [attempt.status], {
          status: "timedOut",
          failure: "timeout",
          action: null,
          provider_reference: reference,
        })
      ) {
        decided(attempt, "timedOut");
        counted.reconciled("settled");
        await voidQuietly(reference);
        await orderLifecycle.failOrder(order, "failed");
      }
    } else if (result.status === "authorised") {
      // Given up on our side, authorised on the gateway's anyway: `apply` voids it.
      await apply(order, attempt, result);
    } else if (result.status === "pending" || result.status === "actionRequired") {
      await voidQuietly(reference);
    }
    await orders.markReconciled(attempt.id);
    logger.info(
      {
        orderId: order.id,
        was: attempt.status,
        gateway: result.status,
        now: (await orders.payment(attempt.id))?.status,
      },
      "payment reconciled",
    );
  }

  function stateOf(attempt: OrderPayment | undefined, order: Order): PaymentState {
    if (order.status === "paid") return { kind: "paid" };
    if (!attempt) return { kind: "none" };
    switch (attempt.status) {
      case "attempted":
        return { kind: "processing", startedAt: attempt.created_at, method: attempt.method };
      case "action":
        return {
          kind: "action",
          action: JSON.parse(attempt.action ?? "null") as GatewayAction,
          method: attempt.method,
        };
      case "succeeded":
        // Won a moment ago, the order not yet completed (a paid order returned above): still
        // being settled, so nobody is sent to a confirmation that is not there yet.
        return { kind: "processing", startedAt: attempt.created_at, method: attempt.method };
      case "timedOut":
        return { kind: "timedOut", method: attempt.method };
      case "voided":
      case "failed": {
        const failure = (attempt.failure ?? "declined") as PaymentFailureReason;
        const { acceptedBrands } = termsOf(attempt);
        return {
          kind: "failed",
          failure,
          method: attempt.method,
          ...(failure === "brandNotAccepted" && acceptedBrands ? { acceptedBrands } : {}),
        };
      }
    }
  }

  return {
    /**
     * Pays for a placed order. A second Pay while one is under way starts nothing: it answers with
     * the state of the first. Waits a moment for a quick answer, so most buyers go straight on.
     */
    async pay(
      order: Order,
      input: PayInput,
      request: Omit<PaymentRequest, "idempotencyKey" | "amount" | "currency">,
      /** `fresh`: the order was placed new by this request, so nobody can have tried to pay it. */
      { fresh = false }: { fresh?: boolean } = {},
    ) {
      // Read afresh: the order passed in may be a moment old, and a press a moment earlier may
      // have paid it since.
      const current = fresh ? order : ((await orders.byId(order.id)) ?? order);
      const attempts = fresh ? [] : await orders.payments(order.id);
      const previous = attempts.at(-1);
      if (
        current.status !== "pending_payment" ||
        attempts.some((attempt) => attempt.status === "succeeded") ||
        (previous && IN_FLIGHT.includes(previous.status))
      )
        return stateOf(previous, current);
      // A card is a card in the order's records, wherever the buyer typed it.
      const method = order.to_pay === 0 ? "voucher" : input.method === "hostedCard" ? "card" : input.method;
      // "Nothing to pay" is the order's to say, never the form's.
      if (method === "voucher" && order.to_pay > 0) return stateOf(previous, current);
      const attempt = await orders.recordPaymentAttempt(
        order.id,
        method,
        order.to_pay,
        `${order.id}:${attempts.length + 1}`,
        {
          currency: order.currency,
          accepted_brands: brandRule(method, request.acceptedBrands, gateway.cardBrands),
        },
      );
      // Another request recorded this attempt a moment ago: that one is paying.
      if (!attempt) return stateOf(await latestAttempt(order.id), order);

      if (method === "voucher" || input.method === "voucher") {
        await succeedWithoutGateway(order, attempt);
      } else {
        const base = {
          ...request,
          idempotencyKey: attempt.idempotency_key!,
          amount: order.to_pay,
          currency: order.currency,
        };
        const call =
          input.method === "card"
            ? gateway.authorise({ ...base, card: input.card })
            : input.method === "hostedCard"
              ? gateway.startHostedCard({ ...base, cancelUrl: cancelUrlOf(request.returnUrl, attempt) })
              : input.method === "paypal"
                ? gateway.startPayPal({ ...base, cancelUrl: request.returnUrl })
                : gateway.authoriseWallet({ ...base, wallet: input.method, token: input.token });
        const followed = follow(order, attempt, call);
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([followed, new Promise<void>((resolve) => (timer = setTimeout(resolve, inlineWaitMs)))]);
        clearTimeout(timer);
      }
      // The order first: paid, it says all there is to say, and its payment need not be read too.
      const settled = (await orders.byId(order.id)) ?? order;
      return stateOf(settled.status === "paid" ? undefined : await orders.payment(attempt.id), settled);
    },

    /**
     * The payment a buyer back at the return URL comes back from, as the gateway's query names it,
     * or the attempt a cancel address names (`resume` finds its payment).
     */
    returnedReference(query: URLSearchParams): string | null {
      return gateway.returnedReference(query) ?? query.get(CANCELLED_PARAM);
    },

    /** Where the payment page may take the buyer with this gateway (cards on our page or the provider's, PayPal, wallets). */
    offers: gateway.offers,

    /** The buyer is back from a gateway step (device data, 3-D Secure, PayPal). */
    async resume(order: Order, reference: string, returned: Record<string, string>): Promise<PaymentState> {
      const attempt = await latestAttempt(order.id);
      const payment = attempt?.provider_reference;
      if (
        attempt?.status === "action" &&
        payment &&
        (payment === reference || (attempt.idempotency_key !== null && attempt.idempotency_key === reference))
      ) {
        // Marks it in flight again before calling, so a reload of the return URL calls nothing.
        if (await orders.updatePayment(attempt.id, ["action"], { status: "attempted", action: null })) {
          await follow(order, { ...attempt, status: "attempted" }, gateway.continue(payment, returned));
        }
      }
      return this.state(order);
    },

    /**
     * Where the order's payment stands. An attempt with no answer after the timeout is marked
     * timed out here (and voided later if an authorisation still arrives).
     */
    async state(order: Order): Promise<PaymentState> {
      const current = (await orders.byId(order.id)) ?? order;
      const attempt = await latestAttempt(order.id);
      if (
        attempt?.status === "attempted" &&
        clock.now().getTime() - new Date(attempt.created_at).getTime() >= timeoutMs &&
        (await orders.updatePayment(attempt.id, ["attempted"], { status: "timedOut", failure: "timeout" }))
      ) {
        decided(attempt, "timedOut");
        await orderLifecycle.failOrder(current, "failed");
        return { kind: "timedOut", method: attempt.method };
      }
      return stateOf(attempt && (await orders.payment(attempt.id)), current);
    },

    /**
     * Settles every payment still waiting PAYMENT_RECONCILE_AFTER_SECONDS after Pay, and checks
     * once each attempt given up on our side, by asking the gateway (`status`). Safe in several
     * processes at once: every change is the same conditional update the buyer's own return makes,
     * so two reconcilers capture once. Returns how many attempts it looked at.
     */
    async reconcile(): Promise<number> {
      const before = new Date(clock.now().getTime() - reconcileAfterMs).toISOString();
      const due = await orders.unsettledPayments(before, RECONCILE_BATCH);
      for (const attempt of due) {
        try {
          await reconcileAttempt(attempt);
        } catch (error) {
          // Left as it is: the next pass asks again.
          logger.error({ err: error, orderId: attempt.order_id }, "reconciling a payment failed");
        }
      }
      // An answer that won its attempt on a server that died before completing the order: it
      // is finished here (sold and captured while the hold stands, voided once it has not).
      const unfinished = await orders.wonButUnfinished(before, RECONCILE_BATCH);
      for (const attempt of unfinished) {
        const order = await orders.byId(attempt.order_id);
        // One reconciler only: two finishing the same attempt would both capture.
        if (order && attempt.provider_reference && (await orders.claimForReconciling(attempt.id))) {
          counted.reconciled("finished");
          await finishWon(order, attempt, attempt.provider_reference);
        }
      }
      // Orders placed but never sent for payment (the server died in between): nothing was
      // authorised, so there is nothing to ask the gateway; what they spent goes back.
      const stalled = await orders.stalledOrders(before, RECONCILE_BATCH);
      let cancelled = 0;
      for (const order of stalled) {
        if (await orderLifecycle.cancelStalledOrder(order)) {
          counted.reconciled("cancelledStalled");
          cancelled += 1;
        }
      }
      if (cancelled) logger.warn({ cancelled }, "orders left without a payment were given up");
      return due.length + unfinished.length + stalled.length;
    },

    /**
     * A notification (webhook) from the gateway: the answer to a payment the site may not have
     * heard, because the call's connection broke or the server restarted while waiting. Applied
     * like the call's own answer, so hearing it twice, or after the call's answer, changes nothing.
     * False when the notification is not a genuine one about a payment of ours.
     */
    async notify(body: string, headers: Headers): Promise<boolean> {
      const notification = await gateway.parseNotification(body, headers);
      if (!notification) return false;
      const { eventId, result } = notification;
      // Delivered again (the provider did not hear our answer): already applied, nothing to do.
      if (eventId && (await orders.notificationApplied(eventId))) return true;
      // A genuine event about nothing we act on (a provider sends every event type the endpoint
      // subscribes to): acknowledged, so it is not sent again.
      if (!notification.idempotencyKey) return true;
      const attempt = await orders.paymentByKey(notification.idempotencyKey);
      if (!attempt) return false;
      const order = await orders.byId(attempt.order_id);
      if (!order) return false;
      if (result.status === "authorised" || result.status === "declined" || result.status === "actionRequired")
        await apply(order, attempt, result);
      // Only once applied: a notification whose applying failed (a 500) is applied when it comes again.
      if (eventId) await orders.rememberNotification(eventId);
      return true;
    },

    /**
     * The buyer changes their basket or gives up while a payment waits on them (at the bank or
     * PayPal): that payment is abandoned and the order given back, so it can be placed again at
     * the new prices. Refused (false) while the gateway is still answering.
     */
    async abandon(order: Order): Promise<boolean> {
      if (order.status !== "pending_payment") return true;
      const attempt = await latestAttempt(order.id);
      if (attempt?.status === "attempted") return false;
      if (attempt?.status === "action") {
        if (
          !(await orders.updatePayment(attempt.id, ["action"], {
            status: "failed",
            failure: "cancelled",
            action: null,
          }))
        )
          return false;
        await voidQuietly(attempt.provider_reference);
      }
      await orderLifecycle.failOrder(order, "cancelled");
      return true;
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;

/** The return address with the attempt named, for a provider whose cancel address cannot name its payment. */
function cancelUrlOf(returnUrl: string, attempt: OrderPayment): string {
  const url = new URL(returnUrl, "http://return.invalid");
  if (attempt.idempotency_key) url.searchParams.set(CANCELLED_PARAM, attempt.idempotency_key);
  return `${url.pathname}${url.search}`;
}

/**
 * Runs `reconcile` every `intervalMs`; given the store's job leases, in one of the processes
 * sharing the store at a time (they would settle nothing twice anyway, but need not all race for
 * the same rows). The timer does not keep the process alive, and `stop` waits for a pass under
 * way, so the store is never closed beneath it.
 */
export function startReconciler(
  payments: Pick<PaymentService, "reconcile">,
  intervalMs: number,
  logger: Logger,
  leases?: JobLeases,
) {
  return startPeriodicJob({
    name: "payment-reconciler",
    intervalMs,
    leases,
    run: () => payments.reconcile(),
    onError: (error) => logger.warn({ err: error }, "reconciling payments failed"),
  });
}
