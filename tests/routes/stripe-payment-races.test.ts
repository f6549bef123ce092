import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import type { ScratchStore } from "~/db/scratch-store.server";
import { startServer } from "../support/app";
import { buyerBrowser } from "../support/browser";
import { throughToPayment } from "../support/checkout-journey";
import {
  completeThreeDSecure,
  FAKE_STRIPE_CARDS,
  hostedPageBackLink,
  startFakeStripe,
  type FakeStripe,
} from "../support/fake-stripe";
import { seedSmall } from "../support/seed";
import { createTestStore, DIALECTS } from "../support/stores";

// Issue 53, item 5: money on every path. Stripe's answers arrive in any order: the card call's own
// answer, the webhook, the buyer's return from 3-D Secure and the reconciler's question may each
// bring the same authorisation first. A sponsored-partner seat (American Express only) paid with a
// card Stripe reports as a Visa must never end sold and paid with its money cancelled: whichever
// path comes first, and with the others during or after it, the order is not paid, no ticket or
// email goes out, the PaymentIntent is cancelled and nothing is captured. Stripe's stand-in holds
// its answer back (`holdAnswer`) so a test can put the webhook before, during or after it.

type Buyer = ReturnType<typeof buyerBrowser>;

const WEBHOOK_SECRET = "whsec_money_paths";
const AMEX = FAKE_STRIPE_CARDS.amex;
const CARD = { method: "card", cardNumber: AMEX, cardOwner: "Jo Bloggs", expiry: "12/30", cvv: "1234" };
const RECONCILE_AFTER_SECONDS = 120;
const HOLD_MINUTES = 15;
/** The small catalogue's sponsored-partner seat (American Express cardholders only). */
const SPONSORED_SEAT = "B1";

describe.each(DIALECTS)(
  "a sponsored seat paid with a card its rule refuses, every path in every order, on %s",
  (dialect) => {
    let stripe: FakeStripe;
    let scratch: ScratchStore | undefined;
    let server: Awaited<ReturnType<typeof startServer>>;
    const clock = fixedClock(new Date());

    beforeAll(async () => {
      stripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
      if (dialect === "postgres") scratch = await createTestStore("postgres", 5);
      server = await startServer(
        {
          PAYMENT_PROVIDER: "stripe",
          STRIPE_MODE: "direct",
          STRIPE_SECRET_KEY: "sk_test_money_paths",
          STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
          STRIPE_API_URL: stripe.url,
          PAYMENT_RECONCILE_AFTER_SECONDS: String(RECONCILE_AFTER_SECONDS),
          HOLD_MINUTES: String(HOLD_MINUTES),
          ...(scratch ? { DATABASE_URL: scratch.location } : {}),
        },
        { seed: seedSmall, clock },
      );
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await stripe?.close();
      await scratch?.drop();
    });
    beforeEach(async () => {
      // The last test's hold on the one sponsored seat runs out, so this test's buyer can take it.
      clock.advance((HOLD_MINUTES + 1) * 60 * 1000);
      await server.services.inventory.sweepExpired();
      // Stripe's card tables call this American Express number a Visa (the checkout's own check of
      // the number lets it through as an Amex): only Stripe's answer tells.
      stripe.treatCard(AMEX, { brand: "visa" });
    });

    const db = () => server.services.store.db;
    const notifications = () => server.url("/payments/notifications");

    async function latestOrder() {
      return db()
        .selectFrom("orders")
        .select(["id", "number", "status"])
        .orderBy("created_at", "desc")
        .executeTakeFirstOrThrow();
    }
    const intentOf = (orderNumber: string) => {
      const [intent, ...others] = stripe.paymentIntents().filter((pi) => pi.metadata.order_number === orderNumber);
      expect(others).toEqual([]);
      return intent!;
    };
    /** The webhook Stripe sends when the PaymentIntent is authorised (held for capture). */
    function authorisedEvent(intentId: string) {
      const event = stripe
        .events("payment_intent.amount_capturable_updated")
        .find((candidate) => candidate.data.object.id === intentId);
      if (!event) throw new Error(`no authorisation event for ${intentId}`);
      return event;
    }
    async function sendAuthorisedWebhook(intentId: string) {
      const response = await stripe.sendWebhook(notifications(), authorisedEvent(intentId));
      expect(response.status).toBe(204);
    }
    /** Waits (briefly) until the paths under way have settled the order's payment one way or the other. */
    async function settled(orderId: string) {
      for (let tries = 0; tries < 200; tries += 1) {
        const attempts = await db()
          .selectFrom("order_payments")
          .select("status")
          .where("order_id", "=", orderId)
          .execute();
        if (attempts.length > 0 && attempts.every((attempt) => !["attempted", "action"].includes(attempt.status)))
          return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    /** Not sold, not paid, nothing sent, nothing captured: the money and the seats as if Pay had never worked. */
    async function expectNothingTaken(order: { id: string; number: string }) {
      await settled(order.id);
      const [claims, tickets, emails] = await Promise.all([
        db().selectFrom("seat_claims").select("status").where("order_id", "=", order.id).execute(),
        db().selectFrom("order_tickets").select("id").where("order_id", "=", order.id).execute(),
        db().selectFrom("email_outbox").select("id").where("order_id", "=", order.id).execute(),
      ]);
      expect((await latestOrder()).status).toBe("failed");
      expect(claims.filter((claim) => claim.status === "sold")).toEqual([]);
      expect(tickets).toEqual([]);
      expect(emails).toEqual([]);
      expect(intentOf(order.number)).toMatchObject({ status: "canceled", amount_received: 0, amount_capturable: 0 });
      expect(
        await db()
          .selectFrom("order_payments")
          .select(["status", "failure"])
          .where("order_id", "=", order.id)
          .execute(),
      ).toEqual([{ status: "voided", failure: "brandNotAccepted" }]);
    }

    /** The buyer's failed page says why, naming the card the seats take. */
    async function expectBrandMessage(buyer: Buyer) {
      const page = await buyer.get("/checkout/failed");
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("This order can only be paid with American Express, so nothing was taken");
    }

    async function atPayment() {
      const buyer = buyerBrowser(server.url);
      await throughToPayment(buyer, server.services.store, [SPONSORED_SEAT]);
      return buyer;
    }

    describe("the card path's answer, late", () => {
      /** Pay pressed; Stripe has made and authorised the PaymentIntent, but its answer is held back. */
      async function payingWithAnswerHeld() {
        const buyer = await atPayment();
        const gate = stripe.holdAnswer("POST", /^\/v1\/payment_intents$/);
        const pressed = buyer.pay(CARD);
        await gate.reached;
        const order = await latestOrder();
        return { buyer, gate, pressed, order, intent: intentOf(order.number) };
      }

      it("the webhook before the answer", async () => {
        const { buyer, gate, pressed, order, intent } = await payingWithAnswerHeld();
        expect(intent.status).toBe("requires_capture");
        await sendAuthorisedWebhook(intent.id);
        gate.release();
        await pressed;
        await expectNothingTaken(order);
        await expectBrandMessage(buyer);
      });

      it("the webhook while the answer arrives", async () => {
        const { buyer, gate, pressed, order, intent } = await payingWithAnswerHeld();
        gate.release();
        await Promise.all([sendAuthorisedWebhook(intent.id), pressed]);
        await expectNothingTaken(order);
        await expectBrandMessage(buyer);
      });

      it("the webhook after the answer", async () => {
        const { buyer, gate, pressed, order, intent } = await payingWithAnswerHeld();
        gate.release();
        expect((await pressed).headers.get("Location")).toBe("/checkout/failed");
        await sendAuthorisedWebhook(intent.id);
        await expectNothingTaken(order);
        await expectBrandMessage(buyer);
      });
    });

    describe("the return from 3-D Secure", () => {
      /** Pay pressed, the bank's challenge passed at Stripe: the buyer is on their way back. */
      async function backFromTheBank() {
        stripe.treatCard(AMEX, { brand: "visa", threeDSecure: true });
        const buyer = await atPayment();
        expect((await buyer.pay(CARD)).headers.get("Location")).toBe("/checkout/verify");
        const verify = await (await buyer.get("/checkout/verify")).text();
        const challenge = /<a[^>]*href="([^"]+\/3ds\/[^"]+)"/.exec(verify)![1]!.replaceAll("&amp;", "&");
        const back = new URL(await completeThreeDSecure(challenge, true));
        const order = await latestOrder();
        const intent = intentOf(order.number);
        expect(intent.status).toBe("requires_capture");
        return { buyer, order, intent, returnPath: `${back.pathname}${back.search}` };
      }

      it("the return first, the webhook after", async () => {
        const { buyer, order, intent, returnPath } = await backFromTheBank();
        expect((await buyer.get(returnPath)).headers.get("Location")).toBe("/checkout/failed");
        await sendAuthorisedWebhook(intent.id);
        await expectNothingTaken(order);
        await expectBrandMessage(buyer);
      });

      it("the webhook first, the return after", async () => {
        const { buyer, order, intent, returnPath } = await backFromTheBank();
        await sendAuthorisedWebhook(intent.id);
        expect((await buyer.get(returnPath)).headers.get("Location")).toBe("/checkout/failed");
        await expectNothingTaken(order);
        await expectBrandMessage(buyer);
      });

      it("the webhook while Stripe's answer to the return is on its way", async () => {
        const { buyer, order, intent, returnPath } = await backFromTheBank();
        const gate = stripe.holdAnswer("GET", new RegExp(`^/v1/payment_intents/${intent.id}$`));
        const returning = buyer.get(returnPath);
        await gate.reached;
        await sendAuthorisedWebhook(intent.id);
        gate.release();
        await returning;
        await expectNothingTaken(order);
        await expectBrandMessage(buyer);
      });
    });

    describe("the reconciler, for a buyer who never came back from the bank", () => {
      async function passedAndGone() {
        stripe.treatCard(AMEX, { brand: "visa", threeDSecure: true });
        const buyer = await atPayment();
        await buyer.pay(CARD);
        const verify = await (await buyer.get("/checkout/verify")).text();
        await completeThreeDSecure(
          /<a[^>]*href="([^"]+\/3ds\/[^"]+)"/.exec(verify)![1]!.replaceAll("&amp;", "&"),
          true,
        );
        const order = await latestOrder();
        clock.advance((RECONCILE_AFTER_SECONDS + 1) * 1000);
        return { buyer, order, intent: intentOf(order.number) };
      }
      const reconcile = () => server.services.payments.reconcile();

      it("the reconciler first, the webhook after", async () => {
        const { buyer, order, intent } = await passedAndGone();
        await reconcile();
        await sendAuthorisedWebhook(intent.id);
        await expectNothingTaken(order);
        await expectBrandMessage(buyer);
      });

      it("the webhook first, the reconciler after", async () => {
        const { buyer, order, intent } = await passedAndGone();
        await sendAuthorisedWebhook(intent.id);
        await reconcile();
        await expectNothingTaken(order);
        await expectBrandMessage(buyer);
      });

      it("the webhook while Stripe's answer to the reconciler is on its way", async () => {
        const { buyer, order, intent } = await passedAndGone();
        const gate = stripe.holdAnswer("GET", new RegExp(`^/v1/payment_intents/${intent.id}$`));
        const reconciling = reconcile();
        await gate.reached;
        await sendAuthorisedWebhook(intent.id);
        gate.release();
        await reconciling;
        await expectNothingTaken(order);
        await expectBrandMessage(buyer);
      });
    });

    it("an ordinary seat paid with a card whose brand Stripe does not know: told so, not told to use American Express", async () => {
      stripe.treatCard(FAKE_STRIPE_CARDS.visa, { brand: "unknown" });
      try {
        const buyer = buyerBrowser(server.url);
        await throughToPayment(buyer, server.services.store, ["A3"]);
        const pressed = await buyer.pay({ ...CARD, cardNumber: FAKE_STRIPE_CARDS.visa, cvv: "123" });
        expect(pressed.headers.get("Location")).toBe("/checkout/failed");
        const order = await latestOrder();
        const page = await (await buyer.get("/checkout/failed")).text();
        expect(page).toContain("We couldn&#x27;t confirm which kind of card this is, so nothing was taken");
        expect(page).not.toContain("American Express");
        expect(intentOf(order.number)).toMatchObject({ status: "canceled", amount_received: 0 });
        expect(order.status).toBe("failed");
      } finally {
        stripe.treatCard(FAKE_STRIPE_CARDS.visa, {});
      }
    });
  },
);

describe("Stripe Checkout's Back link", () => {
  let stripe: FakeStripe;
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    server = await startServer(
      {
        PAYMENT_PROVIDER: "stripe",
        STRIPE_MODE: "hosted",
        STRIPE_SECRET_KEY: "sk_test_money_paths",
        STRIPE_API_URL: stripe.url,
      },
      { seed: seedSmall, clock: fixedClock(new Date()) },
    );
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  it("names the order without the success-only placeholder, and brings the buyer back to the payment page at once", async () => {
    const buyer = buyerBrowser(server.url);
    await throughToPayment(buyer, server.services.store, ["A4"]);
    expect((await buyer.pay({ method: "card" })).headers.get("Location")).toBe("/checkout/verify");
    const verify = await (await buyer.get("/checkout/verify")).text();
    const hostedPage = /<a[^>]*href="([^"]+\/pay\/cs_[^"]+)"/.exec(verify)![1]!.replaceAll("&amp;", "&");
    const [session] = stripe.sessions();
    expect(session!.cancel_url).not.toContain("{CHECKOUT_SESSION_ID}");
    const attempt = await server.services.store.db
      .selectFrom("order_payments")
      .select("idempotency_key")
      .executeTakeFirstOrThrow();
    expect(new URL(session!.cancel_url!).searchParams.get("cancelled")).toBe(attempt.idempotency_key);

    const back = new URL(await hostedPageBackLink(hostedPage));
    const returned = await buyer.get(`${back.pathname}${back.search}`);
    expect(returned.headers.get("Location")).toBe("/checkout/payment");
    const payment = await buyer.get("/checkout/payment");
    expect(payment.status).toBe(200);
    expect(await payment.text()).not.toContain("Processing your payment");
    // The session can no longer be paid behind the buyer's back.
    expect(stripe.sessions()[0]!.status).toBe("expired");
    // And the buyer can pay again from there.
    expect((await buyer.pay({ method: "card" })).headers.get("Location")).toBe("/checkout/verify");
  });
});
