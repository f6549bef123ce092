import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { startServer } from "../support/app";
import { buyerBrowser, payForm } from "../support/browser";
import { throughToPayment } from "../support/checkout-journey";
import { completeThreeDSecure, startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { seedSmall } from "../support/seed";

// The payment service's money cases with Stripe taking the cards (direct mode), against the local
// stand-in of Stripe's API: what tests/routes/checkout.test.ts and tests/store/payment-*.test.ts
// prove with the sandbox. Pay twice, a timeout and a retry, 3-D Secure abandoned, the hold expiring
// during 3-D Secure, a webhook settling a payment whose buyer never came back, and a refund. Time is the
// server's clock, moved by the test. (A restart during 3-D Secure: tests/routes/payment-restart.test.ts.)

type Buyer = ReturnType<typeof buyerBrowser>;

const CARD = { method: "card", cardNumber: "4242 4242 4242 4242", cardOwner: "Jo Bloggs", expiry: "12/30", cvv: "123" };
const THREE_D_SECURE = { ...CARD, cardNumber: "4000 0000 0000 3220" };
const WEBHOOK_SECRET = "whsec_money_cases";
const PAYMENT_TIMEOUT_SECONDS = 1;
const RECONCILE_AFTER_SECONDS = 120;
const HOLD_MINUTES = 15;

describe("money cases with Stripe taking the cards", () => {
  let stripe: FakeStripe;
  let server: Awaited<ReturnType<typeof startServer>>;
  const clock = fixedClock(new Date());

  beforeAll(async () => {
    stripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
    server = await startServer(
      {
        PAYMENT_PROVIDER: "stripe",
        STRIPE_MODE: "direct",
        STRIPE_SECRET_KEY: "sk_test_money_cases",
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
        PAYMENT_TIMEOUT_SECONDS: String(PAYMENT_TIMEOUT_SECONDS),
        PAYMENT_RECONCILE_AFTER_SECONDS: String(RECONCILE_AFTER_SECONDS),
        HOLD_MINUTES: String(HOLD_MINUTES),
      },
      { seed: seedSmall, clock },
    );
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });
  // Each test's order is the newest by the clock, which otherwise stands still.
  beforeEach(() => clock.advance(1000));

  const db = () => server.services.store.db;
  const toPayment = (buyer: Buyer, seat: string) => throughToPayment(buyer, server.services.store, [seat]);
  /** The newest order and its seat claims' states. */
  async function latestOrder() {
    const order = await db()
      .selectFrom("orders")
      .select(["id", "number", "status", "to_pay"])
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    const claims = await db().selectFrom("seat_claims").select("status").where("order_id", "=", order.id).execute();
    return { ...order, sold: claims.filter((claim) => claim.status === "sold").length };
  }
  const intentsOf = (orderNumber: string) =>
    stripe.paymentIntents().filter((intent) => intent.metadata.order_number === orderNumber);
  /** The 3-D Secure step's link on the verify page (a GET to Stripe's page). */
  async function challengeLink(buyer: Buyer) {
    const html = await (await buyer.get("/checkout/verify")).text();
    return /<a[^>]*href="([^"]+\/3ds\/[^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&");
  }

  it("pressing Pay twice at once makes one PaymentIntent, captured once", async () => {
    const buyer = buyerBrowser(server.url);
    await toPayment(buyer, "A3");
    const created = stripe.counts.paymentIntents;
    const shown = payForm(await (await buyer.get("/checkout/payment")).text());
    const press = () => buyer.post("/checkout/payment", { ...shown.fields, ...CARD });
    const [first, second] = await Promise.all([press(), press()]);
    expect([first.status, second.status]).toEqual([302, 302]);
    const order = await latestOrder();
    expect(order).toMatchObject({ status: "paid", sold: 1 });
    expect(stripe.counts.paymentIntents).toBe(created + 1);
    expect(intentsOf(order.number)).toEqual([
      expect.objectContaining({ status: "succeeded", amount_received: order.to_pay }),
    ]);
  });

  it("a refund goes back through Stripe once: the PaymentIntent refunded, the seat on sale again, a rerun a no-op", async () => {
    const buyer = buyerBrowser(server.url);
    await toPayment(buyer, "A8");
    expect((await buyer.pay(CARD)).headers.get("Location")).toBe("/checkout/confirmation");
    const order = await latestOrder();
    const refundsBefore = stripe.counts.refunds;
    const first = await server.services.refunds.refund(order.number);
    expect(first).toMatchObject({ ok: true, outcome: "refunded" });
    expect(stripe.counts.refunds).toBe(refundsBefore + 1);
    expect(intentsOf(order.number)).toEqual([
      expect.objectContaining({ status: "succeeded", amount_received: order.to_pay, amount_refunded: order.to_pay }),
    ]);
    expect((await latestOrder()).sold).toBe(0);
    expect(await server.services.refunds.refund(order.number)).toMatchObject({ ok: true, outcome: "alreadyRefunded" });
    expect(stripe.counts.refunds).toBe(refundsBefore + 1);
  });

  it("no answer in time is a timeout; another card then pays, and the late PaymentIntent is never charged", async () => {
    const buyer = buyerBrowser(server.url);
    await toPayment(buyer, "A4");
    // The first request reaches no one in time, as a connection lost on its way.
    stripe.hang("4242424242424242", 1);
    const started = await buyer.pay(CARD);
    expect(started.headers.get("Location")).toBe("/checkout/verify");
    clock.advance((PAYMENT_TIMEOUT_SECONDS + 1) * 1000);
    const timedOut = await (await buyer.get("/checkout/verify")).text();
    expect(timedOut).toContain("Your payment has timed out.");
    const retried = await buyer.pay({ ...CARD, cardNumber: "5555 5555 5555 4444" });
    expect(retried.headers.get("Location")).toBe("/checkout/confirmation");
    const order = await latestOrder();
    expect(order).toMatchObject({ status: "paid", sold: 1 });
    expect(intentsOf(order.number)).toEqual([
      expect.objectContaining({ status: "succeeded", amount_received: order.to_pay, brand: "mastercard" }),
    ]);
    // The reconciler asks Stripe about the timed-out attempt: nothing was made, nothing is charged.
    clock.advance(RECONCILE_AFTER_SECONDS * 1000);
    await server.services.payments.reconcile();
    expect(intentsOf(order.number).filter((intent) => intent.amount_received > 0)).toHaveLength(1);
    expect(
      await db()
        .selectFrom("order_payments")
        .select("status")
        .where("order_id", "=", order.id)
        .orderBy("created_at")
        .execute(),
    ).toEqual([{ status: "timedOut" }, { status: "succeeded" }]);
  });

  it("3-D Secure abandoned at the bank: after the deadline the order fails and the PaymentIntent is cancelled", async () => {
    const buyer = buyerBrowser(server.url);
    await toPayment(buyer, "A5");
    expect((await buyer.pay(THREE_D_SECURE)).headers.get("Location")).toBe("/checkout/verify");
    await challengeLink(buyer);
    const order = await latestOrder();
    expect(intentsOf(order.number)).toEqual([expect.objectContaining({ status: "requires_action" })]);
    clock.advance((RECONCILE_AFTER_SECONDS + 1) * 1000);
    await server.services.payments.reconcile();
    expect(await latestOrder()).toMatchObject({ id: order.id, status: "failed", sold: 0 });
    expect(intentsOf(order.number)).toEqual([expect.objectContaining({ status: "canceled", amount_received: 0 })]);
  });

  it("the hold expires while the buyer is at the bank: they pass 3-D Secure, and are told; nothing is charged", async () => {
    const buyer = buyerBrowser(server.url);
    await toPayment(buyer, "A6");
    await buyer.pay(THREE_D_SECURE);
    const link = await challengeLink(buyer);
    const order = await latestOrder();
    clock.advance((HOLD_MINUTES + 1) * 60 * 1000);
    await server.services.inventory.sweepExpired();
    // Stripe's page sends the buyer back to our return address, naming the PaymentIntent.
    const back = new URL(await completeThreeDSecure(link, true));
    expect(back.pathname).toBe("/checkout/verify");
    expect(back.searchParams.get("payment_intent")).toMatch(/^pi_/);
    const settled = await buyer.get(`${back.pathname}${back.search}`);
    expect(settled.headers.get("Location")).toBe("/checkout/failed");
    const failed = await (await buyer.get("/checkout/failed")).text();
    expect(failed).toContain("Your reservation expired before the payment was complete");
    expect(await latestOrder()).toMatchObject({ id: order.id, status: "failed", sold: 0 });
    expect(intentsOf(order.number)).toEqual([expect.objectContaining({ status: "canceled", amount_received: 0 })]);
  });

  it("a buyer who passed 3-D Secure and never came back is paid by Stripe's webhook; a forged one changes nothing", async () => {
    const buyer = buyerBrowser(server.url);
    await toPayment(buyer, "A7");
    await buyer.pay(THREE_D_SECURE);
    await completeThreeDSecure(await challengeLink(buyer), true);
    const order = await latestOrder();
    expect(order.status).toBe("pending_payment");
    const [intent] = intentsOf(order.number);
    const event = stripe.event("payment_intent.amount_capturable_updated", stripe.object(intent!.id));
    const payload = JSON.stringify(event);
    const forged = await fetch(server.url("/payments/notifications"), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Stripe-Signature": stripe.webhookHeader(payload, { secret: "whsec_wrong" }),
      },
      body: payload,
    });
    expect(forged.status).toBe(400);
    expect((await latestOrder()).status).toBe("pending_payment");
    const genuine = await stripe.sendWebhook(server.url("/payments/notifications"), event);
    expect(genuine.status).toBe(204);
    expect(await latestOrder()).toMatchObject({ id: order.id, status: "paid", sold: 1 });
    expect(intentsOf(order.number)).toEqual([
      expect.objectContaining({ status: "succeeded", amount_received: order.to_pay }),
    ]);
    // Delivered again: acknowledged, and nothing is captured twice.
    expect((await stripe.sendWebhook(server.url("/payments/notifications"), event)).status).toBe(204);
    expect(stripe.counts.captures).toBe(
      stripe.paymentIntents().filter((candidate) => candidate.amount_received > 0).length,
    );
  });
});
