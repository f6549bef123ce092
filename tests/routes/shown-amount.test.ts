import { join } from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock, fixedClock } from "~/clock";
import { openSqlite } from "~/db/connection.server";
import { migrateToLatest } from "~/db/migrate.server";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { buyerBrowser, payForm } from "../support/browser";
import { throughToPayment } from "../support/checkout-journey";
import { smallCatalogue } from "../support/catalogue";
import { insertVoucher } from "../support/money";
import { startServerProcess } from "../support/server-process";
import { createTestStore, DIALECTS } from "../support/stores";
import type { Store } from "~/db/connection.server";

// Issue 14, item 1: the amount charged is never more than the total the buyer last saw. Buyers on
// two server processes sharing one database each put the same gift voucher towards their seats,
// see "Pay £…" with the voucher taken off, and press Pay together. The voucher can cover only one
// of them: each buyer is charged exactly the amount their button showed, or is stopped with
// nothing charged and the new total in front of them.

type Buyer = ReturnType<typeof buyerBrowser>;

const BUYERS = 6;
const VOUCHER = { number: "GV7777000001", redemptionCode: "SHARED1", balance: 1000 };
const CARD = { method: "card", cardNumber: "4242 4242 4242 4242", cardOwner: "Jo Bloggs", expiry: "12/30", cvv: "123" };

describe.each(DIALECTS)("the amount charged is the amount shown, across two processes on %s", (dialect) => {
  let store: Store & { drop?: () => Promise<void> };
  let env: Record<string, string>;
  let servers: Awaited<ReturnType<typeof startServerProcess>>[] = [];

  beforeAll(async () => {
    if (dialect === "postgres") {
      const scratch = await createTestStore("postgres", 5);
      store = scratch;
      env = { DATABASE_URL: scratch.location };
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), "box-office-shared-"));
      store = openSqlite(join(dataDir, "box-office.sqlite"));
      await migrateToLatest(store.db);
      env = { DATA_DIR: dataDir };
    }
    // The processes read the real clock: the catalogue is imported now, so it is on sale now.
    await importCatalogue(store, smallCatalogue(), fixedClock(systemClock.now()));
    await insertVoucher(store, VOUCHER);
    servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    if (store.drop) await store.drop();
    else await store.close();
  });

  /** Holds one seat, answers every step before payment and puts the shared voucher towards it. */
  async function toPayment(buyer: Buyer, seatName: string, email: string) {
    await throughToPayment(buyer, store, [seatName], email);
    const voucher = await buyer.post("/checkout/payment", {
      intent: "voucher",
      voucherNumber: VOUCHER.number,
      voucherCode: VOUCHER.redemptionCode,
    });
    expect(voucher.headers.get("Location")).toBe("/checkout/payment");
    return payForm(await (await buyer.get("/checkout/payment")).text());
  }

  async function paymentsOf(email: string) {
    return store.db
      .selectFrom("order_payments")
      .innerJoin("orders", "orders.id", "order_payments.order_id")
      .select(["order_payments.amount", "order_payments.status", "orders.status as orderStatus", "orders.to_pay"])
      .where("orders.email", "=", email)
      .execute();
  }

  it("each buyer is charged exactly what their Pay button said, or stopped with nothing charged", async () => {
    const buyers = Array.from({ length: BUYERS }, (_, index) => ({
      browser: buyerBrowser(servers[index % 2]!.url),
      email: `buyer${index}@example.com`,
    }));
    const shown = await Promise.all(
      buyers.map(({ browser, email }, index) => toPayment(browser, `A${index + 3}`, email)),
    );
    // Everyone saw the voucher taken off: the same amount, less the voucher's £10.
    for (const { label } of shown) expect(label).toBe(shown[0]!.label);
    const shownAmount = Number(shown[0]!.fields.acceptedToPay);

    const responses = await Promise.all(
      buyers.map(({ browser }, index) => browser.post("/checkout/payment", { ...shown[index]!.fields, ...CARD })),
    );

    let paid = 0;
    for (const [index, response] of responses.entries()) {
      const payments = await paymentsOf(buyers[index]!.email);
      const charged = payments.filter((payment) => payment.status === "succeeded");
      if (response.status === 302 && response.headers.get("Location") === "/checkout/confirmation") {
        paid += 1;
        expect(charged.map((payment) => payment.amount)).toEqual([shownAmount]);
      } else {
        expect(response.status).toBe(409);
        const html = await response.text();
        expect(html).toContain("nothing has been charged");
        // The new total is in front of them, with the price-change alert.
        expect(html).toContain("Prices have changed");
        expect(payForm(html).fields.acceptedToPay).toBe(String(shownAmount + VOUCHER.balance));
        expect(payments.filter((payment) => payment.status !== "failed")).toEqual([]);
      }
    }
    expect(paid).toBe(1);
    const voucher = await store.db
      .selectFrom("vouchers")
      .select("balance")
      .where("number", "=", VOUCHER.number)
      .executeTakeFirstOrThrow();
    expect(voucher.balance).toBe(0);

    // A stopped buyer confirms the new prices and pays the new total: exactly that is charged.
    const stopped = responses.findIndex((response) => response.status === 409);
    const { browser, email } = buyers[stopped]!;
    const acknowledged = await browser.post("/checkout/hold", {
      intent: "acknowledge-prices",
      returnTo: "/checkout/payment",
    });
    expect(acknowledged.headers.get("Location")).toBe("/checkout/payment");
    const again = payForm(await (await browser.get("/checkout/payment")).text());
    const response = await browser.post("/checkout/payment", { ...again.fields, ...CARD });
    expect(response.headers.get("Location")).toBe("/checkout/confirmation");
    const charged = (await paymentsOf(email)).filter((payment) => payment.status === "succeeded");
    expect(charged.map((payment) => payment.amount)).toEqual([shownAmount + VOUCHER.balance]);
  }, 120_000);
});
