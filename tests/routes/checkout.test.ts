import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { startServer } from "../support/app";
import { buyerBrowser, payForm } from "../support/browser";
import { CONTACTS } from "../support/checkout-journey";
import { insertPromo, insertVoucher } from "../support/money";
import { seedSmall } from "../support/seed";
import { signSandboxNotification } from "~/payments/sandbox.server";

// The checkout steps as a browser without script goes through them: real requests to the built
// app, cookies kept, each redirect seen; payments through the built-in sandbox gateway; the
// confirmation email caught by a real SMTP server.

type Buyer = ReturnType<typeof buyerBrowser>;

const NOTIFICATION_SECRET = "sandbox-notifications-0123456789";
const CARD = { method: "card", cardNumber: "4242 4242 4242 4242", cardOwner: "Jo Bloggs", expiry: "12/30", cvv: "123" };

describe("checkout", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let smtp: SMTPServer;
  const mail: string[] = [];
  let performanceId: string;
  let seats: Map<string, number>;
  let delivery: Record<string, string>;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          mail.push(Buffer.concat(chunks).toString("utf8"));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const { port } = smtp.server.address() as AddressInfo;
    server = await startServer(
      {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        PAYMENT_TIMEOUT_SECONDS: "1",
        PAYMENT_NOTIFICATION_SECRET: NOTIFICATION_SECRET,
      },
      { seed: seedSmall },
    );
    const db = server.services.store.db;
    const performances = await db.selectFrom("performances").selectAll().orderBy("starts_at").execute();
    performanceId = performances.find((performance) => performance.presale_from === null)!.id;
    const rows = await db.selectFrom("seats").select(["id", "row_name", "label"]).execute();
    seats = new Map(rows.map((row) => [`${row.row_name}${row.label}`, row.id]));
    const methods = await db.selectFrom("delivery_methods").select(["id", "kind"]).execute();
    delivery = Object.fromEntries(methods.map((method) => [method.kind, method.id]));
  });
  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });
  beforeEach(async () => {
    await server.services.store.db.deleteFrom("seat_claims").where("status", "=", "held").execute();
  });

  const ticketsPage = () => `/shows/test-show/test-hall/tickets/${performanceId}`;

  /** Holds seats and continues to the checkout, as the tickets page's forms do. */
  async function reserve(buyer: Buyer, names: string[]) {
    const held = await buyer.post(ticketsPage(), [
      ["intent", "select"],
      ...names.map((name) => ["seat", String(seats.get(name))] as [string, string]),
    ]);
    expect(held.status).toBe(302);
    const continued = await buyer.post(ticketsPage(), { intent: "continue" });
    expect(continued.headers.get("Location")).toBe("/checkout/extras");
  }

  /** Answers every step before payment. */
  async function throughToPayment(buyer: Buyer, names: string[], method: "eTicket" | "post" = "eTicket") {
    await reserve(buyer, names);
    expect((await buyer.post("/checkout/extras", { [`qty.${await extraId()}`]: "1" })).headers.get("Location")).toBe(
      "/checkout/ticket-protection",
    );
    expect((await buyer.post("/checkout/ticket-protection", { protection: "yes" })).headers.get("Location")).toBe(
      "/checkout/collection",
    );
    expect(
      (await buyer.post("/checkout/collection", { deliveryMethod: delivery[method]! })).headers.get("Location"),
    ).toBe("/checkout/contacts");
    const address =
      method === "post"
        ? { addressLine1: "1 High Street", city: "London", postcode: "sw1a1aa" }
        : ({} as Record<string, string>);
    const contacts = await buyer.post("/checkout/contacts", { ...CONTACTS, ...address });
    expect(contacts.headers.get("Location")).toBe("/checkout/payment");
  }

  async function extraId() {
    return (await server.services.store.db.selectFrom("extras").select("id").executeTakeFirstOrThrow()).id;
  }

  const pay = (buyer: Buyer, fields: Record<string, string>) => buyer.pay(fields);

  async function follow(buyer: Buyer, response: Response): Promise<{ url: string; html: string }> {
    let current = response;
    let url = "";
    for (let hops = 0; hops < 10 && current.status >= 300 && current.status < 400; hops += 1) {
      url =
        new URL(current.headers.get("Location")!, "http://x").pathname +
        new URL(current.headers.get("Location")!, "http://x").search;
      current = await buyer.get(url);
    }
    return { url, html: await current.text() };
  }

  it("sends a buyer to the first step not yet done, and skips nothing that applies", async () => {
    const buyer = buyerBrowser(server.url);
    expect((await buyer.get("/checkout/payment")).status).toBe(404);
    await reserve(buyer, ["B3"]);
    const early = await buyer.get("/checkout/payment");
    expect(early.status).toBe(302);
    expect(early.headers.get("Location")).toBe("/checkout/extras");
    const extras = await buyer.get("/checkout/extras");
    const html = await extras.text();
    expect(html).toContain("Programme");
    expect(html).toContain("fetchUpsells.success");
  });

  it("ticket protection must be answered, with the spec's message and an Error: title", async () => {
    const buyer = buyerBrowser(server.url);
    await reserve(buyer, ["B3"]);
    await buyer.post("/checkout/extras", {});
    const refused = await buyer.post("/checkout/ticket-protection", {});
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Please select an answer");
    expect(html).toMatch(/<title>Error: /);
    expect(html).toContain("Yes, please protect my tickets");
    expect(html).toContain("No, I accept that my tickets are non-refundable");
  });

  it("a full purchase by card: itemised prices, confirmation, e-tickets with barcodes and an email", async () => {
    const buyer = buyerBrowser(server.url);
    await throughToPayment(buyer, ["B3", "B4"]);
    const payment = await (await buyer.get("/checkout/payment")).text();
    expect(payment).toContain("Ticket refund protection × 2");
    expect(payment).toContain("Transaction fee");
    const paid = await pay(buyer, CARD);
    expect(paid.headers.get("Location")).toBe("/checkout/confirmation");
    expect(buyer.cookies.has("basket")).toBe(false);
    const confirmation = await (await buyer.get("/checkout/confirmation")).text();
    const order = await server.services.store.db
      .selectFrom("orders")
      .selectAll()
      .where("status", "=", "paid")
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    expect(confirmation).toContain(order.number);
    expect(confirmation).toContain("Jo Bloggs");
    expect(confirmation).toContain("Stalls, row B, seat 3");
    const tickets = await buyer.get(`/e-tickets/${order.access_key}`);
    expect(tickets.status).toBe(200);
    expect((await tickets.text()).match(/<svg/g)?.length).toBe(2);
    expect((await buyer.get("/e-tickets/not-a-key")).status).toBe(404);
    for (let tries = 0; tries < 50 && !mail.some((message) => message.includes(order.number)); tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(mail.find((message) => message.includes(order.number))).toContain("jo@example.com");
    // The venue's own number to call, not the deployment's.
    expect(mail.find((message) => message.includes(order.number))).toContain("Call the box office on 020 7946 0999");
  });

  it("coming back to the confirmation without paying confirms nothing", async () => {
    const buyer = buyerBrowser(server.url);
    const html = await (await buyer.get("/checkout/confirmation")).text();
    expect(html).toContain("find a completed order for you");
    // Neither the document's title nor the heading claims an order is complete.
    expect(html).not.toContain("Order complete");
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toMatch(/^Order not found – /);
    expect(html).toMatch(/<h1>Order not found<\/h1>/);
  });

  it("pressing Pay twice at once charges once", async () => {
    const buyer = buyerBrowser(server.url);
    await throughToPayment(buyer, ["B5"]);
    const gateway = server.services.sandboxGateway!;
    const charges = gateway.charges;
    // One page, its Pay button pressed twice before the first answer comes.
    const shown = payForm(await (await buyer.get("/checkout/payment")).text());
    const press = () => buyer.post("/checkout/payment", { ...shown.fields, ...CARD });
    const [first, second] = await Promise.all([press(), press()]);
    expect([first.status, second.status]).toEqual([302, 302]);
    expect(gateway.charges).toBe(charges + 1);
    // The sandbox's dashboard says the same: one payment for the order, charged.
    const [payment] = (await gateway.snapshot()).slice(-1);
    const dashboard = await (await buyer.get("/sandbox/payments")).text();
    // Once as a row heading (the page's data carries it once more, for hydration).
    expect(dashboard.split(`<th scope="row">${payment!.description}</th>`).length - 1).toBe(1);
    expect(dashboard).toContain("Charged");
    // Another browser sees none of this buyer's payments, nor anyone else's.
    const stranger = await (await buyerBrowser(server.url).get("/sandbox/payments")).text();
    expect(stranger).not.toContain(payment!.description);
    expect(stranger).not.toContain("<tbody>");
    const orders = await server.services.store.db
      .selectFrom("orders")
      .innerJoin("order_payments", "order_payments.order_id", "orders.id")
      .select(["orders.id", "order_payments.status"])
      .where("orders.contacts", "like", "%Bloggs%")
      .where("orders.status", "=", "paid")
      .execute();
    const payments = orders.filter((row) => row.id === orders.at(-1)!.id);
    expect(payments).toHaveLength(1);
  });

  it("a declined card reaches the failed page, and another card then pays", async () => {
    const buyer = buyerBrowser(server.url);
    await throughToPayment(buyer, ["B6"]);
    const declined = await pay(buyer, { ...CARD, cardNumber: "4000 0000 0000 0002" });
    expect(declined.headers.get("Location")).toBe("/checkout/failed");
    const failed = await (await buyer.get("/checkout/failed")).text();
    expect(failed).toContain("Your payment was unsuccessful");
    expect(failed).toContain("Your card has not been charged");
    const retry = await (await buyer.get("/checkout/payment")).text();
    expect(retry).toContain("Your last payment didn");
    const paid = await pay(buyer, CARD);
    expect(paid.headers.get("Location")).toBe("/checkout/confirmation");
    // Once paid, the pages after Pay send the buyer to the one page the table gives them.
    for (const page of ["/checkout/failed", "/checkout/verify"]) {
      const sent = await buyer.get(page);
      expect(sent.status, page).toBe(302);
      expect(sent.headers.get("Location"), page).toBe("/checkout/confirmation");
    }
  });

  describe("the number to phone (spec section 8: phone the venue)", () => {
    // Test Hall's own number, and the deployment's (en-GB common.json): they must differ here.
    const VENUE_PHONE = { text: "020 7946 0999", tel: 'href="tel:02079460999"' };
    const DEPLOYMENT_PHONE = "020 7946 0000";
    const headerOf = (html: string) => /<header[\s\S]*?<\/header>/.exec(html)?.[0] ?? "";

    function expectVenuePhone(html: string, where: string) {
      expect(headerOf(html), `the header of ${where}`).toContain(VENUE_PHONE.tel);
      expect(headerOf(html), `the header of ${where}`).toContain(VENUE_PHONE.text);
      expect(html, where).not.toContain(DEPLOYMENT_PHONE);
    }

    it("a checkout step and the failed page give the venue's own number, not the deployment's", async () => {
      const buyer = buyerBrowser(server.url);
      await reserve(buyer, ["A7"]);
      expectVenuePhone(await (await buyer.get("/checkout/extras")).text(), "the extras step");
      await buyer.post("/checkout/extras", {});
      expectVenuePhone(await (await buyer.get("/checkout/ticket-protection")).text(), "the protection step");
      await buyer.post("/checkout/ticket-protection", { protection: "no" });
      await buyer.post("/checkout/collection", { deliveryMethod: delivery.eTicket! });
      // The buyer's own number, not the deployment's, so that one is nowhere on the pages.
      const contacts = await buyer.post("/checkout/contacts", { ...CONTACTS, phone: "020 7946 0123" });
      expect(contacts.headers.get("Location")).toBe("/checkout/payment");
      expectVenuePhone(await (await buyer.get("/checkout/payment")).text(), "the payment step");

      const declined = await pay(buyer, { ...CARD, cardNumber: "4000 0000 0000 0002" });
      expect(declined.headers.get("Location")).toBe("/checkout/failed");
      const failed = await (await buyer.get("/checkout/failed")).text();
      expectVenuePhone(failed, "the failed page");
      expect(failed).toContain(`You can also call us on ${VENUE_PHONE.text}.`);

      // Once the hold has gone, the venue is the order's.
      const db = server.services.store.db;
      const { basket_id } = await db
        .selectFrom("orders")
        .select("basket_id")
        .where("contacts", "like", "%2079460123%")
        .executeTakeFirstOrThrow();
      await db.deleteFrom("seat_claims").where("status", "=", "held").execute();
      await db.deleteFrom("holds").where("basket_id", "=", basket_id).execute();
      expectVenuePhone(await (await buyer.get("/checkout/failed")).text(), "the failed page after the hold");
    });

    it("a basket with nothing at a venue gives the deployment's number", async () => {
      const buyer = buyerBrowser(server.url);
      const empty = await buyer.get("/checkout/extras");
      expect(empty.status).toBe(404);
      expect(headerOf(await empty.text())).toContain(DEPLOYMENT_PHONE);
    });
  });

  it("a 3-D Secure card goes through device data and the challenge, without script", async () => {
    const buyer = buyerBrowser(server.url);
    await throughToPayment(buyer, ["B7"], "post");
    const started = await pay(buyer, { ...CARD, cardNumber: "4000 0000 0000 3220" });
    expect(started.headers.get("Location")).toBe("/checkout/verify");
    const deviceData = await (await buyer.get("/checkout/verify")).text();
    const deviceUrl = deviceData.match(/action="(\/sandbox\/device-data\/[^"]+)"/)![1]!;
    expect(deviceData).toContain("Continue");
    const afterDevice = await follow(buyer, await buyer.post(deviceUrl, {}));
    expect(afterDevice.url).toBe("/checkout/verify");
    const challengeUrl = afterDevice.html.match(/action="(\/sandbox\/challenge\/[^"]+)"/)![1]!;
    const challengePage = await follow(buyer, await buyer.post(challengeUrl, {}));
    expect(challengePage.html).toContain("Complete authentication");
    const done = await follow(buyer, await buyer.post(challengeUrl, { intent: "pass" }));
    expect(done.url).toBe("/checkout/confirmation");
    expect(done.html).toContain("Order complete");
    expect(/<header[\s\S]*?<\/header>/.exec(done.html)?.[0]).toContain("020 7946 0999");
  });

  it("takes the gateway's signed notifications without a CSRF token, and refuses unsigned ones", async () => {
    const buyer = buyerBrowser(server.url);
    await throughToPayment(buyer, ["B9"]);
    expect((await pay(buyer, { ...CARD, cardNumber: "4000 0000 0000 3220" })).headers.get("Location")).toBe(
      "/checkout/verify",
    );
    const attempt = await server.services.store.db
      .selectFrom("order_payments")
      .select(["idempotency_key", "provider_reference", "status"])
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    expect(attempt.status).toBe("action");
    const body = JSON.stringify({ idempotencyKey: attempt.idempotency_key, reference: attempt.provider_reference });
    const send = (signature: string) =>
      fetch(server.url("/payments/notifications"), {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Sandbox-Signature": signature },
        body,
      });
    expect((await send("00".repeat(32))).status).toBe(400);
    expect((await send(signSandboxNotification(body, NOTIFICATION_SECRET))).status).toBe(204);
    // The bank still waits for the buyer: a notification of that changes nothing.
    const after = await server.services.store.db
      .selectFrom("order_payments")
      .select("status")
      .where("idempotency_key", "=", attempt.idempotency_key)
      .executeTakeFirstOrThrow();
    expect(after.status).toBe("action");
  });

  it("a card whose bank never answers ends in the timeout message", async () => {
    const buyer = buyerBrowser(server.url);
    await throughToPayment(buyer, ["B8"]);
    const started = await pay(buyer, { ...CARD, cardNumber: "4000 0000 0000 0119" });
    expect(started.headers.get("Location")).toBe("/checkout/verify");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const html = await (await buyer.get("/checkout/verify")).text();
    expect(html).toContain("Your payment has timed out. Please confirm your card details are correct and try again.");
    expect(html).toContain("10 minutes");
    expect(html).toContain("please call us on 020 7946 0999 before you try again");
  });

  it("PayPal: approve on the sandbox page and come back confirmed; cancel comes back to pay again", async () => {
    const buyer = buyerBrowser(server.url);
    await throughToPayment(buyer, ["B9"]);
    const started = await follow(buyer, await pay(buyer, { method: "paypal" }));
    const approval = started.html.match(/href="(\/sandbox\/paypal\/[^"]+)"/)![1]!;
    const cancelled = await follow(buyer, await buyer.post(approval, { intent: "cancel" }));
    expect(cancelled.url).toBe("/checkout/payment");
    expect(cancelled.html).toContain("Your last payment didn");
    const again = await follow(buyer, await pay(buyer, { method: "paypal" }));
    const approval2 = again.html.match(/href="(\/sandbox\/paypal\/[^"]+)"/)![1]!;
    const done = await follow(buyer, await buyer.post(approval2, { intent: "approve" }));
    expect(done.url).toBe("/checkout/confirmation");
  });

  it("a promo code and a partial voucher reduce what is left to pay", async () => {
    await insertPromo(server.services.store, { code: "HALF", percent: 50 });
    await insertVoucher(server.services.store, { number: "GVTEST0001", redemptionCode: "ABC123", balance: 300 });
    const buyer = buyerBrowser(server.url);
    await throughToPayment(buyer, ["A5"]);
    expect((await buyer.post("/checkout/payment", { intent: "promo", promoCode: "nope" })).status).toBe(400);
    expect((await buyer.post("/checkout/payment", { intent: "promo", promoCode: "half" })).status).toBe(302);
    const voucher = await buyer.post("/checkout/payment", {
      intent: "voucher",
      voucherNumber: "GV-TEST-0001",
      voucherCode: "ABC123",
    });
    expect(voucher.status).toBe(302);
    const html = await (await buyer.get("/checkout/payment")).text();
    expect(html).toContain("Promo code HALF");
    expect(html).toContain("Gift voucher ending 0001");
    expect(html).toContain("To pay");
    const paid = await pay(buyer, CARD);
    expect(paid.headers.get("Location")).toBe("/checkout/confirmation");
  });
});
