import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import type { AppServices } from "~/web/context";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { startServer } from "../support/app";
import { buyerBrowser } from "../support/browser";
import { registerByEmail } from "../support/outbox";
import { smallCatalogueWithMembership } from "../support/catalogue";
import { insertVoucher } from "../support/money";

// Memberships as a browser without script meets them: joining Plus through the checkout,
// registering access needs, and what each membership then changes: presale, fees, protection,
// pre-filled contact details, wheelchair spaces and companion seats. Sponsored (Amex) seats too.

type Buyer = ReturnType<typeof buyerBrowser>;

const CARD = { method: "card", cardNumber: "4242 4242 4242 4242", cardOwner: "Jo Bloggs", expiry: "12/30", cvv: "123" };
const AMEX = { ...CARD, cardNumber: "3782 822463 10005", cvv: "1234" };
const CONTACTS = {
  firstName: "Jo",
  lastName: "Bloggs",
  email: "",
  confirmEmail: "",
  phone: "020 7946 0000",
  termsAccepted: "on",
};

async function seedWithMembership(services: AppServices) {
  await importCatalogue(services.store, smallCatalogueWithMembership(), fixedClock(services.clock.now()));
}

describe("membership", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let onSale: string;
  let inPresale: { id: string; presaleFrom: string };
  let seats: Map<string, number>;
  let customers = 0;

  const clock = fixedClock(new Date());
  const startedAt = clock.now();

  beforeAll(async () => {
    server = await startServer({}, { seed: seedWithMembership, clock });
    const db = server.services.store.db;
    const performances = await db.selectFrom("performances").selectAll().orderBy("starts_at").execute();
    onSale = performances.find((performance) => performance.presale_from === null)!.id;
    const presale = performances.find((performance) => performance.presale_from !== null)!;
    inPresale = { id: presale.id, presaleFrom: presale.presale_from! };
    const rows = await db.selectFrom("seats").select(["id", "row_name", "label"]).execute();
    seats = new Map(rows.map((row) => [`${row.row_name}${row.label}`, row.id]));
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    clock.set(startedAt);
    await server.services.store.db.deleteFrom("seat_claims").where("status", "=", "held").execute();
  });

  const ticketsPage = (performanceId: string) => `/shows/test-show/test-hall/tickets/${performanceId}`;

  async function register(buyer: Buyer) {
    customers += 1;
    const email = `member${customers}@example.com`;
    await registerByEmail(
      buyer,
      server.services,
      { firstName: "Jo", lastName: "Bloggs", email },
      "correct horse battery",
    );
    return email;
  }

  async function select(buyer: Buyer, performanceId: string, names: string[], extra: [string, string][] = []) {
    return buyer.post(ticketsPage(performanceId), [
      ["intent", "select"],
      ...names.map((name) => ["seat", String(seats.get(name))] as [string, string]),
      ...extra,
    ]);
  }

  async function joinPlus(buyer: Buyer, email: string) {
    const joined = await buyer.post("/membership", { intent: "join" });
    expect(joined.headers.get("Location")).toBe("/checkout/payment");
    // Nothing to choose for a membership but the contact details, which start from the profile.
    const first = await buyer.get("/checkout/payment");
    expect(first.headers.get("Location")).toBe("/checkout/contacts");
    const contactsPage = await (await buyer.get("/checkout/contacts")).text();
    expect(contactsPage).toContain(`value="${email}"`);
    // A membership is sold by the deployment, not a venue: its number is the one to phone.
    expect(/<header[\s\S]*?<\/header>/.exec(contactsPage)?.[0]).toContain('href="tel:02079460000"');
    const contacts = await buyer.post("/checkout/contacts", { ...CONTACTS, email, confirmEmail: email });
    expect(contacts.headers.get("Location")).toBe("/checkout/payment");
    const payment = await (await buyer.get("/checkout/payment")).text();
    expect(payment).toContain("Plus membership, 12 months");
    expect(payment).toContain("£45.00");
    expect(payment).not.toContain("Transaction fee");
    const paid = await buyer.pay({ ...CARD });
    expect(paid.headers.get("Location")).toBe("/checkout/confirmation");
    const confirmation = await buyer.get("/checkout/confirmation");
    expect(confirmation.status).toBe(200);
    expect(await confirmation.text()).toContain("Plus membership, 12 months");
  }

  it("a guest is asked to sign in to join; the page names the price and the benefits", async () => {
    const buyer = buyerBrowser(server.url);
    const page = await (await buyer.get("/membership")).text();
    expect(page).toContain("£45.00 for 12 months");
    expect(page).toContain("Book presale performances before general sale");
    expect(page).toContain('href="/account/sign-in?redirectTo=%2Fmembership"');
    const join = await buyer.post("/membership", { intent: "join" });
    expect(join.status).toBe(303);
    expect(join.headers.get("Location")).toBe("/account/sign-in?redirectTo=%2Fmembership");
  });

  it("buys Plus through the checkout; their next booking skips the protection step (it is included)", async () => {
    const buyer = buyerBrowser(server.url);
    const email = await register(buyer);
    await joinPlus(buyer, email);
    const page = await (await buyer.get("/membership")).text();
    expect(page).toMatch(/You(’|'|&#x27;)re a Plus member until/);
    expect(await (await buyer.get("/account")).text()).toMatch(/You(’|'|&#x27;)re a Plus member until/);

    const customer = await server.services.store.db
      .selectFrom("customers")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    const order = await server.services.store.db
      .selectFrom("orders")
      .selectAll()
      .where("customer_id", "=", customer.id)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: "paid", total: 4500, performance_id: null });

    const held = await select(buyer, onSale, ["B3"]);
    expect(held.status).toBe(302);
    expect((await buyer.post(ticketsPage(onSale), { intent: "continue" })).headers.get("Location")).toBe(
      "/checkout/extras",
    );
    await buyer.post("/checkout/extras", {});
    // Protection is included: the step is answered for them.
    const collection = await buyer.get("/checkout/ticket-protection");
    expect(collection.status).toBe(302);
    expect(collection.headers.get("Location")).toBe("/checkout/collection");
    const payment = await buyer.get("/checkout/payment");
    const next = payment.headers.get("Location");
    expect(next).toBe("/checkout/collection");
  });

  it("member prices are offered to a Plus member only, and only a member may choose one", async () => {
    const guest = buyerBrowser(server.url);
    expect((await select(guest, onSale, ["A5"])).status).toBe(302);
    const guestPage = await (await guest.get(ticketsPage(onSale))).text();
    expect(guestPage).not.toContain(">Member, ");
    expect(guestPage).toContain("A £2.50 transaction fee is added once per order.");
    const memberOption = await server.services.store.db
      .selectFrom("price_options")
      .select("id")
      .where("kind", "=", "member")
      .executeTakeFirstOrThrow();
    const refused = await guest.post(ticketsPage(onSale), {
      intent: "continue",
      [`price-seat-${seats.get("A5")}`]: memberOption.id,
    });
    expect(refused.status).toBe(400);

    const member = buyerBrowser(server.url);
    await joinPlus(member, await register(member));
    expect((await select(member, onSale, ["A6"])).status).toBe(302);
    const memberPage = await (await member.get(ticketsPage(onSale))).text();
    expect(memberPage).toContain(">Member, £63.00<");
    // The membership waives the per-order fee: said beside the prices, and nothing in the total for it.
    expect(memberPage).toContain("Prices include booking fees. As a member you pay no transaction fee.");
    expect(memberPage).toMatch(/Waived for members<\/span><\/th><td class="ticket-table__amount">£0.00</);
    const chosen = await member.post(ticketsPage(onSale), {
      intent: "continue",
      [`price-seat-${seats.get("A6")}`]: memberOption.id,
    });
    expect(chosen.headers.get("Location")).toBe("/checkout/extras");
    expect(await (await member.get("/checkout/extras")).text()).toContain("Member");
  });

  it("a promo code cannot be used on a membership on its own", async () => {
    const buyer = buyerBrowser(server.url);
    const email = await register(buyer);
    await buyer.post("/membership", { intent: "join" });
    await buyer.post("/checkout/contacts", { ...CONTACTS, email, confirmEmail: email });
    const refused = await buyer.post("/checkout/payment", { intent: "promo", promoCode: "ANYCODE" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Promo code is not valid for this event");
    // Taking it out of the basket empties the checkout.
    expect((await buyer.post("/membership", { intent: "remove" })).headers.get("Location")).toBe("/membership");
    expect((await buyer.get("/checkout/payment")).status).toBe(404);
  });

  it("a member's basket says which benefits applied; a guest's does not", async () => {
    const member = buyerBrowser(server.url);
    const email = await register(member);
    await joinPlus(member, email);
    const guest = buyerBrowser(server.url);
    for (const [buyer, seat] of [
      [member, "B4"],
      [guest, "B5"],
    ] as const) {
      expect((await select(buyer, onSale, [seat])).status).toBe(302);
      await buyer.post(ticketsPage(onSale), { intent: "continue" });
      await buyer.post("/checkout/extras", {});
    }
    await guest.post("/checkout/ticket-protection", { protection: "no" });
    const methods = await server.services.store.db.selectFrom("delivery_methods").select(["id", "kind"]).execute();
    const eTicket = methods.find((method) => method.kind === "eTicket")!.id;
    for (const buyer of [member, guest]) await buyer.post("/checkout/collection", { deliveryMethod: eTicket });
    // The member's contact details are there already; the guest types them.
    const memberContacts = await (await member.get("/checkout/contacts")).text();
    expect(memberContacts).toContain(`value="${email}"`);
    // The phone given when joining was kept with the account (it had none).
    expect(memberContacts).toContain('value="+442079460000"');
    await member.post("/checkout/contacts", { ...CONTACTS, email, confirmEmail: email });
    await guest.post("/checkout/contacts", {
      ...CONTACTS,
      email: "guest@example.com",
      confirmEmail: "guest@example.com",
    });

    const memberPage = await (await member.get("/checkout/payment")).text();
    expect(memberPage).toContain("Waived for members");
    expect(memberPage).toContain("Included with your membership");
    const guestPage = await (await guest.get("/checkout/payment")).text();
    expect(guestPage).not.toContain("Waived for members");
    expect(guestPage).not.toContain("Included with your membership");
  });

  it("presale: a guest gets the membership offer and the engine's refusal; a member's entitlements get in", async () => {
    const guest = buyerBrowser(server.url);
    clock.set(inPresale.presaleFrom);
    {
      const offer = await (await guest.get(ticketsPage(inPresale.id))).text();
      expect(offer).toContain('href="/membership"');
      const refused = await select(guest, inPresale.id, ["B6"]);
      expect(refused.status).toBe(409);
      expect(await refused.text()).toContain("This performance is in presale");

      const member = buyerBrowser(server.url);
      const email = await register(member);
      await joinPlus(member, email);
      expect(email).toContain("@");
      const page = await (await member.get(ticketsPage(inPresale.id))).text();
      expect(page).not.toContain("This performance is in presale");
      expect((await select(member, inPresale.id, ["B6"])).status).toBe(302);
    }
  });

  it("an access member books a wheelchair space and their companion seat without a declaration", async () => {
    const buyer = buyerBrowser(server.url);
    await register(buyer);
    const refused = await buyer.post("/membership", { intent: "access", companions: "1" });
    expect(refused.status).toBe(400);
    const errors = await refused.text();
    expect(errors).toContain("Companion seats are for wheelchair users");
    expect(errors).toContain("Please tell us about at least one access need");

    const saved = await buyer.post("/membership", { intent: "access", wheelchair: "on", companions: "1" });
    expect(saved.headers.get("Location")).toBe("/membership?saved=access");
    const page = await (await buyer.get("/membership?saved=access")).text();
    expect(page).toContain("Your access needs have been saved.");
    expect(page).toContain("1 companion seat beside your wheelchair space");

    const tickets = await (await buyer.get(ticketsPage(onSale))).text();
    expect(tickets).toContain("Your access membership lets you book wheelchair spaces");
    expect((await select(buyer, onSale, ["A1", "A2"])).status).toBe(302);
    const claims = await server.services.store.db
      .selectFrom("seat_claims")
      .select("seat_id")
      .where("status", "=", "held")
      .execute();
    expect(claims.map((claim) => claim.seat_id).sort()).toEqual([seats.get("A1"), seats.get("A2")].sort());
  });

  it("a wheelchair user registered without companions is refused a companion seat, in words", async () => {
    const buyer = buyerBrowser(server.url);
    await register(buyer);
    await buyer.post("/membership", { intent: "access", wheelchair: "on", companions: "0" });
    const refused = await select(buyer, onSale, ["A1", "A2"]);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("you can book 0 companion seat(s) with a wheelchair space online");
  });

  it("sponsored (Amex) seats: anyone may select them; Visa, PayPal and vouchers are refused before any charge", async () => {
    const buyer = buyerBrowser(server.url);
    expect((await select(buyer, onSale, ["B1"])).status).toBe(302);
    await buyer.post(ticketsPage(onSale), { intent: "continue" });
    await buyer.post("/checkout/extras", {});
    await buyer.post("/checkout/ticket-protection", { protection: "no" });
    const methods = await server.services.store.db.selectFrom("delivery_methods").select(["id", "kind"]).execute();
    await buyer.post("/checkout/collection", {
      deliveryMethod: methods.find((method) => method.kind === "eTicket")!.id,
    });
    await buyer.post("/checkout/contacts", {
      ...CONTACTS,
      email: "amex@example.com",
      confirmEmail: "amex@example.com",
    });
    const page = await (await buyer.get("/checkout/payment")).text();
    expect(page).toContain("this order can only be paid with an American Express card");
    expect(page).not.toContain('value="paypal"');

    const gateway = server.services.sandboxGateway!;
    const charges = gateway.charges;
    const visa = await buyer.pay({ ...CARD });
    expect(visa.status).toBe(400);
    expect(await visa.text()).toContain("Please enter a valid American Express card number");
    const paypal = await buyer.pay({ method: "paypal" });
    expect(paypal.status).toBe(400);
    expect(gateway.charges).toBe(charges);

    const voucherId = await insertVoucher(server.services.store, { redemptionCode: "AMEX1" });
    const voucher = await server.services.store.db
      .selectFrom("vouchers")
      .select("number")
      .where("id", "=", voucherId)
      .executeTakeFirstOrThrow();
    const byVoucher = await buyer.post("/checkout/payment", {
      intent: "voucher",
      voucherNumber: voucher.number,
      voucherCode: "AMEX1",
    });
    expect(byVoucher.status).toBe(400);
    expect(await byVoucher.text()).toContain("This order can only be paid with an American Express card.");
    expect(gateway.charges).toBe(charges);

    const amex = await buyer.pay({ ...AMEX });
    expect(amex.headers.get("Location")).toBe("/checkout/confirmation");
    expect(gateway.charges).toBe(charges + 1);
  });
});
