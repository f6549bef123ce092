import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqlite, type DialectName, type Store } from "~/db/connection.server";
import { createScratchStore, type ScratchStore } from "~/db/scratch-store.server";
import { testServices } from "../support/app";
import { startServerProcess } from "../support/server-process";
import { buyerBrowser } from "../support/browser";
import { seedSmall } from "../support/seed";
import { DIALECTS, POSTGRES_URL } from "../support/stores";

// A restart during a 3-D Secure challenge, with real server processes (the production build, so
// `npm run build` first): the buyer passes the challenge at the sandbox's bank page, the server is
// killed (kill -9) before they are sent back, and the buyer never returns. The server started
// again, with a reconcile deadline of seconds, must find the sandbox's payment in the store and
// settle it: the order paid, the seats sold, the money captured once, the tickets issued.

const CONTACTS = {
  firstName: "Jo",
  lastName: "Bloggs",
  email: "jo@example.com",
  confirmEmail: "jo@example.com",
  phone: "020 7946 0000",
  termsAccepted: "on",
};
const THREE_D_SECURE = {
  method: "card",
  cardNumber: "4000 0000 0000 3220",
  cardOwner: "Jo Bloggs",
  expiry: "12/30",
  cvv: "123",
};

type Buyer = ReturnType<typeof buyerBrowser>;

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

  afterAll(async () => {
    for (const server of running) await server.kill();
    if (scratch) await scratch.drop();
    else await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Holds two seats and answers every step before payment, as a browser without script does. */
  async function throughToPayment(buyer: Buyer) {
    const { db } = store;
    const performance = await db
      .selectFrom("performances")
      .select("id")
      .where("presale_from", "is", null)
      .orderBy("starts_at")
      .executeTakeFirstOrThrow();
    const seats = await db
      .selectFrom("seats")
      .select("id")
      .where("row_name", "=", "B")
      .where("label", "in", ["5", "6"])
      .execute();
    const delivery = await db
      .selectFrom("delivery_methods")
      .select("id")
      .where("kind", "=", "eTicket")
      .executeTakeFirstOrThrow();
    const tickets = `/shows/test-show/test-hall/tickets/${performance.id}`;
    const held = await buyer.post(tickets, [["intent", "select"], ...seats.map(({ id }) => ["seat", String(id)])] as [
      string,
      string,
    ][]);
    expect(held.status).toBe(302);
    expect((await buyer.post(tickets, { intent: "continue" })).headers.get("Location")).toBe("/checkout/extras");
    expect((await buyer.post("/checkout/extras", {})).headers.get("Location")).toBe("/checkout/ticket-protection");
    expect((await buyer.post("/checkout/ticket-protection", { protection: "no" })).headers.get("Location")).toBe(
      "/checkout/collection",
    );
    expect((await buyer.post("/checkout/collection", { deliveryMethod: delivery.id })).headers.get("Location")).toBe(
      "/checkout/contacts",
    );
    expect((await buyer.post("/checkout/contacts", CONTACTS)).headers.get("Location")).toBe("/checkout/payment");
  }

  it("the restarted server settles the payment the buyer authorised and never came back for", async () => {
    const first = await startServer();
    const buyer = buyerBrowser(first.url);
    await throughToPayment(buyer);
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

    const second = await startServer({
      PAYMENT_TIMEOUT_SECONDS: "1",
      PAYMENT_RECONCILE_AFTER_SECONDS: "2",
      PAYMENT_RECONCILE_INTERVAL_SECONDS: "1",
    });
    const status = async () =>
      (await store.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow())
        .status;
    await expect.poll(status, { timeout: 20_000, interval: 250 }).not.toBe("pending_payment");
    expect(await status()).toBe("paid");
    expect(await sandboxPayment()).toMatchObject({ state: "authorised", captured: order.to_pay, voided: 0 });
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
});
