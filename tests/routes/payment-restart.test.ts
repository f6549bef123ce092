import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqlite, type DialectName, type Store } from "~/db/connection.server";
import { createScratchStore, type ScratchStore } from "~/db/scratch-store.server";
import { testServices } from "../support/app";
import { startServerProcess } from "../support/server-process";
import { buyerBrowser } from "../support/browser";
import { throughToPayment } from "../support/checkout-journey";
import { seedSmall } from "../support/seed";
import { DIALECTS, POSTGRES_URL } from "../support/stores";
import { completeThreeDSecure, startFakeStripe, type FakeStripe } from "../support/fake-stripe";

// A restart during a 3-D Secure challenge, with real server processes (the production build, so
// `npm run build` first): the buyer passes the challenge at the sandbox's bank page, the server is
// killed (kill -9) before they are sent back, and the buyer never returns. The server started
// again, with a reconcile deadline of seconds, must find the sandbox's payment in the store and
// settle it: the order paid, the seats sold, the money captured once, the tickets issued. The same
// with Stripe taking the cards, whose payment the restarted server finds by asking Stripe's API
// (its local stand-in) for the PaymentIntent.

const THREE_D_SECURE = {
  method: "card",
  cardNumber: "4000 0000 0000 3220",
  cardOwner: "Jo Bloggs",
  expiry: "12/30",
  cvv: "123",
};

describe.each(DIALECTS)("a server killed during a 3-D Secure challenge (%s)", (dialect: DialectName) => {
  const dataDir = mkdtempSync(join(tmpdir(), "box-office-restart-"));
  let scratch: ScratchStore | undefined;
  let env: Record<string, string>;
  let store: Store;
  const running: Awaited<ReturnType<typeof startServerProcess>>[] = [];
  const startServer = async (extra: Record<string, string> = {}) => {
    const server = await startServerProcess({ ...env, ...extra });
    running.push(server);
    return server;
  };

  beforeAll(async () => {
    stripe = await startFakeStripe();
    // PostgreSQL: a throw-away database on the local server, dropped afterwards.
    if (dialect === "postgres") scratch = await createScratchStore("postgres", POSTGRES_URL, 2);
    env = {
      DATA_DIR: dataDir,
      DEMO_CATALOGUE: "off",
      ...(scratch ? { DATABASE_URL: scratch.location } : {}),
    };
    // The small catalogue, loaded as a test server would, before either process starts.
    const services = await testServices(env);
    await seedSmall(services);
    await services.close();
    store = scratch ?? openSqlite(join(dataDir, "box-office.sqlite"));
  }, 60_000);

  /** A server started again with a reconcile deadline of seconds; resolves once it has settled the order. */
  async function restartAndWaitForPaid(orderId: string, extra: Record<string, string> = {}) {
    const server = await startServer({
      ...extra,
      PAYMENT_TIMEOUT_SECONDS: "1",
      PAYMENT_RECONCILE_AFTER_SECONDS: "2",
      PAYMENT_RECONCILE_INTERVAL_SECONDS: "1",
    });
    const status = async () =>
      (await store.db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirstOrThrow()).status;
    await expect.poll(status, { timeout: 20_000, interval: 250 }).not.toBe("pending_payment");
    expect(await status()).toBe("paid");
    return server;
  }

  let stripe: FakeStripe | undefined;
  const stripeEnv = () => ({
    PAYMENT_PROVIDER: "stripe",
    STRIPE_MODE: "direct",
    STRIPE_SECRET_KEY: "sk_test_restart",
    STRIPE_API_URL: stripe!.url,
  });

  afterAll(async () => {
    for (const server of running) await server.kill();
    await stripe?.close();
    if (scratch) await scratch.drop();
    else await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("the restarted server settles the payment the buyer authorised and never came back for", async () => {
    const first = await startServer();
    const buyer = buyerBrowser(first.url);
    await throughToPayment(buyer, store, ["B5", "B6"]);
    const paid = await buyer.pay(THREE_D_SECURE);
    expect(paid.headers.get("Location")).toBe("/checkout/verify");
    const deviceStep = await (await buyer.get("/checkout/verify")).text();
    const deviceUrl = /action="(\/sandbox\/device-data\/[^"]+)"/.exec(deviceStep)![1]!;
    const back = await buyer.post(deviceUrl, {});
    expect(back.headers.get("Location")).toMatch(/^\/checkout\/verify\?reference=/);
    const challengeStep = await buyer.get(back.headers.get("Location")!);
    expect(challengeStep.headers.get("Location")).toBe("/checkout/verify");
    const challengeUrl = /action="(\/sandbox\/challenge\/[^"]+)"/.exec(
      await (await buyer.get("/checkout/verify")).text(),
    )![1]!;
    // The buyer passes the challenge; the bank sends them back, and they never go.
    const passed = await buyer.post(challengeUrl, { intent: "pass" });
    expect(passed.status).toBe(303);

    const order = await store.db
      .selectFrom("orders")
      .select(["id", "status", "to_pay"])
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    expect(order.status).toBe("pending_payment");
    const sandboxPayment = () =>
      store.db
        .selectFrom("sandbox_payments")
        .select(["state", "captured", "voided"])
        .where("idempotency_key", "=", `${order.id}:1`)
        .executeTakeFirstOrThrow();

    await first.kill();

    const second = await restartAndWaitForPaid(order.id);
    // The order is paid first and the money captured just after (finishWon): wait for the capture.
    await expect
      .poll(sandboxPayment, { timeout: 10_000 })
      .toMatchObject({ state: "authorised", captured: order.to_pay, voided: 0 });
    const sold = await store.db.selectFrom("seat_claims").select("status").where("order_id", "=", order.id).execute();
    expect(sold).toEqual([{ status: "sold" }, { status: "sold" }]);
    await expect
      .poll(
        async () =>
          (await store.db.selectFrom("order_tickets").select("id").where("order_id", "=", order.id).execute()).length,
        { timeout: 10_000 },
      )
      .toBe(2);
    expect(
      await store.db.selectFrom("order_payments").select("status").where("order_id", "=", order.id).execute(),
    ).toEqual([{ status: "succeeded" }]);
    expect(await second.stop()).toBe(0);
  }, 90_000);

  it("with Stripe: the restarted server asks Stripe, captures the PaymentIntent once and pays the order", async () => {
    const first = await startServer(stripeEnv());
    const buyer = buyerBrowser(first.url);
    await throughToPayment(buyer, store, ["B7", "B8"]);
    expect((await buyer.pay(THREE_D_SECURE)).headers.get("Location")).toBe("/checkout/verify");
    const verify = await (await buyer.get("/checkout/verify")).text();
    const bank = /<a[^>]*href="([^"]+\/3ds\/[^"]+)"/.exec(verify)![1]!.replaceAll("&amp;", "&");
    // The buyer passes 3-D Secure at Stripe's page, and never comes back.
    await completeThreeDSecure(bank, true);
    const order = await store.db
      .selectFrom("orders")
      .select(["id", "number", "status", "to_pay"])
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    expect(order.status).toBe("pending_payment");
    const intent = () =>
      stripe!.paymentIntents().filter((candidate) => candidate.metadata.order_number === order.number);
    expect(intent()).toEqual([expect.objectContaining({ status: "requires_capture" })]);

    await first.kill();
    const second = await restartAndWaitForPaid(order.id, stripeEnv());
    await expect
      .poll(intent, { timeout: 10_000 })
      .toEqual([expect.objectContaining({ status: "succeeded", amount_received: order.to_pay })]);
    expect(stripe!.counts.captures).toBe(1);
    const sold = await store.db.selectFrom("seat_claims").select("status").where("order_id", "=", order.id).execute();
    expect(sold).toEqual([{ status: "sold" }, { status: "sold" }]);
    expect(await second.stop()).toBe(0);
  }, 90_000);
});
