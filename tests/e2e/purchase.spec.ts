import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { receivedMail } from "./mail-server";
import { firstPerformance, payByCard } from "./seats";

// Paying in a real browser. The smoke journey runs with script and without: best available,
// every step, a promo code, a 3-D Secure card, the confirmation and its email (sent over real
// SMTP). The rest is what only script does: inline validation as the buyer types, and the
// processing page checking in the background. Every payment outcome and every step's errors are
// proven without script at the HTML level by tests/journeys/checkout.test.ts, in both languages.
// Harbour Playhouse (900 seats): the 2,341-seat map has a test of its own.

// A refused form answers 400, which the browser logs as a failed resource.
test.use({ expectedConsoleErrors: [/status of 40[09]/] });

const TIDE_TABLES = "/shows/the-tide-tables/harbour-playhouse/calendar";

/** Best available for `count` seats on the show's `skip`-th good date, accepted: the first step. */
async function holdSeats(page: Page, javaScriptEnabled: boolean, count: number, skip: number) {
  const tickets = await firstPerformance(page, TIDE_TABLES, javaScriptEnabled, "", skip);
  await page.goto(tickets);
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("Number of seats").selectOption(String(count));
  await page.getByRole("button", { name: "Find seats" }).click();
  await expect(page).toHaveURL(/\/checkout\/reservations$/);
  await page.getByRole("button", { name: "Accept these seats" }).click();
  await expect(page).toHaveURL(/\/checkout\/extras$/);
}

/** From extras to the contact details: no extras, no protection, e-tickets. */
async function toContacts(page: Page) {
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("No, I accept that my tickets are non-refundable").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel(/^E-ticket/).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/contacts$/);
}

async function fillContacts(page: Page, email: string) {
  await page.getByLabel("First name").fill("Jo");
  await page.getByLabel("Last name").fill("Bloggs");
  await page.getByLabel("Email address", { exact: true }).fill(email);
  await page.getByLabel("Confirm email address").fill(email);
  await page.getByLabel("Phone number").fill("020 7946 0000");
  await page.getByLabel("I accept the Terms and Conditions").check();
}

test("@smoke a full purchase: an extra, protection, post, a promo code, a 3-D Secure card, the confirmation and its email", async ({
  page,
  axe,
  javaScriptEnabled,
}) => {
  const email = `smoke-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
  await holdSeats(page, javaScriptEnabled, 2, javaScriptEnabled ? 0 : 1);
  await axe();
  await page.getByRole("textbox").first().fill("1");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/ticket-protection$/);
  await page.getByLabel("Yes, please protect my tickets").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/collection$/);
  await page.getByLabel(/^Post/).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/contacts$/);
  await fillContacts(page, email);
  await page.getByLabel("Address line 1").fill("1 Main Street");
  await page.getByLabel("Town or city", { exact: true }).fill("Bristol");
  await page.getByLabel("Postcode").fill("bs1 4rn");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/payment$/);
  await axe();

  const summary = page.getByRole("complementary").getByRole("table", { name: "Your order" });
  await expect(summary).toContainText("Ticket refund protection × 2");
  await page.getByRole("textbox", { name: "Promo code" }).fill("SPRING20");
  await page.getByRole("button", { name: "Apply code" }).click();
  await expect(summary).toContainText("Promo code SPRING20");

  await payByCard(page, "4000 0000 0000 3220");
  // Device data collection and the way to the challenge go by themselves with script; without
  // it, the buyer presses Continue for each (a POST to the bank needs a button).
  if (!javaScriptEnabled) {
    await expect(page.getByText("We're checking your card with your bank.")).toBeVisible();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("Your bank needs to confirm it's you.")).toBeVisible();
    await page.getByRole("button", { name: "Continue" }).click();
  }
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox bank: confirm this payment" })).toBeVisible();
  await page.getByRole("button", { name: "Complete authentication" }).click();
  await expect(page).toHaveURL(/\/checkout\/confirmation$/);
  await expect(page.getByRole("heading", { level: 1, name: "Order complete" })).toBeVisible();
  const orderNumber = (await page.locator(".order-facts__number").textContent())!.trim();
  expect(orderNumber).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
  await axe();
  await expect
    .poll(() => receivedMail().find((message) => message.includes(orderNumber)) ?? "", { timeout: 30_000 })
    .toContain(email);
});

test("@js every contact and card message comes before any request, and goes as the buyer puts it right", async ({
  page,
  axe,
}) => {
  await holdSeats(page, true, 1, 2);
  await toContacts(page);
  await expect(page).toHaveURL(/\/checkout\/contacts$/);
  await waitForHydration(page);

  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  const email = page.getByLabel("Email address", { exact: true });
  await email.fill("jo@example");
  await page.getByRole("button", { name: "Continue" }).click();
  const summary = page.getByRole("alert").first();
  for (const text of [
    "Please enter your first name",
    "Please enter your last name",
    "Please enter a valid email address",
    "Please enter a valid phone number",
    "Please accept the Terms and Conditions",
  ])
    await expect(summary).toContainText(text);
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await axe();
  // Once shown, a message is checked again as the buyer types.
  await email.fill("jo@example.com");
  await expect(email).not.toHaveAttribute("aria-invalid", "true");
  expect(posts).toEqual([]);

  await fillContacts(page, "jo@example.com");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/payment$/);
  await waitForHydration(page);
  posts.length = 0;
  await page.getByLabel("Credit or debit card").check();
  const number = page.getByLabel("Card number", { exact: true });
  await number.fill("1234");
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
  // With script nothing was sent, so the card number is still there to correct.
  await expect(number).toHaveValue("1234");
  expect(posts).toEqual([]);
  await axe();
});

test("@js a card whose bank never answers: the processing page checks in the background until the timeout message", async ({
  page,
  axe,
}) => {
  await holdSeats(page, true, 1, 3);
  await toContacts(page);
  await fillContacts(page, "timeout@example.com");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/payment$/);
  await payByCard(page, "4000 0000 0000 0119");
  await expect(page).toHaveURL(/\/checkout\/verify$/);
  await expect(page.getByRole("heading", { level: 1, name: "Processing your payment" })).toBeVisible();
  await waitForHydration(page);
  // The server's payment timeout is 5 s here (playwright.config.ts); the page finds out by itself.
  await expect(page.getByText("Your payment has timed out.")).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/checkout\/verify$/);
  await axe();
});
