import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { receivedMail } from "./mail-server";
import { firstPerformance, payByCard } from "./seats";

// From held seats to a paid order, with script and without, in a UK and a US deployment: extras,
// ticket protection, post (mail), contact details, a promo code and a part-paying voucher, a 3-D
// Secure card, the confirmation and its email; a declined card and then another; PayPal; a card
// whose bank never answers. Best available picks the seats, so journeys running side by side on
// one performance never reach for the same ones.

// A refused form answers 400, which the browser logs as a failed resource.
test.use({ expectedConsoleErrors: [/status of 40[09]/] });

const PROFILES = [
  {
    locale: "en-GB",
    calendar: "/shows/sunday-gala-concerts/regent-palace/calendar",
    post: "Post",
    address: { city: "Town or city", postcode: ["Postcode", "sw1a 2aa"] as const, state: null },
    phone: "020 7946 0000",
    promo: "SPRING20",
    vouchers: {
      label: ["Voucher number", "Redemption code"] as const,
      on: ["GV-2026-0011", "5K2P7A"] as const,
      off: ["GV-2026-0012", "8W3N6C"] as const,
      applied: "Gift voucher ending",
    },
    question: "Friends or family",
    text: null,
  },
  {
    locale: "en-US",
    calendar: "/shows/broadway-lights/liberty-theatre/calendar",
    post: "Mail",
    address: { city: "City", postcode: ["ZIP code", "10036"] as const, state: "New York" },
    phone: "(212) 555-0100",
    promo: "BROADWAY25",
    vouchers: {
      label: ["Gift card number", "Access number"] as const,
      on: ["6015-0000-3333", "3309"] as const,
      off: ["6015-0000-4444", "5512"] as const,
      applied: "Gift card ending",
    },
    question: "Social media",
    text: "Boston",
  },
] as const;

type Profile = (typeof PROFILES)[number];

/** Best available for `count` seats on the show's first good date, accepted: the checkout's first step. */
async function holdSeats(page: Page, profile: Profile, javaScriptEnabled: boolean, count: number, skip = 0) {
  const tickets = await firstPerformance(page, profile.calendar, javaScriptEnabled, "", skip);
  await page.goto(tickets);
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("Number of seats").selectOption(String(count));
  await page.getByRole("button", { name: "Find seats" }).click();
  await expect(page).toHaveURL(/\/checkout\/reservations$/);
  await page.getByRole("button", { name: "Accept these seats" }).click();
  await expect(page).toHaveURL(/\/checkout\/extras$/);
}

/** Extras (one of the first), protection, delivery and contact details, checked by axe on the way. */
async function answerSteps(
  page: Page,
  profile: Profile,
  axe: () => Promise<void>,
  options: { extra: boolean; protect: boolean; post: boolean; email: string },
) {
  await axe();
  if (options.extra) await page.getByRole("textbox").first().fill("1");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/ticket-protection$/);
  await axe();
  await page
    .getByLabel(options.protect ? "Yes, please protect my tickets" : "No, I accept that my tickets are non-refundable")
    .check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/collection$/);
  await axe();
  await page.getByLabel(options.post ? new RegExp(`^${profile.post}`) : /^E-ticket/).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/contacts$/);
  await axe();
  await page.getByLabel("First name").fill("Jo");
  await page.getByLabel("Last name").fill("Bloggs");
  await page.getByLabel("Email address", { exact: true }).fill(options.email);
  await page.getByLabel("Confirm email address").fill(options.email);
  await page.getByLabel("Phone number").fill(profile.phone);
  if (options.post) {
    await page.getByLabel("Address line 1").fill("1 Main Street");
    await page.getByLabel(profile.address.city, { exact: true }).fill("Springfield");
    if (profile.address.state) await page.getByLabel("State").selectOption({ label: profile.address.state });
    await page.getByLabel(profile.address.postcode[0]).fill(profile.address.postcode[1]);
  }
  await page.getByLabel(profile.question).check();
  if (profile.text) await page.getByLabel(/traveling from/).fill(profile.text);
  await page.getByLabel("I accept the Terms and Conditions").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/payment$/);
  await axe();
}

for (const profile of PROFILES) {
  test.describe(profile.locale, () => {
    test.use({ locale: profile.locale });

    test("a full purchase: extras, protection, post, a promo code, a part-paying voucher, a 3-D Secure card, the confirmation and its email", async ({
      page,
      axe,
      javaScriptEnabled,
    }) => {
      const email = `full-${profile.locale}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
      await holdSeats(page, profile, javaScriptEnabled, 2);
      await answerSteps(page, profile, axe, { extra: true, protect: true, post: true, email });
      const summary = page.getByRole("complementary").getByRole("table", { name: "Your order" });
      await expect(summary).toContainText("Ticket refund protection × 2");
      await expect(summary).toContainText(profile.post);

      await page.getByRole("textbox", { name: "Promo code" }).fill(profile.promo);
      await page.getByRole("button", { name: "Apply code" }).click();
      await expect(summary).toContainText(`Promo code ${profile.promo}`);
      const [number, code] = javaScriptEnabled ? profile.vouchers.on : profile.vouchers.off;
      await page.getByLabel(profile.vouchers.label[0]).fill(number);
      await page.getByLabel(profile.vouchers.label[1]).fill(code);
      await page.getByRole("button", { name: /^Apply (voucher|gift card)$/ }).click();
      await expect(summary).toContainText(profile.vouchers.applied);
      await expect(summary).toContainText("To pay");
      await axe();

      await payByCard(page, "4000 0000 0000 3220");
      // Device data collection and the way to the challenge go by themselves with script; without
      // it, the buyer presses Continue for each (a POST to the bank needs a button).
      if (!javaScriptEnabled) {
        await expect(page.getByText("We're checking your card with your bank.")).toBeVisible();
        await page.getByRole("button", { name: "Continue" }).click();
        await expect(page.getByText("Your bank needs to confirm it's you.")).toBeVisible();
        await axe();
        await page.getByRole("button", { name: "Continue" }).click();
      }
      await expect(page.getByRole("heading", { level: 1, name: "Sandbox bank: confirm this payment" })).toBeVisible();
      await axe();
      await page.getByRole("button", { name: "Complete authentication" }).click();
      await expect(page).toHaveURL(/\/checkout\/confirmation$/);
      await expect(page.getByRole("heading", { level: 1, name: "Order complete" })).toBeVisible();
      const orderNumber = (await page.locator(".order-facts__number").textContent())!.trim();
      expect(orderNumber).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
      await expect(page.getByText(email).first()).toBeVisible();
      await axe();
      await expect
        .poll(() => receivedMail().find((message) => message.includes(orderNumber)) ?? "", { timeout: 30_000 })
        .toContain(email);
    });

    test("a declined card reaches the failed page; another card then pays", async ({
      page,
      axe,
      javaScriptEnabled,
    }) => {
      await holdSeats(page, profile, javaScriptEnabled, 1, 1);
      await answerSteps(page, profile, axe, {
        extra: false,
        protect: false,
        post: false,
        email: `declined-${profile.locale}@example.com`,
      });
      await payByCard(page, "4000 0000 0000 0002");
      await expect(page).toHaveURL(/\/checkout\/failed$/);
      await expect(page.getByRole("heading", { level: 1, name: "Your payment was unsuccessful" })).toBeVisible();
      await expect(page.getByText("Your card has not been charged")).toBeVisible();
      await axe();
      await page.getByRole("link", { name: "Try again" }).click();
      await expect(page).toHaveURL(/\/checkout\/payment$/);
      await expect(page.getByRole("alert").filter({ hasText: "Your last payment didn't go through" })).toBeVisible();
      await payByCard(page, "5555 5555 5555 4444");
      await expect(page).toHaveURL(/\/checkout\/confirmation$/);
    });

    test("PayPal: approve on PayPal's page and come back to the confirmation", async ({
      page,
      axe,
      javaScriptEnabled,
    }) => {
      await holdSeats(page, profile, javaScriptEnabled, 1, 1);
      await answerSteps(page, profile, axe, {
        extra: false,
        protect: false,
        post: false,
        email: `paypal-${profile.locale}@example.com`,
      });
      await page.getByLabel("PayPal").check();
      await page.getByRole("button", { name: /^Pay / }).click();
      if (!javaScriptEnabled) await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Sandbox PayPal" })).toBeVisible();
      await axe();
      await page.getByRole("button", { name: "Approve payment" }).click();
      await expect(page).toHaveURL(/\/checkout\/confirmation$/);
    });

    test("pressing Pay twice charges once", async ({ page, axe, javaScriptEnabled }) => {
      await holdSeats(page, profile, javaScriptEnabled, 1, 2);
      await answerSteps(page, profile, axe, {
        extra: false,
        protect: false,
        post: false,
        email: `twice-${profile.locale}@example.com`,
      });
      await page.getByLabel("Credit or debit card").check();
      await page.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
      await page.getByLabel("Name on card").fill("Jo Bloggs");
      await page.getByLabel("Expiry date").fill("12/30");
      await page.getByLabel("Security code (CVV)").fill("123");
      // Chromium folds a double click into one submission, so the test sends the second itself:
      // the same POST, same cookies and token, twice at once, as a double tap on a slow network
      // or a reload of the POST would. The browser is given the second answer.
      await page.route("**/checkout/payment*", async (route) => {
        if (route.request().method() !== "POST") return route.fallback();
        const [, second] = await Promise.all([route.fetch({ maxRedirects: 0 }), route.fetch({ maxRedirects: 0 })]);
        await route.fulfill({ response: second });
      });
      await page.getByRole("button", { name: /^Pay / }).click();
      await expect(page).toHaveURL(/\/checkout\/confirmation$/, { timeout: 20_000 });
      await page.unroute("**/checkout/payment*");
      const orderNumber = (await page.locator(".order-facts__number").textContent())!.trim();
      await page.goto("/sandbox/payments");
      await axe();
      const rows = page.getByRole("row").filter({ hasText: orderNumber });
      await expect(rows).toHaveCount(1);
      await expect(rows).toContainText("Charged");
    });

    test("a card whose bank never answers ends in the timeout message", async ({ page, axe, javaScriptEnabled }) => {
      await holdSeats(page, profile, javaScriptEnabled, 1, 2);
      await answerSteps(page, profile, axe, {
        extra: false,
        protect: false,
        post: false,
        email: `timeout-${profile.locale}@example.com`,
      });
      await payByCard(page, "4000 0000 0000 0119");
      await expect(page).toHaveURL(/\/checkout\/verify$/);
      await expect(page.getByRole("heading", { level: 1, name: "Processing your payment" })).toBeVisible();
      await axe();
      // Without script the page refreshes itself; with it, it checks in the background.
      await expect(page.getByText("Your payment has timed out.")).toBeVisible({ timeout: 20_000 });
      await expect(page.getByText(/within 10 minutes/)).toBeVisible();
      await axe();
    });

    test("every contact and card message, each in its condition", async ({ page, axe, javaScriptEnabled }) => {
      await holdSeats(page, profile, javaScriptEnabled, 1, 3);
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(/\/checkout\/ticket-protection$/);
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveTitle(/^Error: /);
      await expect(page.getByRole("alert").first()).toContainText("Please select an answer");
      await axe();
      await page.getByLabel("No, I accept that my tickets are non-refundable").check();
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(/\/checkout\/collection$/);
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByRole("alert").first()).toContainText("Please select a delivery method");
      await page.getByLabel(new RegExp(`^${profile.post}`)).check();
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(/\/checkout\/contacts$/);
      await page.getByLabel("Email address", { exact: true }).fill("jo@example");
      await page.getByLabel("Confirm email address").fill("someone@example.com");
      await page.getByLabel(profile.address.city, { exact: true }).fill("x".repeat(41));
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveTitle(/^Error: /);
      const summary = page.getByRole("alert").first();
      for (const text of [
        "Please enter your first name",
        "Please enter your last name",
        "Please enter a valid email address",
        "Please enter a valid phone number",
        "Please enter your address",
        "City must not be more than 40 characters long",
        "Please accept the Terms and Conditions",
        "Please select an answer",
      ])
        await expect(summary).toContainText(text);
      await expect(page.getByLabel(profile.address.city, { exact: true })).toHaveValue("x".repeat(41));
      await axe();

      // Put right, on to payment, where the card's own messages come.
      await page.getByLabel("First name").fill("Jo");
      await page.getByLabel("Last name").fill("Bloggs");
      await page.getByLabel("Email address", { exact: true }).fill("jo@example.com");
      await page.getByLabel("Confirm email address").fill("jo@example.com");
      await page.getByLabel("Phone number").fill(profile.phone);
      await page.getByLabel("Address line 1").fill("1 Main Street");
      await page.getByLabel(profile.address.city, { exact: true }).fill("Springfield");
      if (profile.address.state) await page.getByLabel("State").selectOption({ label: profile.address.state });
      await page.getByLabel(profile.address.postcode[0]).fill(profile.address.postcode[1]);
      await page.getByLabel(profile.question).check();
      if (profile.text) await page.getByLabel(/traveling from/).fill(profile.text);
      await page.getByLabel("I accept the Terms and Conditions").check();
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(/\/checkout\/payment$/);
      await page.getByRole("button", { name: /^Pay / }).click();
      await expect(page).toHaveTitle(/^Error: /);
      await expect(page.getByRole("alert").first()).toContainText("Please select a payment method");
      await page.getByLabel("Credit or debit card").check();
      await page.getByLabel("Card number", { exact: true }).fill("1234");
      await page.getByLabel("Name on card").fill("Jo");
      await page.getByLabel("Expiry date").fill("13/30");
      await page.getByLabel("Security code (CVV)").fill("12");
      await page.getByRole("button", { name: /^Pay / }).click();
      const cardErrors = page.getByRole("alert").first();
      for (const text of [
        "Please enter a valid credit card number",
        "Please enter your first and last name",
        "Please enter a valid month for your expiration date",
        "Please enter your card's CVV number",
      ])
        await expect(cardErrors).toContainText(text);
      // What the buyer typed is kept, except the card number and CVV.
      await expect(page.getByLabel("Name on card")).toHaveValue("Jo");
      await expect(page.getByLabel("Card number", { exact: true })).toHaveValue(javaScriptEnabled ? "1234" : "");
      await axe();
      await page.getByLabel("Card number", { exact: true }).fill("6011 1111 1111 1117");
      await page.getByLabel("Expiry date").fill("12/1");
      await page.getByRole("button", { name: /^Pay / }).click();
      await expect(page.getByRole("alert").first()).toContainText(
        profile.locale === "en-US"
          ? "Please enter a valid Visa, Visa Debit, Mastercard, or American Express card number"
          : "Please enter a valid Visa, Visa Debit, Mastercard or American Express card number",
      );
      await expect(page.getByRole("alert").first()).toContainText("Please enter a valid expiration year");
    });
  });
}
