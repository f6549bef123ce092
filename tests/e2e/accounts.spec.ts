import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { firstPerformance, goToLastMonth, payByCard } from "./seats";

// Accounts and memberships, with script and without: register, sign out and in; buy the Plus
// membership through the checkout and then book a presale performance with a member's benefits;
// register access needs and book a wheelchair space with a companion seat; create an account on
// the confirmation page; a presale code for a non-member; an Amex-seat basket refusing Visa; and
// sign-in throttling. The two projects run side by side against one server: each uses its own
// account, performance or seats.

// A refused form answers 400, 409 or 429, which the browser logs as a failed resource.
test.use({ expectedConsoleErrors: [/status of 4(00|09|29)/] });

const SHORT_HOLD_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 1}`;
const GALA = "/shows/sunday-gala-concerts/regent-palace/calendar";
const LANTERN = "/shows/the-lantern-keeper/regent-palace/calendar";
const PASSWORD = "correct horse battery staple";

const emailFor = (journey: string, javaScriptEnabled: boolean) =>
  `${journey}-${javaScriptEnabled ? "js" : "nojs"}@example.com`;

async function register(page: Page, visit: (url: string) => Promise<unknown>, email: string, base = "") {
  await visit(`${base}/account/register`);
  await page.getByLabel("First name").fill("Jo");
  await page.getByLabel("Last name").fill("Bloggs");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(`Signed in as Jo Bloggs (${email}).`)).toBeVisible();
}

/** Best available for `count` seats on the tickets page the buyer is on, accepted. */
async function bestAvailable(page: Page, count: number) {
  await page.getByLabel("Number of seats").selectOption(String(count));
  await page.getByRole("button", { name: "Find seats" }).click();
  await expect(page).toHaveURL(/\/checkout\/reservations$/);
  const admission = page.getByLabel("I have read the admission information");
  if (await admission.count()) await admission.check();
  await page.getByRole("button", { name: "Accept these seats" }).click();
  await expect(page).toHaveURL(/\/checkout\/extras$/);
}

/** The contact step for a Regent Palace booking, from whatever is already filled in. */
async function finishContacts(page: Page, email: string) {
  await page.getByLabel("Email address", { exact: true }).fill(email);
  await page.getByLabel("Confirm email address").fill(email);
  await page.getByLabel("Phone number").fill("020 7946 0000");
  const question = page.getByLabel("Friends or family");
  if (await question.count()) await question.check();
  await page.getByLabel("I accept the Terms and Conditions").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/payment$/);
}

test("register, sign out and in; buy Plus; then book a presale performance: pre-filled, no fee, protection included", async ({
  page,
  visit,
  axe,
  javaScriptEnabled,
}) => {
  const email = emailFor("plus", javaScriptEnabled);
  await register(page, visit, email);
  await axe();

  await page.getByRole("link", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/account\/sign-out$/);
  await axe();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  await page.getByRole("banner").getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/account\/sign-in/);
  await axe();
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("banner").getByRole("link", { name: "My account" })).toBeVisible();

  // Plus, bought through the checkout: the contact details start from the account.
  await visit("/membership");
  await page.getByRole("button", { name: "Join Plus for £45.00" }).click();
  await expect(page).toHaveURL(/\/checkout\/contacts$/);
  await expect(page.getByLabel("First name")).toHaveValue("Jo");
  await expect(page.getByLabel("Email address", { exact: true })).toHaveValue(email);
  await axe();
  await finishContacts(page, email);
  const summary = page.getByRole("complementary").getByRole("table", { name: "Your order" });
  await expect(summary).toContainText("Plus membership, 12 months");
  await axe();
  await payByCard(page, "4242 4242 4242 4242");
  await expect(page).toHaveURL(/\/checkout\/confirmation$/, { timeout: 30_000 });
  await expect(page.getByText("Plus membership, 12 months").first()).toBeVisible();
  await axe();
  await visit("/account");
  await expect(page.getByText(/You're a Plus member until/)).toBeVisible();

  // A presale performance is open to the member.
  await visit(LANTERN);
  await goToLastMonth(page);
  await expect(page.getByText("Your membership lets you book presale performances now")).toBeVisible();
  const presale = page.locator("a.calendar-performance", { hasText: "Presale" });
  await presale.nth(javaScriptEnabled ? 0 : 1).click();
  await expect(page).toHaveURL(/\/tickets\//);
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(page.getByText("This performance is in presale")).toHaveCount(0);
  await axe();
  await bestAvailable(page, 2);
  await page.getByRole("button", { name: "Continue" }).click();
  // Protection is included: its step is skipped.
  await expect(page).toHaveURL(/\/checkout\/collection$/);
  await page.getByLabel(/^E-ticket/).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/contacts$/);
  await expect(page.getByLabel("Last name")).toHaveValue("Bloggs");
  await finishContacts(page, email);
  const tickets = page.getByRole("complementary").getByRole("table", { name: "Your order" });
  await expect(tickets).toContainText("Waived for members");
  await expect(tickets).toContainText("Included with your membership");
  await axe();
  await payByCard(page, "4242 4242 4242 4242");
  await expect(page).toHaveURL(/\/checkout\/confirmation$/, { timeout: 30_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Order complete" })).toBeVisible();
});

test("an access member books a wheelchair space and a companion seat", async ({
  page,
  visit,
  axe,
  javaScriptEnabled,
}) => {
  await register(page, visit, emailFor("access", javaScriptEnabled));
  await visit("/membership");
  await page.getByLabel("I'm a wheelchair user").check();
  await page.getByLabel("1 companion", { exact: true }).check();
  await page.getByRole("button", { name: "Join the access membership" }).click();
  await expect(page.getByText("Your access needs have been saved.")).toBeVisible();
  await expect(page.getByText("1 companion seat beside your wheelchair space")).toBeVisible();
  await axe();

  // Each project on its own performance: the same wheelchair space is on every one (the seat-map
  // journeys use the other two).
  const tickets = await firstPerformance(page, GALA, javaScriptEnabled, "", javaScriptEnabled ? 0 : 1);
  await visit(tickets);
  await expect(page.getByText("Your access membership lets you book wheelchair spaces").first()).toBeVisible();
  const seat = (label: number, kind: string) =>
    page.getByRole("checkbox", { name: new RegExp(`^Stalls, row Z, seat ${label},.*${kind}`) });
  await seat(20, "wheelchair space").check();
  await seat(21, "companion seat").check();
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Reserve selected seats" }).click();
  const basket = page.getByRole("table", { name: "Your tickets" });
  await expect(basket).toContainText("Stalls, row Z, seat 20 (wheelchair space)");
  await expect(basket).toContainText("Stalls, row Z, seat 21 (companion seat)");
});

test("a guest buys, creates an account on the confirmation page, and finds the tickets under My tickets", async ({
  page,
  visit,
  axe,
  javaScriptEnabled,
}) => {
  const email = emailFor("guest", javaScriptEnabled);
  const tickets = await firstPerformance(page, GALA, javaScriptEnabled);
  await visit(tickets);
  await bestAvailable(page, 1);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("No, I accept that my tickets are non-refundable").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel(/^E-ticket/).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("First name").fill("Sam");
  await page.getByLabel("Last name").fill("Guest");
  await finishContacts(page, email);
  await payByCard(page, "4242 4242 4242 4242");
  await expect(page).toHaveURL(/\/checkout\/confirmation$/, { timeout: 30_000 });
  const orderNumber = (await page.locator(".order-facts__number").textContent())!.trim();
  await axe();

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Your account has been created.")).toBeVisible();
  await axe();
  await page.getByRole("link", { name: "See your tickets in My account" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(orderNumber).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Sunday Gala Concerts" }).first()).toBeVisible();
  await axe();
});

test("a non-member is offered membership on a presale performance and gets in with a presale code", async ({
  page,
  visit,
  axe,
  javaScriptEnabled,
}) => {
  await visit(LANTERN);
  await goToLastMonth(page);
  await page
    .locator("a.calendar-performance", { hasText: "Presale" })
    .nth(javaScriptEnabled ? 2 : 3)
    .click();
  await expect(page).toHaveURL(/\/tickets\//);
  if (javaScriptEnabled) {
    await waitForHydration(page);
    // With script the offer is a dialog.
    await expect(page.getByRole("dialog", { name: "This performance is in presale" })).toBeVisible();
  } else {
    await expect(page.getByText("This performance is in presale").first()).toBeVisible();
  }
  await expect(page.getByRole("link", { name: "Become a member" })).toHaveAttribute("href", "/membership");
  await axe();
  await page.getByLabel("Presale or promo code").fill("earlybird");
  await page.getByRole("button", { name: "Apply code" }).click();
  await expect(page.getByText("This performance is in presale")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Find seats" })).toBeVisible();
  await axe();
});

test("an Amex-seat basket refuses a Visa card, before any charge", async ({ page, visit, axe, javaScriptEnabled }) => {
  // Best available never offers sponsored seats, so no other journey reaches for these two.
  const tickets = await firstPerformance(page, GALA, javaScriptEnabled);
  await visit(tickets);
  const amex = page.getByRole("checkbox", { name: new RegExp(`^Stalls, row C, seat ${javaScriptEnabled ? 18 : 20},`) });
  await amex.check();
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Reserve selected seats" }).click();
  await expect(page.getByRole("table", { name: "Your tickets" })).toContainText("American Express");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/checkout\/extras$/);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("No, I accept that my tickets are non-refundable").check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel(/^E-ticket/).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("First name").fill("Alex");
  await page.getByLabel("Last name").fill("Card");
  await finishContacts(page, emailFor("amex", javaScriptEnabled));
  await expect(page.getByText("this order can only be paid with an American Express card")).toBeVisible();
  await expect(page.getByLabel("PayPal")).toHaveCount(0);
  await payByCard(page, "4242 4242 4242 4242");
  await expect(page.getByText("Please enter a valid American Express card number").first()).toBeVisible();
  await expect(page).toHaveURL(/\/checkout\/payment$/);
  await axe();
  await page.getByLabel("Card number", { exact: true }).fill("3782 822463 10005");
  await page.getByLabel("Security code (CVV)").fill("1234");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/checkout\/confirmation$/, { timeout: 30_000 });
});

test("20 wrong passwords in a row are throttled, and then even the right one waits", async ({
  page,
  visit,
  axe,
  javaScriptEnabled,
}) => {
  // On the second server, from an address of this project's own: the address's lock must not hold
  // up the other journeys' sign-ins.
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": javaScriptEnabled ? "203.0.113.10" : "203.0.113.20" });
  const email = emailFor("throttle", javaScriptEnabled);
  await register(page, visit, email, SHORT_HOLD_URL);
  await page.getByRole("link", { name: "Sign out" }).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await visit(`${SHORT_HOLD_URL}/account/sign-in`);
  const answers: string[] = [];
  for (let attempt = 1; attempt <= 20; attempt += 1) {
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password").fill(`wrong password ${attempt}`);
    // Each answer is read after its own response (with script the page stays and is updated).
    await Promise.all([
      page.waitForResponse((response) => response.request().method() === "POST"),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);
    const answer = page.getByRole("alert").getByText(/incorrect|Too many attempts/);
    await expect(answer).toBeVisible();
    answers.push((await answer.textContent()) ?? "");
  }
  // The first wrong passwords are only wrong; then the tries must wait; the last ones are locked out.
  expect(answers.slice(0, 5)).toEqual(Array(5).fill("The email address or password you entered is incorrect."));
  expect(answers.slice(-5)).toEqual(Array(5).fill("Too many attempts. Please try again in 15 minutes."));
  await axe();
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(/Too many attempts/).first()).toBeVisible();
  await expect(page).toHaveURL(/\/account\/sign-in/);
});
