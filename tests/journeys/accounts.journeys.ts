import { getByLabelText, getByRole, queryByLabelText, queryByRole, within } from "@testing-library/dom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoBuyer, goodPerformance, pathOf, startDemoServer, type DemoServer } from "../support/demo-journey";
import { validateAllPages, type DriverOptions, type HtmlDriver } from "../support/html-driver";
import { registerCustomer } from "../support/customers";
import { emailedLink } from "../support/outbox";

// Accounts and memberships without script, in each language on a venue of its country: register,
// sign out and in; buy the Plus membership through the checkout and book a presale performance
// with a member's benefits; register access needs and book a wheelchair space with its companion
// seat; create an account on the confirmation page; a presale code for a non-member; an Amex-seat
// basket refusing a Visa; and sign-in throttling (the no-script runs of tests/e2e/accounts.spec.ts).
//
// Each language has a deployment of its own: the Plus membership is sold in the deployment's
// currency (config.market follows LANGUAGE), so only a US deployment sells it in dollars. It also
// keeps each language's sign-in throttling, which locks the one address every driver comes from
// (127.0.0.1), away from the other's sign-ins; within a deployment it is the last journey.

const PASSWORD = "correct horse battery staple";

interface Market {
  language: "en-GB" | "en-US";
  env: Record<string, string>;
  /** The Plus membership in the deployment's currency, and its end as My account words it. */
  plus: { join: string; pay: string; until: string };
  /** The show with presale performances (the last weeks of its run). */
  presale: string;
  presaleCode: string;
  /** A seat for American Express cardholders on the presale show's map. */
  amexSeat: RegExp;
  /** A small house with a wheelchair space and its companion seat. */
  access: { calendar: string; space: RegExp; companion: RegExp; basket: [string, string] };
  /** A small house for the guest's order. */
  guest: { calendar: string; show: string };
  phone: string;
}

const MARKETS: Market[] = [
  {
    language: "en-GB",
    env: {},
    plus: { join: "Join Plus for £45.00", pay: "Pay £45.00", until: "You're a Plus member until 23 Nov 2027." },
    presale: "/shows/the-lantern-keeper/regent-palace/calendar",
    presaleCode: "earlybird",
    amexSeat: /^Stalls, row C, seat 20,/,
    access: {
      calendar: "/shows/a-winters-crossing/harbour-playhouse/calendar",
      space: /^Stalls, row R, seat 1,.*wheelchair space/,
      companion: /^Stalls, row R, seat 2,.*companion seat/,
      basket: ["Stalls, row R, seat 1 (wheelchair space)", "Stalls, row R, seat 2 (companion seat)"],
    },
    guest: { calendar: "/shows/a-winters-crossing/harbour-playhouse/calendar", show: "A Winter's Crossing" },
    phone: "020 7946 0000",
  },
  {
    language: "en-US",
    env: { LANGUAGE: "en-US" },
    plus: { join: "Join Plus for $60.00", pay: "Pay $60.00", until: "You're a Plus member until Nov 23, 2027." },
    presale: "/shows/broadway-lights/liberty-theatre/calendar",
    // The demo's one presale code works everywhere (catalogue promoCodes: EARLYBIRD, scope all).
    presaleCode: "earlybird",
    amexSeat: /^Orchestra, row B, seat 20,/,
    access: {
      calendar: "/shows/dj-marlowe-all-night/foundry-hall/calendar",
      space: /^Balcony, row A, seat 1,.*wheelchair space/,
      companion: /^Balcony, row A, seat 2,.*companion seat/,
      basket: ["Balcony, row A, seat 1 (wheelchair space)", "Balcony, row A, seat 2 (companion seat)"],
    },
    guest: { calendar: "/shows/the-velvet-hours/foundry-hall/calendar", show: "The Velvet Hours" },
    phone: "(212) 555-0199",
  },
];

const buyerOn = (server: DemoServer, language: Market["language"], options: DriverOptions = {}) =>
  demoBuyer(server, language, options);

/** The site header, as a screen reader's landmark list shows it. */
const banner = (buyer: HtmlDriver) => getByRole(buyer.document.body, "banner");

/** The order summary beside the checkout steps. */
const orderSummary = (buyer: HtmlDriver) =>
  normalise(getByRole(buyer.document.body, "table", { name: "Your order" }).textContent);

const normalise = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

/** Registers: the form, then the emailed link, where the password is chosen. */
async function register(server: DemoServer, buyer: HtmlDriver, email: string) {
  await buyer.open("/account/register");
  buyer.fill("First name", "Jo").fill("Last name", "Bloggs").fill("Email address", email);
  await buyer.press("Create account");
  expect(pathOf(buyer)).toBe("/account/register");
  expect(buyer.text()).toContain("We've sent an email to the address you gave.");
  await buyer.open(await emailedLink(server.services, email, "signUpLink"));
  expect(buyer.text()).toContain(`Choose a password to finish creating the account for ${email}.`);
  buyer.fill("Password", PASSWORD);
  await buyer.press("Create account");
  expect(pathOf(buyer)).toBe("/account");
  expect(buyer.text()).toContain("Your account has been created.");
  expect(buyer.text()).toContain(`Signed in as Jo Bloggs (${email}).`);
}

/** A performance with admission information or a notice asks the buyer to say they have read it. */
function acknowledge(buyer: HtmlDriver) {
  for (const box of ["I have read the admission information", "I have read this notice"]) {
    if (buyer.offers("checkbox", box)) buyer.check(box);
  }
}

/** Best available for `count` seats on the tickets page the buyer is on, accepted. */
async function bestAvailable(buyer: HtmlDriver, count: number) {
  buyer.select("Number of seats", String(count));
  await buyer.press("Find seats");
  expect(pathOf(buyer)).toBe("/checkout/reservations");
  acknowledge(buyer);
  await buyer.press("Accept these seats");
  expect(pathOf(buyer), buyer.text()).toBe("/checkout/extras");
}

/** Liberty Theatre's second question. */
const TRAVELLING_FROM = "Where is your party traveling from (city or town)?";

/** The value of the field with this label. */
const valueOf = (buyer: HtmlDriver, label: string) =>
  (getByLabelText(buyer.document.body, label) as HTMLInputElement).value;

/** The contact step from whatever is already filled in; answers the venue's question if it asks one. */
async function finishContacts(buyer: HtmlDriver, email: string, phone: string) {
  expect(pathOf(buyer)).toBe("/checkout/contacts");
  buyer.fill("Email address", email).fill("Confirm email address", email).fill("Phone number", phone);
  if (buyer.offers("radio", "Friends or family")) buyer.choose("Friends or family");
  if (queryByLabelText(buyer.document.body, TRAVELLING_FROM)) buyer.fill(TRAVELLING_FROM, "Albany");
  buyer.check("I accept the Terms and Conditions");
  await buyer.press("Continue");
  expect(pathOf(buyer), buyer.text()).toBe("/checkout/payment");
}

/** Pays by card on the payment page: the sandbox's test cards, CVV by brand. */
async function payByCard(buyer: HtmlDriver, number: string, button: string | RegExp = /^Pay /) {
  buyer
    .choose("Credit or debit card")
    .fill("Card number", number)
    .fill("Name on card", "Jo Bloggs")
    .fill("Expiry date", "12/30")
    .fill("Security code (CVV)", number.startsWith("3") ? "1234" : "123");
  await buyer.press(button);
}

/** The last month of a show's calendar (where the demo's presale performances are), by its Next links. */
async function lastMonth(buyer: HtmlDriver, calendar: string) {
  await buyer.open(calendar);
  for (let months = 0; queryByRole(buyer.document.body, "link", { name: /^Next:/ }); months += 1) {
    if (months > 6) throw new Error(`${calendar} has more than six months`);
    await buyer.follow(/^Next:/);
  }
}

/** Follows the `nth` presale performance of the calendar month the buyer is on. */
async function presalePerformance(buyer: HtmlDriver, nth: number) {
  const links = [...buyer.document.querySelectorAll<HTMLAnchorElement>('a[href*="/tickets/"]')].filter((link) =>
    /Presale/.test(link.textContent ?? ""),
  );
  expect(links.length).toBeGreaterThan(nth);
  await buyer.open(links[nth]!.getAttribute("href")!);
  expect(buyer.status).toBe(200);
  expect(pathOf(buyer)).toMatch(/\/tickets\//);
}

/** The sign-in page's answer, in its error summary. */
function alertAnswer(buyer: HtmlDriver) {
  const alert = getByRole(buyer.document.body, "alert");
  const answer = /The email address or password you entered is incorrect\.|Too many attempts\.[^.]*\./.exec(
    normalise(alert.textContent),
  );
  if (!answer) throw new Error(`the sign-in page answered: ${normalise(alert.textContent)}`);
  return answer[0];
}

/** How many payments the sandbox gateway has been asked to take. */
async function paymentCount(server: DemoServer) {
  const gateway = server.services.sandboxGateway;
  if (!gateway) throw new Error("the demo server has no sandbox gateway");
  return (await gateway.snapshot()).length;
}

/**
 * The journeys for one language's deployment, with the Nu HTML Checker over their pages. Each
 * language has a test file of its own (accounts-gb, accounts-us), so vitest runs the two at once.
 */
export function accountJourneys(language: Market["language"]) {
  const market = MARKETS.find((candidate) => candidate.language === language)!;
  describeMarket(market);
  it("every page the journeys received passes the Nu HTML Checker", async () => {
    await validateAllPages();
  }, 60_000);
}

const describeMarket = (market: Market) =>
  describe(`accounts without script, ${market.language}`, () => {
    const { language } = market;
    const email = (journey: string) => `${journey}-${language.toLowerCase()}@example.com`;
    let server: DemoServer;

    beforeAll(async () => {
      server = await startDemoServer(market.env);
    });
    afterAll(async () => {
      await server.close();
    });

    it("registers, signs out and in; buys Plus; then books a presale performance: pre-filled, no fee, protection included", async () => {
      const buyer = buyerOn(server, language);
      const address = email("plus");
      await register(server, buyer, address);

      await buyer.follow("Sign out");
      expect(pathOf(buyer)).toBe("/account/sign-out");
      await buyer.press("Sign out");
      expect(pathOf(buyer)).toBe("/");
      within(banner(buyer)).getByRole("link", { name: "Sign in" });
      await buyer.follow("Sign in");
      expect(pathOf(buyer)).toBe("/account/sign-in");
      buyer.fill("Email address", address).fill("Password", PASSWORD);
      await buyer.press("Sign in");
      expect(pathOf(buyer)).toBe("/account");
      within(banner(buyer)).getByRole("link", { name: "My account" });

      // Plus, bought through the checkout: the contact details start from the account.
      await buyer.open("/membership");
      await buyer.press(market.plus.join);
      expect(pathOf(buyer)).toBe("/checkout/contacts");
      expect(valueOf(buyer, "First name")).toBe("Jo");
      expect(valueOf(buyer, "Last name")).toBe("Bloggs");
      expect(valueOf(buyer, "Email address")).toBe(address);
      await finishContacts(buyer, address, market.phone);
      expect(orderSummary(buyer)).toContain("Plus membership, 12 months");
      await payByCard(buyer, "4242 4242 4242 4242", market.plus.pay);
      expect(pathOf(buyer)).toBe("/checkout/confirmation");
      expect(buyer.text()).toContain("Plus membership, 12 months");
      await buyer.open("/account");
      expect(buyer.text()).toContain(market.plus.until);

      // A presale performance is open to the member: no offer, no fee, protection included.
      await lastMonth(buyer, market.presale);
      expect(buyer.text()).toContain("Your membership lets you book presale performances now");
      await presalePerformance(buyer, 0);
      expect(buyer.text()).not.toContain("This performance is in presale");
      await bestAvailable(buyer, 2);
      await buyer.press("Continue");
      // Protection is included: its step is skipped.
      expect(pathOf(buyer)).toBe("/checkout/collection");
      buyer.choose(/^E-ticket/);
      await buyer.press("Continue");
      expect(valueOf(buyer, "First name")).toBe("Jo");
      expect(valueOf(buyer, "Last name")).toBe("Bloggs");
      await finishContacts(buyer, address, market.phone);
      // Offered here, as for any basket without sponsored seats.
      getByRole(buyer.document.body, "radio", { name: "PayPal" });
      expect(orderSummary(buyer)).toContain("Waived for members");
      expect(orderSummary(buyer)).toContain("Included with your membership");
      await payByCard(buyer, "4242 4242 4242 4242");
      expect(pathOf(buyer)).toBe("/checkout/confirmation");
      getByRole(buyer.document.body, "heading", { level: 1, name: "Order complete" });
    }, 60_000);

    it("an access member books a wheelchair space and a companion seat", async () => {
      const buyer = buyerOn(server, language);
      await register(server, buyer, email("access"));
      await buyer.open("/membership");
      buyer.check("I'm a wheelchair user").choose("1 companion");
      await buyer.press("Join the access membership");
      expect(buyer.text()).toContain("Your access needs have been saved.");
      expect(buyer.text()).toContain("1 companion seat beside your wheelchair space");

      await goodPerformance(buyer, market.access.calendar);
      expect(buyer.text()).toContain("Your access membership lets you book wheelchair spaces");
      buyer.check(market.access.space).check(market.access.companion);
      await buyer.press("Reserve selected seats");
      const basket = normalise(getByRole(buyer.document.body, "table", { name: "Your tickets" }).textContent);
      expect(basket).toContain(market.access.basket[0]);
      expect(basket).toContain(market.access.basket[1]);
    }, 30_000);

    it("a guest buys, creates an account on the confirmation page, and finds the tickets under My account", async () => {
      const buyer = buyerOn(server, language);
      const address = email("guest");
      // Not the access member's performance.
      await goodPerformance(buyer, market.guest.calendar, 1);
      await bestAvailable(buyer, 1);
      await buyer.press("Continue");
      expect(pathOf(buyer)).toBe("/checkout/ticket-protection");
      buyer.choose("No, I accept that my tickets are non-refundable");
      await buyer.press("Continue");
      expect(pathOf(buyer)).toBe("/checkout/collection");
      buyer.choose(/^E-ticket/);
      await buyer.press("Continue");
      buyer.fill("First name", "Sam").fill("Last name", "Guest");
      await finishContacts(buyer, address, market.phone);
      await payByCard(buyer, "4242 4242 4242 4242");
      expect(pathOf(buyer)).toBe("/checkout/confirmation");
      const orderNumber = normalise(buyer.document.querySelector(".order-facts__number")?.textContent);
      expect(orderNumber).not.toBe("");

      // Nothing is created here: the link goes to the order's email, where the password is chosen.
      await buyer.press("Create account");
      expect(pathOf(buyer)).toBe("/checkout/confirmation");
      expect(buyer.text()).toContain(`We've sent an email to ${address} with a link to create your account.`);
      expect(queryByRole(buyer.document.body, "button", { name: "Create account" })).toBeNull();
      await buyer.open(await emailedLink(server.services, address, "signUpLink"));
      buyer.fill("Password", PASSWORD);
      await buyer.press("Create account");
      expect(pathOf(buyer)).toBe("/account");
      expect(buyer.text()).toContain("Your account has been created.");
      expect(buyer.text()).toContain(`Signed in as Sam Guest (${address}).`);
      expect(buyer.text()).toContain(orderNumber);
      getByRole(buyer.document.body, "heading", { name: market.guest.show });

      // A shared computer: the buyer hides the order from this browser; the email keeps the link.
      await buyer.open("/checkout/confirmation");
      expect(buyer.text()).toContain(orderNumber);
      await buyer.press("Hide my order: this is a shared computer");
      expect(pathOf(buyer)).toBe("/checkout/confirmation");
      expect(buyer.text()).toContain("We can't find a completed order for you.");
      expect(buyer.text()).not.toContain(orderNumber);
    }, 30_000);

    // One journey for two of the e2e's (each seat map visit costs seconds): the code opens the
    // presale performance's map, where the non-member picks a seat for Amex cardholders. It took
    // about 50 s in CI beside the other journey files, most of it in those seat map visits: 60 s
    // left no room on a busy runner.
    it("a non-member is offered membership on a presale performance and gets in with a presale code; an Amex-seat basket refuses a Visa card, before any charge", async () => {
      const buyer = buyerOn(server, language);
      const address = email("amex");
      await lastMonth(buyer, market.presale);
      expect(buyer.text()).toContain("Members and promo code holders can book now");
      expect(buyer.text()).not.toContain("Your membership lets you book presale performances now");
      // Not the member's performance: the code opens this one alone.
      await presalePerformance(buyer, 1);
      expect(buyer.text()).toContain("This performance is in presale");
      expect(getByRole(buyer.document.body, "link", { name: "Become a member" }).getAttribute("href")).toBe(
        "/membership",
      );
      expect(queryByRole(buyer.document.body, "button", { name: "Find seats" })).toBeNull();
      buyer.fill("Presale or promo code", market.presaleCode);
      await buyer.press("Apply code");
      expect(buyer.text()).not.toContain("This performance is in presale");
      getByRole(buyer.document.body, "button", { name: "Find seats" });

      // Best available never offers sponsored seats: the buyer picks one on the map.
      buyer.check(market.amexSeat);
      await buyer.press("Reserve selected seats");
      expect(normalise(getByRole(buyer.document.body, "table", { name: "Your tickets" }).textContent)).toContain(
        "American Express",
      );
      acknowledge(buyer);
      await buyer.press("Continue");
      expect(pathOf(buyer)).toBe("/checkout/extras");
      await buyer.press("Continue");
      buyer.choose("No, I accept that my tickets are non-refundable");
      await buyer.press("Continue");
      buyer.choose(/^E-ticket/);
      await buyer.press("Continue");
      buyer.fill("First name", "Alex").fill("Last name", "Card");
      await finishContacts(buyer, address, market.phone);
      expect(buyer.text()).toContain("this order can only be paid with an American Express card");
      expect(queryByRole(buyer.document.body, "radio", { name: "PayPal" })).toBeNull();
      const paymentsBefore = await paymentCount(server);
      await payByCard(buyer, "4242 4242 4242 4242");
      expect(pathOf(buyer)).toBe("/checkout/payment");
      expect(buyer.text()).toContain("Please enter a valid American Express card number");
      expect(await paymentCount(server)).toBe(paymentsBefore);
      await payByCard(buyer, "3782 822463 10005");
      expect(pathOf(buyer)).toBe("/checkout/confirmation");
      getByRole(buyer.document.body, "heading", { level: 1, name: "Order complete" });
    }, 120_000);

    // Last on this deployment: it locks sign-in from 127.0.0.1, every driver's address.
    it("20 wrong passwords in a row are throttled, then even the right one waits, until 15 minutes have passed", async () => {
      const address = email("throttle");
      // The account is not what this journey is about (registering is, above).
      await registerCustomer(server.services.auth, {
        email: address,
        password: PASSWORD,
        firstName: "Jo",
        lastName: "Bloggs",
      });
      const buyer = buyerOn(server, language);
      await buyer.open("/account/sign-in");
      const answers: string[] = [];
      const guess = async (guesser: HtmlDriver, attempt: number) => {
        guesser.fill("Email address", address).fill("Password", `wrong password ${attempt}`);
        await guesser.press("Sign in");
        expect(pathOf(guesser)).toBe("/account/sign-in");
        answers.push(alertAnswer(guesser));
      };
      await guess(buyer, 1);
      // The same two pages 18 times over: a second tab from the same address, whose pages axe has
      // already seen (the first answer above, and the throttled one below).
      const tab = buyerOn(server, language, { skip: ["axe"] });
      await tab.open("/account/sign-in");
      for (let attempt = 2; attempt < 20; attempt += 1) await guess(tab, attempt);
      await guess(buyer, 20);
      // The first wrong passwords are only wrong; then the tries must wait; the last ones are locked out.
      expect(answers.slice(0, 5)).toEqual(Array(5).fill("The email address or password you entered is incorrect."));
      expect(answers.slice(-5)).toEqual(Array(5).fill("Too many attempts. Please try again in 15 minutes."));
      expect(buyer.status).toBe(429);

      buyer.fill("Email address", address).fill("Password", PASSWORD);
      await buyer.press("Sign in");
      expect(pathOf(buyer)).toBe("/account/sign-in");
      expect(alertAnswer(buyer)).toBe("Too many attempts. Please try again in 15 minutes.");

      // The lock is on the server's clock: a quarter of an hour later the right password signs in.
      server.clock.advance(15 * 60_000 + 1_000);
      buyer.fill("Email address", address).fill("Password", PASSWORD);
      await buyer.press("Sign in");
      expect(pathOf(buyer)).toBe("/account");
      within(banner(buyer)).getByRole("link", { name: "My account" });
    }, 30_000);
  });
