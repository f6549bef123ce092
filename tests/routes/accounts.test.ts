import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { buyerBrowser } from "../support/browser";

// Accounts as a browser without script uses them: register, sign in and out, reset a password.

const JO = { firstName: "Jo", lastName: "Bloggs", email: "jo@example.com", password: "correct horse battery" };

describe("accounts", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const browser = () => buyerBrowser(server.url);

  it("registers, lands on My account signed in, signs out after confirming, and is asked to sign in again", async () => {
    const buyer = browser();
    const made = await buyer.post("/account/register", { ...JO, redirectTo: "" });
    expect(made.status).toBe(303);
    expect(made.headers.get("Location")).toBe("/account");
    const home = await (await buyer.get("/account")).text();
    expect(home).toContain("Signed in as Jo Bloggs (jo@example.com).");
    expect(home).toContain("You have no upcoming performances booked.");

    const confirm = await buyer.get("/account/sign-out");
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).not.toContain("seat availability or prices may change");
    const out = await buyer.post("/account/sign-out", {});
    expect(out.headers.get("Location")).toBe("/");
    const again = await buyer.get("/account");
    expect(again.status).toBe(303);
    expect(again.headers.get("Location")).toBe("/account/sign-in?redirectTo=%2Faccount");
  });

  it("refuses a second account for the same email, and every field's mistake, keeping what was typed but the password", async () => {
    const buyer = browser();
    const taken = await buyer.post("/account/register", { ...JO, email: " JO@example.com", redirectTo: "" });
    expect(taken.status).toBe(400);
    const page = await taken.text();
    expect(page).toContain("There is already an account for this email address.");
    expect(page).toMatch(/<title>Error: /);
    expect(page).not.toContain(JO.password);

    const empty = await (await buyer.post("/account/register", { password: "short" })).text();
    for (const text of [
      "Please enter your first name",
      "Please enter your last name",
      "Please enter a valid email address",
      "Your password must be between 8 and 200 characters long",
    ])
      expect(empty).toContain(text);
  });

  it("a wrong password and an unknown email read the same; the right one signs in and goes back where the buyer was", async () => {
    const buyer = browser();
    const wrong = await buyer.post("/account/sign-in", { email: JO.email, password: "not it", redirectTo: "" });
    const unknown = await buyer.post("/account/sign-in", {
      email: "nobody@example.com",
      password: "not it",
      redirectTo: "",
    });
    expect([wrong.status, unknown.status]).toEqual([400, 400]);
    const [wrongPage, unknownPage] = [await wrong.text(), await unknown.text()];
    for (const page of [wrongPage, unknownPage])
      expect(page).toContain("The email address or password you entered is incorrect.");
    expect(wrongPage).not.toContain("not it");

    const empty = await (await buyer.post("/account/sign-in", {})).text();
    expect(empty).toContain("Please enter a valid email address");
    expect(empty).toContain("Please enter your password");

    const signedIn = await buyer.post("/account/sign-in", {
      email: "Jo@Example.com",
      password: JO.password,
      redirectTo: "/checkout/payment",
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("Location")).toBe("/checkout/payment");
    // Already signed in: the sign-in page sends the customer on.
    expect((await buyer.get("/account/sign-in")).headers.get("Location")).toBe("/account");
  });

  it("never sends the customer to another site after signing in", async () => {
    const buyer = browser();
    for (const redirectTo of ["//evil.example/", "https://evil.example/", "/\\evil.example"]) {
      const signedIn = await buyer.post("/account/sign-in", { email: JO.email, password: JO.password, redirectTo });
      expect(signedIn.headers.get("Location")).toBe("/account");
    }
  });

  it("a reset link arrives by email for an account only, works once, and signs in with the new password", async () => {
    const buyer = browser();
    const outbox = () =>
      server.services.store.db.selectFrom("email_outbox").selectAll().where("kind", "=", "passwordReset").execute();
    for (const email of ["nobody@example.com", JO.email]) {
      const asked = await buyer.post("/account/forgotten-password", { email });
      expect(asked.headers.get("Location")).toBe("/account/forgotten-password?sent");
    }
    expect(await (await buyer.get("/account/forgotten-password?sent")).text()).toContain(
      "If there&#x27;s an account for that email address, we&#x27;ve sent it a link",
    );
    const mails = await outbox();
    expect(mails.map((mail) => mail.to_address)).toEqual([JO.email]);
    const link = /\/account\/reset-password\/[\w-]+/.exec(mails[0]!.text_body)![0];

    expect(await (await buyer.get(link)).text()).toContain("Choose a new password");
    const short = await buyer.post(link, { password: "short" });
    expect(short.status).toBe(400);
    const reset = await buyer.post(link, { password: "a brand new password" });
    expect(reset.headers.get("Location")).toBe("/account");
    expect(await (await buyer.get("/account")).text()).toContain("Signed in as Jo Bloggs");
    expect(await (await buyer.get(link)).text()).toContain("This link is not valid");

    const old = await browser().post("/account/sign-in", { email: JO.email, password: JO.password, redirectTo: "" });
    expect(old.status).toBe(400);
    JO.password = "a brand new password";
  });

  it("throttles wrong passwords: after 20 in a row the account is refused for a while", async () => {
    const buyer = browser();
    const attempt = async (password: string) =>
      (await buyer.post("/account/sign-in", { email: "target@example.com", password, redirectTo: "" })).text();
    for (let n = 0; n < 20; n += 1) await attempt(`guess ${n}`);
    // Whether the last guess was refused or counted, the next one at once is refused unread.
    expect(await attempt("one more guess")).toMatch(/Too many attempts\. Please try again in \d+ minutes?\./);
  });
});
