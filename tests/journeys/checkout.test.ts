import { randomUUID } from "node:crypto";
import { getByLabelText, getByRole, queryAllByRole } from "@testing-library/dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillCard, orderNumber } from "../support/no-script-checkout";
import { demoBuyer, goodPerformance, pathOf, startDemoServer, type DemoServer } from "../support/demo-journey";
import { validateAllPages, type HtmlDriver } from "../support/html-driver";
import { sentMail } from "../support/outbox";

// From held seats to a paid order, without script, in a UK and a US deployment (the no-script
// runs of tests/e2e/purchase.spec.ts): extras, ticket protection, post (mail), contact details, a
// promo code and a part-paying voucher, a 3-D Secure card, the confirmation and its email; a
// declined card and then another, and the e-tickets; PayPal; Pay pressed twice; a card whose bank
// never answers; and every message of the steps, the contact details and the card.
//
// The full purchase finds its seats as a buyer does (best available on the tickets page). The
// other journeys are not about finding seats, and the seat map is by far the dearest page to read,
// so they start from a basket seeded with what best available would have held, on the page best
// available lands on (Best available tickets), where the buyer accepts the seats.

const PROFILES = [
  {
    language: "en-GB",
    // Harbour Playhouse (900 seats): post, and a performance notice to acknowledge.
    show: "a-winters-crossing",
    calendar: "/shows/a-winters-crossing/harbour-playhouse/calendar",
    extra: "Quantity of Programme",
    post: "Post",
    address: { city: "Town or city", postcode: ["Postcode", "sw1a 2aa"], state: null },
    addressMessages: ["Please enter your postcode"],
    phone: "020 7946 0000",
    promo: "SPRING20",
    voucher: {
      label: ["Voucher number", "Redemption code"],
      code: ["GV-2026-0011", "5K2P7A"],
      apply: "Apply voucher",
      applied: "Gift voucher ending 0011",
    },
    // Harbour Playhouse asks no questions.
    question: null,
    questionMessages: [],
    text: null,
    brandMessage: "Please enter a valid Visa, Visa Debit, Mastercard or American Express card number",
  },
  {
    language: "en-US",
    // Liberty Theatre: mail to a US address (State, ZIP code), and the venue's two questions.
    show: "broadway-lights",
    calendar: "/shows/broadway-lights/liberty-theatre/calendar",
    extra: "Quantity of Souvenir program",
    post: "Mail",
    address: { city: "City", postcode: ["ZIP code", "10036"], state: "New York" },
    addressMessages: ["Please select your state", "Please enter a ZIP code"],
    phone: "(212) 555-0100",
    promo: "BROADWAY25",
    voucher: {
      label: ["Gift card number", "Access number"],
      code: ["6015-0000-3333", "3309"],
      apply: "Apply gift card",
      applied: "Gift card ending 3333",
    },
    question: "Social media",
    questionMessages: ["Please select an answer", "Please write your answer here"],
    text: "Boston",
    brandMessage: "Please enter a valid Visa, Visa Debit, Mastercard, or American Express card number",
  },
] as const;

type Profile = (typeof PROFILES)[number];

const ORDER_NUMBER = /^[0-9A-Z]{5}-[0-9A-Z]{5}$/;

/** PAYMENT_TIMEOUT_SECONDS at its default (30 s), and a second more. */
const PAST_PAYMENT_TIMEOUT_MS = 31_000;

const h1 = (buyer: HtmlDriver) => buyer.document.querySelector("h1")?.textContent?.trim();

/** What the page's alerts say (the error summary, the payment page's notices), as one string. */
const alerts = (buyer: HtmlDriver) =>
  queryAllByRole(buyer.document.body, "alert")
    .map((alert) => alert.textContent)
    .join(" ");

/** The order summary beside each step ("Your order"). */
const summary = (buyer: HtmlDriver) =>
  getByRole(buyer.document.body, "table", { name: "Your order" }).textContent ?? "";

/** What the field labelled `label` holds now. */
const valueOf = (buyer: HtmlDriver, label: string) =>
  (getByLabelText(buyer.document.body, label, { selector: "input" }) as HTMLInputElement).value;

const has = (buyer: HtmlDriver, words: string) => buyer.text().includes(words);

// A journey through a tickets page reads a seat map of hundreds of labelled seats, each visit a
// few seconds of checks: more than vitest's 20 s default on two busy cores.
describe("checkout without script", { timeout: 45_000 }, () => {
  let server: DemoServer;

  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await server.close();
  });

  /** On Best available tickets: acknowledges what the performance asks to be read, and accepts. */
  async function acceptSeats(buyer: HtmlDriver) {
    expect(pathOf(buyer)).toBe("/checkout/reservations");
    expect(h1(buyer)).toBe("Best available tickets");
    if (has(buyer, "I have read this notice")) buyer.check("I have read this notice");
    await buyer.press("Accept these seats");
    expect(pathOf(buyer)).toBe("/checkout/extras");
  }

  /** Best available for `count` seats on the show's first good date, through its calendar. */
  async function findSeats(buyer: HtmlDriver, profile: Profile, count: number) {
    await goodPerformance(buyer, profile.calendar, 0);
    buyer.select("Number of seats", String(count));
    await buyer.press("Find seats");
    await acceptSeats(buyer);
  }

  /**
   * What findSeats does, without reading the seat map: the seat best available finds for one, on a
   * later performance on general sale than findSeats's, is held for a new basket, whose cookie the
   * browser is given; the buyer accepts it on Best available tickets.
   */
  async function seededSeats(buyer: HtmlDriver, profile: Profile) {
    const { store, seatSearch, inventory, sessions, clock } = server.services;
    const now = clock.now().toISOString();
    const performances = await store.db
      .selectFrom("performances")
      .innerJoin("runs", "runs.id", "performances.run_id")
      .innerJoin("titles", "titles.id", "runs.title_id")
      .select("performances.id")
      .where("titles.slug", "=", profile.show)
      .where("performances.presale_from", "is", null)
      .where("performances.on_sale_from", "<=", now)
      .where("performances.starts_at", ">", now)
      .orderBy("performances.starts_at")
      .limit(10)
      .execute();
    // The demo sells some performances out on purpose: the first after the first that has a seat.
    let found: { performanceId: string; seatIds: number[] } | null = null;
    for (const { id: performanceId } of performances.slice(1)) {
      const seats = await seatSearch.search(performanceId, { quantity: 1 });
      if (seats && !("ok" in seats)) {
        found = { performanceId, seatIds: seats.seatIds };
        break;
      }
    }
    expect(found).not.toBeNull();
    const basketId = randomUUID();
    expect((await inventory.holdSeats({ basketId, ...found! })).ok).toBe(true);
    buyer.setCookie(await sessions.basketCookie.serialize(basketId));
    await buyer.open("/checkout/reservations");
    await acceptSeats(buyer);
  }

  async function continueTo(buyer: HtmlDriver, path: string) {
    await buyer.press("Continue");
    expect(buyer.status).toBe(200);
    expect(pathOf(buyer)).toBe(path);
  }

  /** The contact details (and the address, when posting), and the venue's questions answered. */
  function fillContacts(buyer: HtmlDriver, profile: Profile, email: string, post: boolean) {
    buyer
      .fill("First name", "Jo")
      .fill("Last name", "Bloggs")
      .fill("Email address", email)
      .fill("Confirm email address", email)
      .fill("Phone number", profile.phone);
    if (post) {
      buyer.fill("Address line 1", "1 Main Street").fill(profile.address.city, "Springfield");
      if (profile.address.state) buyer.select("State", profile.address.state);
      buyer.fill(profile.address.postcode[0], profile.address.postcode[1]);
    }
    if (profile.question) buyer.choose(profile.question);
    if (profile.text) buyer.fill(/traveling from/, profile.text);
    buyer.check("I accept the Terms and Conditions");
  }

  /** Extras, protection, delivery and contact details, from the extras page to the payment page. */
  async function answerSteps(
    buyer: HtmlDriver,
    profile: Profile,
    options: { extra: boolean; protect: boolean; post: boolean; email: string },
  ) {
    if (options.extra) buyer.fill(profile.extra, "1");
    await continueTo(buyer, "/checkout/ticket-protection");
    buyer.choose(
      options.protect ? "Yes, please protect my tickets" : "No, I accept that my tickets are non-refundable",
    );
    await continueTo(buyer, "/checkout/collection");
    buyer.choose(options.post ? new RegExp(`^${profile.post}`) : /^E-ticket/);
    await continueTo(buyer, "/checkout/contacts");
    fillContacts(buyer, profile, options.email, options.post);
    await continueTo(buyer, "/checkout/payment");
  }

  /** Seeded seats, no extras, no protection, e-tickets: on to the payment page. */
  async function toPayment(buyer: HtmlDriver, profile: Profile, email: string) {
    await seededSeats(buyer, profile);
    await answerSteps(buyer, profile, { extra: false, protect: false, post: false, email });
  }

  async function payByCard(buyer: HtmlDriver, number: string) {
    fillCard(buyer, number);
    await buyer.press(/^Pay /);
  }

  describe.each(PROFILES)("$language", (profile) => {
    const newBuyer = () => demoBuyer(server, profile.language);

    it("a full purchase: extras, protection, post, a promo code, a part-paying voucher, a 3-D Secure card, the confirmation and its email", async () => {
      const buyer = newBuyer();
      const email = `full-${profile.language}@example.com`;
      await findSeats(buyer, profile, 2);
      await answerSteps(buyer, profile, { extra: true, protect: true, post: true, email });
      expect(summary(buyer)).toContain("Ticket refund protection × 2");
      expect(summary(buyer)).toContain(profile.post);
      expect(summary(buyer)).not.toContain("To pay");

      buyer.fill("Promo code", profile.promo);
      await buyer.press("Apply code");
      expect(pathOf(buyer)).toBe("/checkout/payment");
      expect(summary(buyer)).toContain(`Promo code ${profile.promo}`);
      buyer
        .fill(profile.voucher.label[0], profile.voucher.code[0])
        .fill(profile.voucher.label[1], profile.voucher.code[1]);
      await buyer.press(profile.voucher.apply);
      expect(pathOf(buyer)).toBe("/checkout/payment");
      expect(summary(buyer)).toContain(profile.voucher.applied);
      expect(summary(buyer)).toContain("To pay");

      // Device data collection and the way to the challenge go by themselves with script; without
      // it, the buyer presses Continue for each (a POST to the bank needs a button).
      await payByCard(buyer, "4000 0000 0000 3220");
      expect(pathOf(buyer)).toBe("/checkout/verify");
      expect(has(buyer, "We're checking your card with your bank.")).toBe(true);
      await buyer.press("Continue");
      expect(has(buyer, "Your bank needs to confirm it's you.")).toBe(true);
      await buyer.press("Continue");
      expect(h1(buyer)).toBe("Sandbox bank: confirm this payment");
      await buyer.press("Complete authentication");
      expect(pathOf(buyer)).toBe("/checkout/confirmation");
      expect(h1(buyer)).toBe("Order complete");
      const number = orderNumber(buyer);
      expect(number).toMatch(ORDER_NUMBER);
      expect(has(buyer, `We've sent a confirmation email to ${email}.`)).toBe(true);
      expect(has(buyer, `Delivery${profile.post}`)).toBe(true);
      const region = profile.address.state ? "NY" : "";
      expect(has(buyer, `1 Main StreetSpringfield${region}${profile.address.postcode[1].toUpperCase()}`)).toBe(true);
      expect(buyer.cookies().has("basket")).toBe(false);

      const mail = await sentMail(server, number);
      expect(mail).toMatch(new RegExp(`^To: ${email}\r?$`, "m"));
      expect(mail).toContain(profile.post);
    });

    it("a declined card reaches the failed page; another card then pays, and the e-tickets open", async () => {
      const buyer = newBuyer();
      await toPayment(buyer, profile, `declined-${profile.language}@example.com`);
      await payByCard(buyer, "4000 0000 0000 0002");
      expect(pathOf(buyer)).toBe("/checkout/failed");
      expect(h1(buyer)).toBe("Your payment was unsuccessful");
      expect(has(buyer, "Your card has not been charged")).toBe(true);
      await buyer.follow("Try again");
      expect(pathOf(buyer)).toBe("/checkout/payment");
      expect(alerts(buyer)).toContain("Your last payment didn't go through");
      await payByCard(buyer, "5555 5555 5555 4444");
      expect(pathOf(buyer)).toBe("/checkout/confirmation");
      expect(h1(buyer)).toBe("Order complete");
      expect(has(buyer, "DeliveryE-ticket")).toBe(true);
      const number = orderNumber(buyer);

      await buyer.follow("View and print your e-tickets");
      expect(buyer.status).toBe(200);
      expect(pathOf(buyer)).toMatch(/^\/e-tickets\//);
      expect(h1(buyer)).toBe("Your e-tickets");
      expect(has(buyer, `Order ${number} · Jo Bloggs`)).toBe(true);
      // One ticket, one barcode.
      expect(buyer.document.querySelectorAll("svg")).toHaveLength(1);
    });

    it("pressing Pay twice charges once", async () => {
      const buyer = newBuyer();
      await toPayment(buyer, profile, `twice-${profile.language}@example.com`);
      fillCard(buyer, "4242 4242 4242 4242");
      const charges = server.services.sandboxGateway!.charges;
      await buyer.pressTwice(/^Pay /);
      expect(pathOf(buyer)).toBe("/checkout/confirmation");
      expect(h1(buyer)).toBe("Order complete");
      expect(server.services.sandboxGateway!.charges).toBe(charges + 1);
      const number = orderNumber(buyer);
      await buyer.open("/sandbox/payments");
      const rows = [...getByRole(buyer.document.body, "table").querySelectorAll("tbody tr")].filter((row) =>
        row.textContent?.includes(number),
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.textContent).toContain("Charged");
    });

    // The buyer whose card timed out tries again with PayPal: two journeys of the e2e spec on one
    // basket, since the steps before payment cost more than either.
    it("a card whose bank never answers ends in the timeout message; trying again, PayPal approved on PayPal's page pays", async () => {
      const buyer = newBuyer();
      await toPayment(buyer, profile, `timeout-${profile.language}@example.com`);
      // Pay waits a moment (3 s, real time) for a quick answer before showing the waiting page.
      await payByCard(buyer, "4000 0000 0000 0119");
      expect(pathOf(buyer)).toBe("/checkout/verify");
      expect(h1(buyer)).toBe("Processing your payment");
      expect(buyer.metaRefresh).not.toBeNull();
      await buyer.refresh();
      expect(h1(buyer)).toBe("Processing your payment");
      // The reloading is a time limit the buyer can turn off (WCAG 2.2.1), and Check again keeps it off.
      await buyer.follow("Stop checking by itself");
      expect(buyer.metaRefresh).toBeNull();
      expect(buyer.text()).toContain("This page no longer checks by itself. Press Check again when you are ready.");
      await buyer.press("Check again");
      expect(h1(buyer)).toBe("Processing your payment");
      expect(buyer.metaRefresh).toBeNull();
      // The page decides by the server's clock: past PAYMENT_TIMEOUT_SECONDS, the next check says so.
      server.clock.advance(PAST_PAYMENT_TIMEOUT_MS);
      await buyer.press("Check again");
      expect(pathOf(buyer)).toBe("/checkout/verify");
      expect(has(buyer, "Your payment has timed out.")).toBe(true);
      expect(buyer.text()).toMatch(/within 10 minutes/);
      expect(buyer.metaRefresh).toBeNull();

      await buyer.follow("Try again");
      expect(pathOf(buyer)).toBe("/checkout/payment");
      expect(alerts(buyer)).toContain("Your last payment didn't go through");
      buyer.choose("PayPal");
      await buyer.press(/^Pay /);
      expect(pathOf(buyer)).toBe("/checkout/verify");
      expect(has(buyer, "You'll go to PayPal to approve the payment.")).toBe(true);
      await buyer.follow("Continue");
      expect(h1(buyer)).toBe("Sandbox PayPal");
      await buyer.press("Approve payment");
      expect(pathOf(buyer)).toBe("/checkout/confirmation");
      expect(h1(buyer)).toBe("Order complete");
      expect(orderNumber(buyer)).toMatch(ORDER_NUMBER);
    });

    it("every step, contact and card message, each in its condition", async () => {
      const buyer = newBuyer();
      await seededSeats(buyer, profile);
      await continueTo(buyer, "/checkout/ticket-protection");
      // Neither answer is ticked, and the free one comes first: a text browser that ticks a
      // group's first radio by itself buys nothing (decision 0014).
      const answers = [...buyer.document.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
      expect(answers.map((answer) => answer.labels?.[0]?.textContent?.trim())).toEqual([
        "No, I accept that my tickets are non-refundable",
        "Yes, please protect my tickets",
      ]);
      expect(answers.some((answer) => answer.checked)).toBe(false);
      await buyer.press("Continue");
      expect(buyer.status).toBe(400);
      expect(buyer.document.title).toMatch(/^Error: /);
      expect(alerts(buyer)).toContain("Please select an answer");
      buyer.choose("No, I accept that my tickets are non-refundable");
      await continueTo(buyer, "/checkout/collection");
      await buyer.press("Continue");
      expect(buyer.document.title).toMatch(/^Error: /);
      expect(alerts(buyer)).toContain("Please select a delivery method");
      buyer.choose(new RegExp(`^${profile.post}`));
      await continueTo(buyer, "/checkout/contacts");

      buyer
        .fill("Email address", "jo@example")
        .fill("Confirm email address", "someone@example.com")
        .fill(profile.address.city, "x".repeat(41));
      await buyer.press("Continue");
      expect(pathOf(buyer)).toBe("/checkout/contacts");
      expect(buyer.document.title).toMatch(/^Error: /);
      for (const text of [
        "Please enter your first name",
        "Please enter your last name",
        "Please enter a valid email address",
        "Please enter a valid phone number",
        "Please enter your address",
        "City must not be more than 40 characters long",
        ...profile.addressMessages,
        ...profile.questionMessages,
        "Please accept the Terms and Conditions",
      ])
        expect(alerts(buyer)).toContain(text);
      // What the buyer typed is kept.
      expect(valueOf(buyer, "Email address")).toBe("jo@example");
      expect(valueOf(buyer, profile.address.city)).toBe("x".repeat(41));

      // Put right, on to payment, where the card's own messages come.
      fillContacts(buyer, profile, "jo@example.com", true);
      await continueTo(buyer, "/checkout/payment");
      // The card form is what the page shows, so the card is the method until the buyer picks
      // another: pressing Pay asks for the card's details, not for a tick nobody saw was missing.
      expect(
        (getByRole(buyer.document.body, "radio", { name: "Credit or debit card" }) as HTMLInputElement).checked,
      ).toBe(true);
      await buyer.press(/^Pay /);
      expect(buyer.document.title).toMatch(/^Error: /);
      expect(alerts(buyer)).toContain("Please enter a valid credit card number");
      expect(alerts(buyer)).not.toContain("Please select a payment method");
      buyer
        .fill("Card number", "1234")
        .fill("Name on card", "Jo")
        .fill("Expiry date", "13/30")
        .fill("Security code (CVV)", "12");
      await buyer.press(/^Pay /);
      expect(buyer.document.title).toMatch(/^Error: /);
      for (const text of [
        "Please enter a valid credit card number",
        "Please enter your first and last name",
        "Please enter a valid month for your expiration date",
        "Please enter your card's CVV number",
      ])
        expect(alerts(buyer)).toContain(text);
      // What the buyer typed is kept, except the card number and CVV.
      expect(valueOf(buyer, "Name on card")).toBe("Jo");
      expect(valueOf(buyer, "Expiry date")).toBe("13/30");
      expect(valueOf(buyer, "Card number")).toBe("");
      expect(valueOf(buyer, "Security code (CVV)")).toBe("");

      buyer.fill("Card number", "6011 1111 1111 1117").fill("Expiry date", "12/1");
      await buyer.press(/^Pay /);
      expect(alerts(buyer)).toContain(profile.brandMessage);
      expect(alerts(buyer)).toContain("Please enter a valid expiration year");
    });
  });

  // Once, for every distinct page the journeys received: Java starts once for this file.
  it("every page the journeys received passes the Nu HTML Checker", async () => {
    await validateAllPages();
  });
});
