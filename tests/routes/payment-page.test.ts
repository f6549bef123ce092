import { JSDOM } from "jsdom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { buyerBrowser, payForm } from "../support/browser";
import { smallCatalogueFacts, throughToPayment } from "../support/checkout-journey";
import { insertPromo } from "../support/money";
import { seedSmall } from "../support/seed";

// Issue 14, item 7: the payment page tells the buyer only what is true. A refusal before any
// payment is not a failed payment; an expired reservation is not a price change, nor an order
// paid by vouchers.

type Buyer = ReturnType<typeof buyerBrowser>;

const CARD = { method: "card", cardNumber: "4242 4242 4242 4242", cardOwner: "Jo Bloggs", expiry: "12/30", cvv: "123" };

const text = (html: string) => new JSDOM(html).window.document.body.textContent ?? "";

describe("the payment page", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let seat: (name: string) => number;

  beforeAll(async () => {
    server = await startServer({}, { seed: seedSmall });
    seat = (await smallCatalogueFacts(server.services.store)).seat;
  });
  afterAll(() => server.close());

  const toPayment = (buyer: Buyer, seat: string) => throughToPayment(buyer, server.services.store, [seat]);

  it("a promo code used up before Pay: nothing charged, and no talk of a payment that never happened", async () => {
    const promoId = await insertPromo(server.services.store, { code: "LASTONE", usage_limit: 1 });
    const buyer = buyerBrowser(server.url);
    const charges = server.services.sandboxGateway!.charges;
    await toPayment(buyer, "B4");
    expect((await buyer.post("/checkout/payment", { intent: "promo", promoCode: "LASTONE" })).status).toBe(302);
    // Someone else's order takes the code's last use while this buyer types their card.
    await server.services.store.db
      .updateTable("promo_codes")
      .set({ used_count: 1 })
      .where("id", "=", promoId)
      .execute();

    const discounted = payForm(await (await buyer.get("/checkout/payment")).text());
    const refused = await buyer.post("/checkout/payment", { ...discounted.fields, ...CARD });
    expect(refused.status).toBe(409);
    const html = await refused.text();
    const page = text(html);
    expect(page).toContain("This promo code has already been used, so nothing has been charged.");
    expect(page).not.toContain("Your last payment didn't go through");
    // The code is off the order: the new, higher total is in front of the buyer, with the alert.
    expect(page).toContain("Prices have changed");
    expect(Number(payForm(html).fields.acceptedToPay)).toBeGreaterThan(Number(discounted.fields.acceptedToPay));
    const again = text(await (await buyer.get("/checkout/payment")).text());
    expect(again).not.toContain("Your last payment didn't go through");
    expect(server.services.sandboxGateway!.charges).toBe(charges);
  });

  it("a declined card is a payment that didn't go through, and the page says so", async () => {
    const buyer = buyerBrowser(server.url);
    await toPayment(buyer, "B5");
    const declined = await buyer.pay({ ...CARD, cardNumber: "4000 0000 0000 0002" });
    expect(declined.headers.get("Location")).toBe("/checkout/failed");
    expect(text(await (await buyer.get("/checkout/payment")).text())).toContain("Your last payment didn't go through");
  });

  it("an expired reservation: the button reads Reservation expired, with no price change or voucher cover claimed", async () => {
    const buyer = buyerBrowser(server.url);
    await toPayment(buyer, "B6");
    const past = new Date(Date.now() - 60_000).toISOString();
    const db = server.services.store.db;
    await db.updateTable("seat_claims").set({ held_until: past }).where("seat_id", "=", seat("B6")).execute();
    await db
      .updateTable("holds")
      .set({ expires_at: past })
      .where("id", "in", db.selectFrom("seat_claims").select("hold_id").where("seat_id", "=", seat("B6")))
      .execute();

    const html = await (await buyer.get("/checkout/payment")).text();
    const document = new JSDOM(html).window.document;
    const page = document.body.textContent ?? "";
    expect(page).not.toContain("Prices have changed");
    expect(page).not.toMatch(/vouchers cover the whole order/);
    expect(page.split("Your session has timed out.").length - 1).toBeLessThanOrEqual(1);
    expect(() => payForm(html)).toThrow();
    const button = [...document.querySelectorAll("button")].find((candidate) =>
      candidate.textContent?.includes("Reservation expired"),
    );
    expect(button?.disabled).toBe(true);
    // Reselect and Cancel order are offered (the session expired panel).
    expect(page).toContain("Reselect seats");
  });

  // Issue 39, item 6: the basket is finished once paid, so a reload of Pay (or Back to it) must
  // not say "Your basket is empty", which invites a second purchase of the same seats.
  it("after a successful payment, the payment page again shows the order's confirmation, never the empty basket", async () => {
    const buyer = buyerBrowser(server.url);
    await toPayment(buyer, "B7");
    const paid = await buyer.pay(CARD);
    expect(paid.headers.get("Location")).toBe("/checkout/confirmation");
    const charges = server.services.sandboxGateway!.charges;

    const again = await buyer.get("/checkout/payment");
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe("/checkout/confirmation");
    const confirmation = text(await (await buyer.get("/checkout/confirmation")).text());
    expect(confirmation).not.toContain("Your basket is empty.");
    expect(confirmation).toContain("Order complete");
    expect(confirmation).toContain("row B, seat 7");
    expect(server.services.sandboxGateway!.charges).toBe(charges);
  });

  // Issue 40, item 6: on a phone the page is one column, and "Your order" came after Pay. It now
  // comes first in the source (checkout-step.tsx says why source order rather than CSS order), so
  // a screen reader and a browser without CSS meet it first as well; and the hold's clock time
  // names the venue's zone.
  it("puts the order summary before Pay in the page's source, and tells the hold's end in the venue's zone", async () => {
    const buyer = buyerBrowser(server.url);
    await toPayment(buyer, "B8");
    const document = new JSDOM(await (await buyer.get("/checkout/payment")).text()).window.document;
    const summary = document.querySelector("#basket-summary-title")?.closest("section");
    expect(summary?.textContent).toContain("Your order");
    expect(summary?.textContent).toContain("row B, seat 8");
    const pay = [...document.querySelectorAll("button")].find((button) => /^Pay /.test(button.textContent ?? ""));
    expect(pay).toBeDefined();
    expect(
      summary!.compareDocumentPosition(pay!) & document.defaultView!.Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    // Every form of the step (promo code, voucher, Pay) comes after it too.
    const forms = document.querySelectorAll(".checkout-step__main form");
    expect(forms.length).toBeGreaterThanOrEqual(3);
    for (const form of forms)
      expect(
        summary!.compareDocumentPosition(form) & document.defaultView!.Node.DOCUMENT_POSITION_FOLLOWING,
      ).toBeTruthy();
    const until = document.querySelector(".hold-panel__until")?.textContent?.replace(/\s+/g, " ").trim();
    expect(until).toMatch(/^Your seats are held until \d{1,2}:\d{2} London time\.$/);
  });
});
