import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { openSqlite, type Store } from "~/db/connection.server";
import { migrateToLatest } from "~/db/migrate.server";
import { combineGateways } from "~/payments/combined.server";
import { createSandboxGateway, SANDBOX_CARDS, signSandboxNotification } from "~/payments/sandbox.server";

// Cards from one provider and PayPal from another behind one gateway: each later call about a
// payment reaches the provider that took it. Two sandboxes stand in for the two providers, each
// with its own references and notification secret (they share one table, as sandboxes do).

let store: Store;
beforeAll(async () => {
  store = openSqlite(":memory:");
  await migrateToLatest(store.db);
});
afterAll(() => store.close());

function build() {
  const clock = fixedClock("2026-06-15T12:00:00Z");
  const cards = createSandboxGateway({ store, clock, idPrefix: "card", notificationSecret: "cards-secret" });
  const paypal = createSandboxGateway({ store, clock, idPrefix: "pp", notificationSecret: "paypal-secret" });
  return { cards, paypal, gateway: combineGateways(cards, paypal) };
}

let keys = 0;
const request = () => {
  keys += 1;
  return {
    idempotencyKey: `combined-${keys}:1`,
    amount: 2500,
    currency: "GBP",
    description: "Test",
    returnUrl: "/checkout/verify",
  };
};

describe("cards from one provider, PayPal from another", () => {
  it("offers the card provider's card entry and wallets, and PayPal", () => {
    const { gateway } = build();
    expect(gateway.offers).toEqual({ cardEntry: "onSite", paypal: true, wallets: true });
    expect(gateway.name).toBe("sandbox+sandbox");
  });

  it("a PayPal payment's reference is marked, and the buyer's return, capture and refund reach PayPal", async () => {
    const { gateway, paypal } = build();
    const started = await gateway.startPayPal({ ...request(), cancelUrl: "/checkout/payment" });
    expect(started.status).toBe("actionRequired");
    const reference = "reference" in started ? started.reference! : "";
    expect(reference).toMatch(/^paypal:pp_/);
    const raw = reference.slice("paypal:".length);
    await paypal.decidePayPal(raw, true);
    // The buyer's return names the payment in PayPal's words; the combined gateway marks it again.
    expect(gateway.returnedReference(new URLSearchParams({ reference: raw }))).toBe(reference);
    expect(await gateway.continue(reference, {})).toMatchObject({ status: "authorised", reference });
    expect(await gateway.capture(reference, 2500)).toEqual({ ok: true });
    expect(await gateway.refund(reference, 1000, `${reference}:refund`)).toEqual({ ok: true });
    const [record] = (await paypal.snapshot()).filter((payment) => payment.reference === raw);
    expect(record).toMatchObject({ captured: 2500, refunded: 1000 });
  });

  it("a card payment goes to the card provider unmarked; status without a reference asks the card provider first", async () => {
    const { gateway, cards } = build();
    const paid = request();
    const result = await gateway.authorise({
      ...paid,
      card: { number: SANDBOX_CARDS.visa, expiryMonth: 4, expiryYear: 2029, cvv: "123", holderName: "Ada" },
    });
    expect(result).toMatchObject({ status: "authorised", reference: expect.stringMatching(/^card_/) });
    const reference = "reference" in result ? result.reference! : "";
    expect(gateway.returnedReference(new URLSearchParams({ reference }))).toBe(reference);
    expect(await gateway.status(paid.idempotencyKey, null)).toMatchObject({ status: "authorised", reference });
    expect(await gateway.void(reference)).toEqual({ ok: true });
    expect((await cards.snapshot()).find((payment) => payment.reference === reference)?.voided).toBe(true);
    // Neither provider knows a key nobody sent.
    expect(await gateway.status("never-sent:1", null)).toEqual({ status: "unknown" });
  });

  it("each provider checks its own notifications: PayPal's come back marked", async () => {
    const { gateway, paypal } = build();
    const sent = request();
    const started = await gateway.startPayPal({ ...sent, cancelUrl: "/checkout/payment" });
    const reference = "reference" in started ? started.reference! : "";
    await paypal.decidePayPal(reference.slice("paypal:".length), true);
    const body = JSON.stringify({ idempotencyKey: sent.idempotencyKey, reference: reference.slice("paypal:".length) });
    const signedBy = (secret: string) => new Headers({ "x-sandbox-signature": signSandboxNotification(body, secret) });
    expect(await gateway.parseNotification(body, signedBy("paypal-secret"))).toMatchObject({
      idempotencyKey: sent.idempotencyKey,
      result: { status: "authorised", reference },
    });
    expect(await gateway.parseNotification(body, signedBy("someone-else"))).toBeNull();
  });
});
