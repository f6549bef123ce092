import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { receivedMail } from "./mail-server";
import { goToLastMonth } from "./seats";

// Accounts in a real browser. The smoke journey (register by the emailed link, sign out, sign in) runs with script
// and without; the presale offer is a dialog only with script. Membership, presale, access
// booking, sponsored seats, buying as a guest and sign-in throttling are proven without script at
// the HTML level by tests/journeys/accounts.test.ts, in both languages.

// A refused form answers 400, 409 or 429, which the browser logs as a failed resource.
test.use({ expectedConsoleErrors: [/status of 4(00|09|29)/] });

const PASSWORD = "correct horse battery staple";

/** The path of the sign-up link in the email sent to this address, once it has arrived. */
async function signUpLink(email: string): Promise<string> {
  let link = "";
  await expect
    .poll(
      () => {
        // Quoted-printable's soft line breaks undone, so the link is whole.
        const mail = receivedMail().find((message) => message.includes(`To: ${email}`));
        link = /\/account\/create\/[\w-]+/.exec(mail?.replace(/=\r?\n/g, "") ?? "")?.[0] ?? "";
        return link;
      },
      { timeout: 30_000 },
    )
    .not.toBe("");
  return link;
}

/** Registers: the form, then the emailed link, where the password is chosen. */
async function register(page: Page, visit: (url: string) => Promise<unknown>, email: string) {
  await visit("/account/register");
  await page.getByLabel("First name").fill("Jo");
  await page.getByLabel("Last name").fill("Bloggs");
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("We've sent an email to the address you gave.")).toBeVisible();
  await visit(await signUpLink(email));
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/account\?account=created$/);
  await expect(page.getByText(`Signed in as Jo Bloggs (${email}).`)).toBeVisible();
}

test("@smoke register, sign out, and sign in again", async ({ page, visit, axe, javaScriptEnabled }) => {
  const email = `smoke-${javaScriptEnabled ? "js" : "nojs"}@example.com`;
  await register(page, visit, email);
  await axe();
  await page.getByRole("link", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/account\/sign-out$/);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("banner").getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/account\/sign-in/);
  await axe();
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("banner").getByRole("link", { name: "My account" })).toBeVisible();
});

test.describe("in US English", () => {
  test.use({ locale: "en-US" });

  test("@js a non-member on a presale performance is offered membership in a dialog, and gets in with a code", async ({
    page,
    visit,
    axe,
  }) => {
    await visit("/shows/broadway-lights/liberty-theatre/calendar");
    await goToLastMonth(page);
    await page.locator("a.calendar-performance", { hasText: "Presale" }).first().click();
    await expect(page).toHaveURL(/\/tickets\//);
    await waitForHydration(page);
    const offer = page.getByRole("dialog", { name: "This performance is in presale" });
    await expect(offer).toBeVisible();
    await expect(offer.getByRole("link", { name: "Become a member" })).toHaveAttribute("href", "/membership");
    await axe();
    await offer.getByLabel("Presale or promo code").fill("earlybird");
    await offer.getByRole("button", { name: "Apply code" }).click();
    await expect(page.getByRole("dialog", { name: "This performance is in presale" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Find seats" })).toBeVisible();
  });
});
