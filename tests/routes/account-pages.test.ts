import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { formatDateTime } from "~/i18n/format";
import { startServer } from "../support/app";
import { buyerBrowser } from "../support/browser";
import { seedSmall } from "../support/seed";
import { emailedLink, emailsTo, registerByEmail } from "../support/outbox";

// The account pages as a browser without script uses them: the header's link, Manage details,
// My tickets, and creating an account on the confirmation page after buying as a guest. Purchases
// go through the real checkout and the sandbox gateway.

type Buyer = ReturnType<typeof buyerBrowser>;
type Server = Awaited<ReturnType<typeof startServer>>;

const CARD = { method: "card", cardNumber: "4242 4242 4242 4242", cardOwner: "Jo Bloggs", expiry: "12/30", cvv: "123" };
const PASSWORD = "correct horse battery";
// Far from UTC and from London, so a time shown in the wrong zone shows.
const VENUE_TIME_ZONE = "Asia/Tokyo";

/** The page's text as a reader sees it: React writes apostrophes and quotes as entities. */
const decode = (html: string) => html.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

const headerOf = (html: string) => /<header[\s\S]*?<\/header>/.exec(html)?.[0] ?? "";

/** The part of a page between two pieces of its text. */
function between(html: string, from: string, to: string): string {
  const start = html.indexOf(from);
  expect(start, `"${from}" on the page`).toBeGreaterThanOrEqual(0);
  const end = html.indexOf(to, start);
  expect(end, `"${to}" after "${from}"`).toBeGreaterThan(start);
  return html.slice(start, end);
}

/** The <input> with this id, as the server wrote it. */
const inputTag = (html: string, id: string) => new RegExp(`<input[^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? "";

/** Registers by the emailed link, signed in on this browser at the end. */
async function register(server: Server, buyer: Buyer, who: { firstName: string; lastName: string; email: string }) {
  const made = await registerByEmail(buyer, server.services, who, PASSWORD);
  expect(made.headers.get("Location")).toBe("/account?account=created");
}

const ADDRESS_GB = { addressLine1: "1 High Street", addressLine2: "", city: "London", postcode: "sw1a1aa" };

describe("account pages", () => {
  let server: Server;
  let performanceId: string;
  let pastPerformanceId: string;
  let seats: Map<string, number>;
  let eTicketDelivery: string;
  // Standing still unless a test moves it (how long a confirmation is shown), then set back.
  const startedAt = new Date();
  const clock = fixedClock(startedAt);

  beforeAll(async () => {
    server = await startServer(
      {},
      {
        clock,
        seed: async (services) => {
          await seedSmall(services);
          const db = services.store.db;
          await db.updateTable("venues").set({ time_zone: VENUE_TIME_ZONE }).execute();
          // The week's last performance is moved into the past: what My tickets lists as past.
          const last = await db
            .selectFrom("performances")
            .select("id")
            .orderBy("starts_at", "desc")
            .executeTakeFirstOrThrow();
          const twoDaysAgo = new Date(services.clock.now().getTime() - 2 * 24 * 60 * 60_000).toISOString();
          await db.updateTable("performances").set({ starts_at: twoDaysAgo }).where("id", "=", last.id).execute();
        },
      },
    );
    const db = server.services.store.db;
    const performances = await db.selectFrom("performances").selectAll().orderBy("starts_at").execute();
    pastPerformanceId = performances[0]!.id;
    performanceId = performances.find((performance, index) => index > 0 && performance.presale_from === null)!.id;
    const rows = await db.selectFrom("seats").select(["id", "row_name", "label"]).execute();
    seats = new Map(rows.map((row) => [`${row.row_name}${row.label}`, row.id]));
    eTicketDelivery = (
      await db.selectFrom("delivery_methods").select("id").where("kind", "=", "eTicket").executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    clock.set(startedAt);
    await server.services.store.db.deleteFrom("seat_claims").where("status", "=", "held").execute();
  });

  const browser = () => buyerBrowser(server.url);

  /** Buys seats by e-ticket, without script, through every step to the confirmation page. */
  async function buy(buyer: Buyer, names: string[], contacts: { firstName: string; lastName: string; email: string }) {
    const ticketsPage = `/shows/test-show/test-hall/tickets/${performanceId}`;
    const held = await buyer.post(ticketsPage, [
      ["intent", "select"],
      ...names.map((name) => ["seat", String(seats.get(name))] as [string, string]),
    ]);
    expect(held.status).toBe(302);
    await buyer.post(ticketsPage, { intent: "continue" });
    // Each step answered in turn; a step the checkout skips for this buyer just sends them on.
    await buyer.post("/checkout/extras", {});
    await buyer.post("/checkout/ticket-protection", { protection: "no" });
    await buyer.post("/checkout/collection", { deliveryMethod: eTicketDelivery });
    await buyer.post("/checkout/contacts", {
      ...contacts,
      confirmEmail: contacts.email,
      phone: "020 7946 0000",
      termsAccepted: "on",
    });
    const paid = await buyer.pay({ ...CARD });
    expect(paid.headers.get("Location")).toBe("/checkout/confirmation");
    return server.services.store.db
      .selectFrom("orders")
      .selectAll()
      .where("email", "=", contacts.email)
      .where("status", "=", "paid")
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
  }

  describe("the header", () => {
    it("offers Sign in to a guest and My account to a signed-in customer, on every page", async () => {
      const buyer = browser();
      const guest = headerOf(decode(await (await buyer.get("/")).text()));
      expect(guest).toMatch(/<a[^>]*href="\/account\/sign-in"[^>]*>Sign in<\/a>/);
      expect(guest).not.toContain("My account");

      await register(server, buyer, { firstName: "Hedda", lastName: "Gabler", email: "hedda@example.com" });
      for (const path of ["/", "/legal/privacy-policy", "/checkout/confirmation"]) {
        const header = headerOf(decode(await (await buyer.get(path)).text()));
        expect(header).toMatch(/<a[^>]*href="\/account"[^>]*>My account<\/a>/);
        expect(header).not.toContain("/account/sign-in");
      }
      // The page's data says who is signed in only as far as the header needs: never the email.
      expect(await (await buyer.get("/legal/privacy-policy")).text()).not.toContain("hedda@example.com");

      await buyer.post("/account/sign-out", {});
      expect(headerOf(await (await buyer.get("/")).text())).toContain('href="/account/sign-in"');
    });
  });

  describe("the reset-password link", () => {
    const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
    const passwordForm = /<input[^>]*name="password"/;

    /** What a link that cannot work shows at first look: the truth, and the way to a new link. */
    function expectInvalid(page: string) {
      expect(titleOf(page)).toMatch(/^This link is not valid – /);
      expect(page).toMatch(/<h1>This link is not valid<\/h1>/);
      expect(page).toContain("This link to choose a new password can't be used");
      expect(page).toMatch(/<a[^>]*href="\/account\/forgotten-password"[^>]*>Ask for a new link<\/a>/);
      expect(page).not.toContain("Choose a new password");
      expect(page).not.toMatch(passwordForm);
    }

    async function genuineLink(email: string) {
      const requested = await server.services.auth.requestPasswordReset({ email, address: "192.0.2.44" });
      if (!requested || !("token" in requested)) throw new Error("no reset link for the account");
      return `/account/reset-password/${requested.token}`;
    }

    it("a made-up link says it is not valid on the first page, without a password form", async () => {
      const made = await browser().get(`/account/reset-password/${"A".repeat(43)}`);
      expect(made.status).toBe(200);
      expectInvalid(decode(await made.text()));
      expectInvalid(decode(await (await browser().get("/account/reset-password/not-a-link")).text()));
    });

    it("a genuine link asks for the new password; once expired or used, it says it is not valid", async () => {
      await register(server, browser(), { firstName: "Nora", lastName: "Helmer", email: "nora@example.com" });
      const db = server.services.store.db;

      const fresh = await genuineLink("nora@example.com");
      const page = decode(await (await browser().get(fresh)).text());
      expect(titleOf(page)).toMatch(/^Choose a new password – /);
      expect(page).toMatch(/<h1>Choose a new password<\/h1>/);
      expect(page).toMatch(passwordForm);
      expect(page).not.toContain("This link is not valid");

      // Expired: its time is up.
      await db
        .updateTable("password_resets")
        .set({ expires_at: new Date(server.services.clock.now().getTime() - 60_000).toISOString() })
        .where("used_at", "is", null)
        .execute();
      expectInvalid(decode(await (await browser().get(fresh)).text()));

      // Used: a new password was chosen with it.
      const used = await genuineLink("nora@example.com");
      const buyer = browser();
      const reset = await buyer.post(used, { password: "a doll's house password" });
      expect(reset.headers.get("Location")).toBe("/account");
      expectInvalid(decode(await (await browser().get(used)).text()));
      const again = await buyer.post(used, { password: "another new password" });
      expect(again.status).toBe(400);
      expectInvalid(decode(await again.text()).replace(/<title>Error: /, "<title>"));
    });
  });

  describe("Manage details", () => {
    const JO = { firstName: "Jo", lastName: "Bloggs", email: "jo.details@example.com" };

    it("asks a guest to sign in first", async () => {
      const response = await browser().get("/account/details");
      expect(response.status).toBe(303);
      expect(response.headers.get("Location")).toBe("/account/sign-in?redirectTo=%2Faccount%2Fdetails");
    });

    it("shows the saved details, saves changes and says so on My account", async () => {
      const buyer = browser();
      await register(server, buyer, JO);
      const page = decode(await (await buyer.get("/account/details")).text());
      expect(page).toContain("<h1>Manage your details</h1>");
      expect(inputTag(page, "firstName")).toContain('value="Jo"');
      expect(inputTag(page, "lastName")).toContain('value="Bloggs"');
      expect(page).toContain(JO.email);
      // The email is shown, not offered for change.
      expect(page).not.toMatch(/<input[^>]*name="email"/);
      expect(inputTag(page, "contactConsent")).not.toContain("checked");

      const saved = await buyer.post("/account/details", {
        firstName: "Joanna",
        lastName: "Bloggs",
        phone: "020 7946 0000",
        ...ADDRESS_GB,
        contactConsent: "on",
      });
      expect(saved.status).toBe(303);
      expect(saved.headers.get("Location")).toBe("/account?saved=details");
      const home = await (await buyer.get("/account?saved=details")).text();
      expect(home).toMatch(/<div class="message" role="status"><p>Your details have been saved\.<\/p>/);
      expect(await (await buyer.get("/account")).text()).not.toContain("Your details have been saved.");

      const again = await (await buyer.get("/account/details")).text();
      expect(inputTag(again, "firstName")).toContain('value="Joanna"');
      expect(inputTag(again, "phone")).toContain('value="+442079460000"');
      expect(inputTag(again, "addressLine1")).toContain('value="1 High Street"');
      expect(inputTag(again, "postcode")).toContain('value="SW1A 1AA"');
      expect(inputTag(again, "contactConsent")).toContain("checked");

      const customer = await server.services.store.db
        .selectFrom("customers")
        .select("id")
        .where("email_key", "=", JO.email)
        .executeTakeFirstOrThrow();
      expect(await server.services.customers.profile(customer.id)).toMatchObject({
        firstName: "Joanna",
        phone: "+442079460000",
        address: {
          line1: "1 High Street",
          line2: "",
          city: "London",
          postcode: "SW1A 1AA",
          state: null,
          country: "GB",
        },
        contactConsent: true,
      });

      // Emptied, the address and the phone are removed; unticked, consent is withdrawn.
      expect((await buyer.post("/account/details", { firstName: "Joanna", lastName: "Bloggs" })).status).toBe(303);
      expect(await server.services.customers.profile(customer.id)).toMatchObject({
        phone: null,
        address: null,
        contactConsent: false,
      });
    });

    it("words every mistake as the contact step does, keeping what was typed", async () => {
      const buyer = browser();
      await register(server, buyer, { ...JO, email: "jo.mistakes@example.com" });
      const refused = await buyer.post("/account/details", {
        firstName: " ",
        lastName: "Bloggs",
        phone: "12345",
        addressLine1: "2 Low Road",
        city: "",
        postcode: "90210",
      });
      expect(refused.status).toBe(400);
      const page = decode(await refused.text());
      expect(page).toMatch(/<title>Error: /);
      expect(page).toContain("There is a problem");
      for (const text of [
        "Please enter your first name",
        "Please enter a valid phone number",
        "Please enter your city",
        "Valid UK postcodes only",
      ])
        expect(page).toContain(text);
      expect(page).toContain('href="#firstName"');
      expect(inputTag(page, "firstName")).toContain('aria-describedby="firstName-error"');
      expect(inputTag(page, "addressLine1")).toContain('value="2 Low Road"');
      expect(inputTag(page, "phone")).toContain('value="12345"');
      expect(page).not.toContain("Your changes were not saved.");
    });
  });

  describe("My tickets", () => {
    it("lists upcoming and past orders apart, in the venue's time, each with its places and e-tickets", async () => {
      const buyer = browser();
      await register(server, buyer, { firstName: "Sam", lastName: "Lee", email: "sam.tickets@example.com" });
      const db = server.services.store.db;
      const customer = await db
        .selectFrom("customers")
        .select("id")
        .where("email_key", "=", "sam.tickets@example.com")
        .executeTakeFirstOrThrow();
      const someoneElse = randomUUID();
      const insert = async (number: string, performance: string | null, customerId: string | null = customer.id) => {
        const id = randomUUID();
        const now = new Date().toISOString();
        await db
          .insertInto("orders")
          .values({
            id,
            number,
            basket_id: randomUUID(),
            status: "paid",
            currency: "GBP",
            customer_name: "Sam Lee",
            email: "sam.tickets@example.com",
            performance_id: performance,
            show_name: performance ? "Test Show" : "Plus membership",
            delivery_method: performance ? "eTicket" : null,
            lines: "{}",
            total: 7_350,
            to_pay: 7_350,
            promo_code_id: null,
            contacts: null,
            paid_at: now,
            language: "en-GB",
            access_key: randomBytes(24).toString("base64url"),
            customer_id: customerId,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await db
          .insertInto("order_tickets")
          .values({
            id: randomUUID(),
            order_id: id,
            ref: `seat:${number}`,
            label: `Stalls, row A, seat ${number.slice(-1)}`,
            barcode: randomBytes(10).toString("hex").toUpperCase(),
            sort_order: 0,
          })
          .execute();
        return id;
      };
      await insert("UPCOM-00001", performanceId);
      await insert("PASTO-00002", pastPerformanceId);
      await insert("MEMBR-00003", null);
      await insert("OTHER-00004", performanceId, someoneElse);

      const page = decode(await (await buyer.get("/account")).text());
      const main = between(page, "<h2", "</main>");
      const upcoming = between(main, "Upcoming performances", "Past performances");
      const past = main.slice(main.indexOf("Past performances"));
      expect(upcoming).toContain("UPCOM-00001");
      expect(upcoming).not.toContain("PASTO-00002");
      expect(past).toContain("PASTO-00002");
      expect(past).not.toContain("UPCOM-00001");
      // A membership is not a ticket, and another customer's order is not Sam's.
      expect(main).not.toContain("MEMBR-00003");
      expect(main).not.toContain("OTHER-00004");

      const starts = await db
        .selectFrom("performances")
        .select("starts_at")
        .where("id", "=", performanceId)
        .executeTakeFirstOrThrow();
      expect(upcoming).toContain(formatDateTime(starts.starts_at, VENUE_TIME_ZONE, "en-GB"));
      expect(upcoming).not.toContain(formatDateTime(starts.starts_at, "UTC", "en-GB"));
      expect(upcoming).toContain("Stalls, row A, seat 1");
      expect(upcoming).toContain("£73.50");
      expect(upcoming).toContain("Test Hall");

      // The link is the order's own e-tickets page (that it shows the barcodes is the purchase test's).
      const upcomingKey = await db
        .selectFrom("orders")
        .select("access_key")
        .where("number", "=", "UPCOM-00001")
        .executeTakeFirstOrThrow();
      expect(upcoming).toContain(`href="/e-tickets/${upcomingKey.access_key}"`);
    });

    it("links to Manage details and Sign out", async () => {
      const buyer = browser();
      await register(server, buyer, { firstName: "Lin", lastName: "Ma", email: "lin@example.com" });
      const page = decode(await (await buyer.get("/account")).text());
      expect(page).toMatch(/<a[^>]*href="\/account\/details"[^>]*>Manage your details<\/a>/);
      expect(page).toMatch(/<a[^>]*href="\/account\/sign-out"[^>]*>Sign out<\/a>/);
    });
  });

  describe("creating an account after buying", () => {
    const customerCount = async () =>
      Number(
        (
          await server.services.store.db
            .selectFrom("customers")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const customerOf = async (orderId: string) =>
      (
        await server.services.store.db
          .selectFrom("orders")
          .select("customer_id")
          .where("id", "=", orderId)
          .executeTakeFirstOrThrow()
      ).customer_id;

    it("a guest asks for an account: nothing exists until the emailed link is followed; then it holds the order, signed in", async () => {
      const buyer = browser();
      const order = await buy(buyer, ["B3", "B4"], { firstName: "Ada", lastName: "Byron", email: "ada@example.com" });
      const page = decode(await (await buyer.get("/checkout/confirmation")).text());
      expect(page).toContain("Create an account");
      expect(page).toContain("Create an account for ada@example.com: we'll email you a link to choose a password.");
      // The password is chosen by whoever opens the email, never on this page.
      expect(page).not.toMatch(/<input[^>]*name="password"/);

      const asked = await buyer.post("/checkout/confirmation", { intent: "signUp" });
      expect(asked.status).toBe(303);
      expect(asked.headers.get("Location")).toBe("/checkout/confirmation?account=sent");
      const sent = decode(await (await buyer.get("/checkout/confirmation?account=sent")).text());
      expect(sent).toContain(
        "We've sent an email to ada@example.com with a link to create your account. Open it to choose a password; the link works for 24 hours.",
      );
      expect(sent).not.toMatch(/<button[^>]*value="signUp"/);
      expect(await customerOf(order.id)).toBeNull();
      expect(buyer.cookies.has("auth")).toBe(false);
      expect(
        await server.services.store.db
          .selectFrom("customers")
          .select("id")
          .where("email_key", "=", "ada@example.com")
          .execute(),
      ).toEqual([]);

      const link = await emailedLink(server.services, "ada@example.com", "signUpLink");
      const choose = decode(await (await buyer.get(link)).text());
      expect(choose).toContain("Choose a password to finish creating the account for ada@example.com.");
      // A new password: the browser offers to make one up, and never fills in an old one.
      expect(inputTag(choose, "password")).toContain('type="password" autoComplete="new-password"');
      expect(inputTag(choose, "password")).not.toContain("value=");
      const short = await buyer.post(link, { password: "short" });
      expect(short.status).toBe(400);
      const shortPage = decode(await short.text());
      expect(shortPage).toMatch(/<title>Error: /);
      expect(shortPage).toContain("Your password must be between 8 and 200 characters long");

      const made = await buyer.post(link, { password: PASSWORD });
      expect(made.status).toBe(303);
      expect(made.headers.get("Location")).toBe("/account?account=created");
      const stored = await server.services.store.db
        .selectFrom("customers")
        .selectAll()
        .where("email_key", "=", "ada@example.com")
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ first_name: "Ada", last_name: "Byron" });
      expect(await customerOf(order.id)).toBe(stored.id);

      const home = decode(await (await buyer.get("/account?account=created")).text());
      expect(home).toContain("Your account has been created.");
      expect(home).toContain("Signed in as Ada Byron (ada@example.com).");
      expect(home).not.toContain(PASSWORD);
      const upcoming = between(home, "Upcoming performances", "Past performances");
      expect(upcoming).toContain(order.number);
      expect(upcoming).toContain("Stalls, row B, seat 3");
      const tickets = /href="(\/e-tickets\/[\w-]+)"/.exec(upcoming)![1]!;
      expect((await (await buyer.get(tickets)).text()).match(/<svg/g)?.length).toBe(2);

      // Asking again changes nothing: the order is Ada's, and she is signed in.
      const repeat = await buyer.post("/checkout/confirmation", { intent: "signUp" });
      expect(repeat.headers.get("Location")).toBe("/checkout/confirmation");
      expect(await emailsTo(server.services, "ada@example.com", "signUpLink")).toHaveLength(1);
    });

    it("whoever uses the browser next and presses Create account gets no account: only the buyer's email can make it", async () => {
      const buyer = browser();
      const order = await buy(buyer, ["A5"], { firstName: "Val", lastName: "Kiosk", email: "val@example.com" });
      const before = await customerCount();
      // The next person at the kiosk, with the confirmation still open, as issue 53 found it.
      const next = buyer;
      const pressed = await next.post("/checkout/confirmation", {
        intent: "signUp",
        password: "next person's password",
      });
      expect(pressed.headers.get("Location")).toBe("/checkout/confirmation?account=sent");
      expect(await customerCount()).toBe(before);
      expect(next.cookies.has("auth")).toBe(false);
      expect(await customerOf(order.id)).toBeNull();
      const signIn = await browser().post("/account/sign-in", {
        email: "val@example.com",
        password: "next person's password",
        redirectTo: "",
      });
      expect(signIn.status).toBe(400);
      // The link went to the buyer's email alone.
      const [mail] = await emailsTo(server.services, "val@example.com", "signUpLink");
      expect(mail!.text_body).toMatch(/\/account\/create\/[\w-]{43}/);
    });

    it("an email that has an account already: the same answer, its owner told by email, and the order stays unclaimed", async () => {
      await register(server, browser(), { firstName: "Kim", lastName: "Park", email: "kim@example.com" });
      const buyer = browser();
      const order = await buy(buyer, ["B5"], { firstName: "Kim", lastName: "Park", email: "kim@example.com" });
      const asked = await buyer.post("/checkout/confirmation", { intent: "signUp" });
      expect(asked.status).toBe(303);
      expect(asked.headers.get("Location")).toBe("/checkout/confirmation?account=sent");
      const [warning] = await emailsTo(server.services, "kim@example.com", "alreadyRegistered");
      expect(warning!.text_body).toContain("you already have one");
      expect(await emailsTo(server.services, "kim@example.com", "signUpLink")).toHaveLength(1);
      expect(buyer.cookies.has("auth")).toBe(false);
      expect(await customerOf(order.id)).toBeNull();
    });

    it("an order that has an account by the time the button is pressed: the spec's wording and the three ways on", async () => {
      const buyer = browser();
      const order = await buy(buyer, ["B8"], { firstName: "Lee", lastName: "Chan", email: "lee@example.com" });
      expect(decode(await (await buyer.get("/checkout/confirmation")).text())).toContain("Create an account");
      // Claimed meanwhile (its link followed in another browser).
      await register(server, browser(), { firstName: "Lee", lastName: "Chan", email: "lee.c@example.com" });
      const owner = await server.services.store.db
        .selectFrom("customers")
        .select("id")
        .where("email_key", "=", "lee.c@example.com")
        .executeTakeFirstOrThrow();
      await server.services.store.db
        .updateTable("orders")
        .set({ customer_id: owner.id })
        .where("id", "=", order.id)
        .execute();
      const refused = await buyer.post("/checkout/confirmation", { intent: "signUp" });
      expect(refused.status).toBe(409);
      const page = decode(await refused.text());
      expect(page).toMatch(/<title>Error: /);
      const failure = between(page, '<div class="message message--error" id="sign-up-failed"', "</div>");
      expect(failure).toContain("Sorry, we couldn't create your account");
      expect(failure).toMatch(/<a[^>]*href="\/account\/sign-in"[^>]*>Sign in to your account<\/a>/);
      expect(failure).toMatch(/<a[^>]*href="\/account\/forgotten-password"[^>]*>Reset your password<\/a>/);
      // The venue's own number (Test Hall's), not the deployment's.
      expect(failure).toMatch(/<a[^>]*href="tel:02079460999"[^>]*>Contact support on 020 7946 0999<\/a>/);
      // The summary at the top leads to it.
      expect(page).toContain('href="#sign-up-failed"');
      expect(await emailsTo(server.services, "lee@example.com", "signUpLink")).toEqual([]);
    });

    it("acts only on the buyer's own paid order: another browser's post creates nothing and sends nothing", async () => {
      const before = await customerCount();
      const mails = (await server.services.store.db.selectFrom("email_outbox").select("id").execute()).length;
      const stranger = browser();
      const posted = await stranger.post("/checkout/confirmation", { intent: "signUp", orderId: randomUUID() });
      expect(posted.status).toBe(303);
      expect(posted.headers.get("Location")).toBe("/checkout/confirmation");
      expect(await customerCount()).toBe(before);
      expect((await server.services.store.db.selectFrom("email_outbox").select("id").execute()).length).toBe(mails);
    });

    it("a signed-in buyer's confirmation offers no account", async () => {
      const buyer = browser();
      await register(server, buyer, { firstName: "Ravi", lastName: "Shah", email: "ravi@example.com" });
      await buy(buyer, ["B6"], { firstName: "Ravi", lastName: "Shah", email: "ravi@example.com" });
      const page = decode(await (await buyer.get("/checkout/confirmation")).text());
      expect(page).toContain("Thank you, Ravi Shah.");
      expect(page).not.toContain("Create an account");
    });

    it("nor does a guest's order once someone is signed in in that browser", async () => {
      const buyer = browser();
      const order = await buy(buyer, ["B7"], { firstName: "Noor", lastName: "Ali", email: "noor@example.com" });
      expect(decode(await (await buyer.get("/checkout/confirmation")).text())).toContain("Create an account");
      await register(server, buyer, { firstName: "Noor", lastName: "Ali", email: "noor.other@example.com" });
      const page = decode(await (await buyer.get("/checkout/confirmation")).text());
      expect(page).toContain(order.number);
      expect(page).not.toContain("Create an account");
      expect((await buyer.post("/checkout/confirmation", { intent: "signUp" })).headers.get("Location")).toBe(
        "/checkout/confirmation",
      );
      expect(await customerOf(order.id)).toBeNull();
    });
  });

  describe("the confirmation in a shared browser", () => {
    /** What the confirmation address shows this browser: the order's number, or that there is none. */
    async function shown(buyer: Buyer, number: string) {
      const response = await buyer.get("/checkout/confirmation");
      expect(response.status).toBe(200);
      const page = decode(await response.text());
      if (page.includes(number)) return "order";
      expect(page).toContain("We can't find a completed order for you.");
      expect(page).not.toMatch(/href="\/e-tickets\//);
      return "none";
    }

    it("shows the order for 30 minutes after paying, then as to someone who never bought; the email keeps the e-tickets", async () => {
      const buyer = browser();
      const order = await buy(buyer, ["A6"], { firstName: "Sol", lastName: "Day", email: "sol@example.com" });
      clock.advance(30 * 60_000 - 1);
      expect(await shown(buyer, order.number)).toBe("order");
      clock.advance(1);
      expect(await shown(buyer, order.number)).toBe("none");
      expect(await shown(browser(), order.number)).toBe("none");
      // Too late for the offer too: the form's post finds no order.
      expect((await buyer.post("/checkout/confirmation", { intent: "signUp" })).headers.get("Location")).toBe(
        "/checkout/confirmation",
      );
      expect(await emailsTo(server.services, "sol@example.com", "signUpLink")).toEqual([]);
      // The cookie's own life ends then too.
      const cookie = (await server.services.sessions.orderCookie.serialize(order.id)).toLowerCase();
      expect(cookie).toContain("max-age=1800");
      const [confirmation] = await emailsTo(server.services, "sol@example.com", "orderConfirmation");
      expect(confirmation!.text_body).toContain(`/e-tickets/${order.access_key}`);
      expect((await browser().get(`/e-tickets/${order.access_key}`)).status).toBe(200);
    });

    it("hides the order at once when the buyer says the computer is shared", async () => {
      const buyer = browser();
      const order = await buy(buyer, ["A7"], { firstName: "Ida", lastName: "Wells", email: "ida@example.com" });
      const page = decode(await (await buyer.get("/checkout/confirmation")).text());
      expect(page).toContain("Using a shared computer?");
      expect(page).toMatch(
        /<button[^>]*name="intent"[^>]*value="forget"[^>]*>Hide my order: this is a shared computer<\/button>/,
      );
      const hidden = await buyer.post("/checkout/confirmation", { intent: "forget" });
      expect(hidden.status).toBe(303);
      expect(hidden.headers.get("Location")).toBe("/checkout/confirmation");
      expect(await shown(buyer, order.number)).toBe("none");
      expect(decode(await (await buyer.get("/checkout/confirmation")).text())).toContain(
        "The link to your e-tickets is in the confirmation email.",
      );
    });

    it("hides the order when the buyer signs out", async () => {
      const buyer = browser();
      await register(server, buyer, { firstName: "Ola", lastName: "Berg", email: "ola@example.com" });
      const order = await buy(buyer, ["A8"], { firstName: "Ola", lastName: "Berg", email: "ola@example.com" });
      expect(await shown(buyer, order.number)).toBe("order");
      const out = await buyer.post("/account/sign-out", {});
      expect(out.headers.get("Location")).toBe("/");
      expect(await shown(buyer, order.number)).toBe("none");
    });
  });
});

describe("Manage details when the update fails", () => {
  let server: Server;
  let failure: "refused" | "thrown" = "refused";
  beforeAll(async () => {
    server = await startServer(
      {},
      {
        adjust: (services) => {
          // The profile service's seam: the same page, with a store that will not take the change.
          services.customers = {
            ...services.customers,
            updateProfile: () =>
              failure === "refused" ? Promise.resolve(false) : Promise.reject(new Error("the store went away")),
          };
        },
      },
    );
  });
  afterAll(() => server.close());

  it.each(["refused", "thrown"] as const)(
    "an update that is %s: the spec's wording, and what was typed is kept",
    async (kind) => {
      failure = kind;
      const buyer = buyerBrowser(server.url);
      await register(server, buyer, { firstName: "Al", lastName: "Jones", email: `al.${kind}@example.com` });
      const response = await buyer.post("/account/details", {
        firstName: "Alan",
        lastName: "Jones",
        phone: "020 7946 0000",
        ...ADDRESS_GB,
        contactConsent: "on",
      });
      expect(response.status).toBe(500);
      const page = decode(await response.text());
      expect(page).toMatch(/<title>Error: /);
      expect(page).toContain("Your changes were not saved.");
      expect(inputTag(page, "firstName")).toContain('value="Alan"');
      expect(inputTag(page, "addressLine1")).toContain('value="1 High Street"');
      expect(inputTag(page, "contactConsent")).toContain("checked");
      const profile = await server.services.store.db
        .selectFrom("customers")
        .select(["first_name", "address"])
        .where("email_key", "=", `al.${kind}@example.com`)
        .executeTakeFirstOrThrow();
      expect(profile).toEqual({ first_name: "Al", address: null });
    },
  );
});
