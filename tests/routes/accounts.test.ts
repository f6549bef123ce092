import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../support/app";
import { buyerBrowser } from "../support/browser";
import { emailedLink, emailsTo, registerByEmail } from "../support/outbox";

// Accounts as a browser without script uses them: register (by the emailed link), sign in and out,
// reset a password.

const JO = { firstName: "Jo", lastName: "Bloggs", email: "jo@example.com", password: "correct horse battery" };

/** The page's text as a reader sees it: React writes apostrophes as entities. */
const decode = (html: string) => html.replaceAll("&#x27;", "'");

describe("accounts", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const browser = () => buyerBrowser(server.url);

  it("registers by the emailed link: nothing exists until it is followed, then it is, signed in; signing out after confirming", async () => {
    const buyer = browser();
    const { password, ...details } = JO;
    const asked = await buyer.post("/account/register", { ...details, redirectTo: "" });
    expect(asked.status).toBe(303);
    expect(asked.headers.get("Location")).toBe("/account/register?sent");
    expect(decode(await (await buyer.get("/account/register?sent")).text())).toContain(
      "We've sent an email to the address you gave. Open the link in it to finish creating your account",
    );
    // Not signed in, and no account to sign in to until the link is followed.
    expect((await buyer.get("/account")).status).toBe(303);
    expect(await server.services.store.db.selectFrom("customers").selectAll().execute()).toEqual([]);

    const link = await emailedLink(server.services, JO.email, "signUpLink");
    expect(link).toMatch(/^\/account\/create\/[\w-]{43}$/);
    const page = await buyer.get(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Choose a password to finish creating the account for jo@example.com.");
    const short = await buyer.post(link, { password: "short" });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("Your password must be between 8 and 200 characters long");
    const made = await buyer.post(link, { password });
    expect(made.status).toBe(303);
    expect(made.headers.get("Location")).toBe("/account?account=created");
    const home = await (await buyer.get("/account?account=created")).text();
    expect(home).toContain("Your account has been created.");
    expect(home).toContain("Signed in as Jo Bloggs (jo@example.com).");
    expect(home).toContain("You have no upcoming performances booked.");
    // Once only.
    expect(await (await browser().get(link)).text()).toContain("This link is not valid");
    expect((await browser().post(link, { password: "taken over now" })).status).toBe(400);

    const confirm = await buyer.get("/account/sign-out");
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).not.toContain("seat availability or prices may change");
    const out = await buyer.post("/account/sign-out", {});
    expect(out.headers.get("Location")).toBe("/");
    const again = await buyer.get("/account");
    expect(again.status).toBe(303);
    expect(again.headers.get("Location")).toBe("/account/sign-in?redirectTo=%2Faccount");
  });

  it("answers the same whether or not an email has an account, and tells each owner by email", async () => {
    const ask = async (email: string) => {
      const buyer = browser();
      const asked = await buyer.post("/account/register", { firstName: "Mal", lastName: "Ory", email, redirectTo: "" });
      const page = await buyer.get(asked.headers.get("Location") ?? "/");
      // The page less its per-response CSRF mask and nonce: what a reader could compare.
      const text = (await page.text()).replace(/[\w-]{86}/g, "").replace(/nonce="[^"]*"/g, "");
      return { status: asked.status, location: asked.headers.get("Location"), page: page.status, text };
    };
    const known = await ask(" JO@example.com");
    const unknown = await ask("not.yet@example.com");
    expect(known).toEqual(unknown);
    expect(known).toMatchObject({ status: 303, location: "/account/register?sent", page: 200 });

    // The owner of the known email is told someone tried, with the ways in; their account is unchanged.
    const [warning] = await emailsTo(server.services, JO.email, "alreadyRegistered");
    expect(warning!.subject).toBe("Someone tried to create an account with your email address");
    expect(warning!.text_body).toContain("Hello Jo,");
    expect(warning!.text_body).toContain(`${server.url("/account/sign-in")}`);
    expect(warning!.text_body).toContain(`${server.url("/account/forgotten-password")}`);
    expect(await emailsTo(server.services, JO.email, "signUpLink")).toHaveLength(1);
    // The new one gets the link that creates the account, and nothing exists for it yet.
    const [invitation] = await emailsTo(server.services, "not.yet@example.com");
    expect(invitation).toMatchObject({ kind: "signUpLink", subject: "Finish creating your account" });
    // Nothing the asker typed but the address reaches an inbox no one has proven.
    expect(invitation!.text_body).toContain("Hello,");
    expect(invitation!.text_body + invitation!.html_body).not.toContain("Mal");
    expect(invitation!.text_body).toContain("The link works once, for 24 hours.");
    const accounts = await server.services.store.db.selectFrom("customers").select("email").execute();
    expect(accounts).toEqual([{ email: JO.email }]);
    const signedIn = await browser().post("/account/sign-in", {
      email: JO.email,
      password: JO.password,
      redirectTo: "",
    });
    expect(signedIn.status).toBe(303);
  });

  it("a link does one thing: a reset link creates no account, a sign-up link resets no password", async () => {
    const buyer = browser();
    const ann = { firstName: "Ann", lastName: "Other", email: "ann@example.com" };
    await registerByEmail(buyer, server.services, ann, JO.password);
    await buyer.post("/account/forgotten-password", { email: ann.email });
    const reset = await emailedLink(server.services, ann.email, "passwordReset");
    const resetToken = reset.split("/").pop()!;
    expect(await (await buyer.get(`/account/create/${resetToken}`)).text()).toContain("This link is not valid");
    expect((await buyer.post(`/account/create/${resetToken}`, { password: "taken over now" })).status).toBe(400);

    const bea = { firstName: "Bea", lastName: "Other", email: "bea@example.com", redirectTo: "" };
    await buyer.post("/account/register", bea);
    const signUp = await emailedLink(server.services, bea.email, "signUpLink");
    const signUpToken = signUp.split("/").pop()!;
    expect(await (await buyer.get(`/account/reset-password/${signUpToken}`)).text()).toContain(
      "This link is not valid",
    );
    expect((await buyer.post(`/account/reset-password/${signUpToken}`, { password: "taken over now" })).status).toBe(
      400,
    );
    // Each still does its own thing: nothing above used either up.
    expect(await (await buyer.get(signUp)).text()).toContain("Choose a password");
    expect(await (await buyer.get(reset)).text()).toContain("Choose a new password");
  });

  it("refuses every field's mistake, keeping what was typed", async () => {
    const empty = await buyerBrowser(server.url).post("/account/register", { email: "not an email" });
    expect(empty.status).toBe(400);
    const page = await empty.text();
    expect(page).toMatch(/<title>Error: /);
    for (const text of [
      "Please enter your first name",
      "Please enter your last name",
      "Please enter a valid email address",
    ])
      expect(page).toContain(text);
    expect(page).toContain('value="not an email"');
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
      server.services.store.db
        .selectFrom("email_outbox")
        .selectAll()
        .where("kind", "=", "passwordReset")
        .where("to_address", "in", ["nobody@example.com", JO.email])
        .execute();
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
