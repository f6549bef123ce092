import { describe, expect, it } from "vitest";
import { renderPasswordReset } from "~/use-cases/email/password-reset-email";
import { renderAlreadyRegistered, renderSignUpLink } from "~/use-cases/email/sign-up-email";
import { LANGUAGES } from "~/i18n/languages";
import { translator } from "../support/translate";

// The account emails: a request for an account sends one of two, and each carries its links whole
// in the text part and named in the HTML part, with nothing typed able to become markup.

const LINK = "https://tickets.example/account/create/abc_DEF-123";

describe.each(LANGUAGES)("the account emails in %s", (language) => {
  const t = translator(language);

  it("the sign-up link: the link, once, for its hours, and no name the asker typed", () => {
    const email = renderSignUpLink({ link: LINK, hours: 24 }, t);
    expect(email.subject).toBe("Finish creating your account");
    expect(email.text.split("\n\n")).toEqual([
      "Hello,",
      "Someone asked to create an account with this email address. To choose a password and finish creating it, open this link:",
      LINK,
      "The link works once, for 24 hours.",
      "If you didn't ask for this, you can ignore this email: no account is created unless the link is opened and a password chosen.",
    ]);
    expect(email.html).toContain(`<p><a href="${LINK}">Choose a password</a></p>`);
    expect(renderSignUpLink({ link: LINK, hours: 1 }, t).text).toContain("The link works once, for 1 hour.");
  });

  it("an email with an account: word that someone tried, the ways in, the owner's own name escaped", () => {
    const email = renderAlreadyRegistered(
      {
        firstName: "<b>Jo</b>",
        signInLink: "https://tickets.example/account/sign-in",
        resetLink: "https://tickets.example/account/forgotten-password",
      },
      t,
    );
    expect(email.subject).toBe("Someone tried to create an account with your email address");
    expect(email.text).toContain("Hello <b>Jo</b>,");
    expect(email.text).toContain("\n\nhttps://tickets.example/account/sign-in\n\n");
    expect(email.text).toContain("\n\nhttps://tickets.example/account/forgotten-password\n\n");
    expect(email.html).toContain("Hello &lt;b&gt;Jo&lt;/b&gt;,");
    expect(email.html).not.toContain("<b>");
    expect(email.html).toContain('<a href="https://tickets.example/account/sign-in">Sign in</a>');
    expect(email.html).toContain(
      '<a href="https://tickets.example/account/forgotten-password">Reset your password</a>',
    );
  });

  it("the reset email keeps its words and layout on the shared layout", () => {
    const email = renderPasswordReset({ firstName: "Jo", link: LINK, minutes: 60 }, t);
    expect(email.subject).toBe("Reset your password");
    expect(email.text.split("\n\n")).toEqual([
      "Hello Jo,",
      "Someone asked to reset the password of your account. To choose a new password, open this link:",
      LINK,
      "The link works once, for 60 minutes.",
      "If you didn't ask for this, you can ignore this email: your password has not changed.",
    ]);
    expect(email.html.split("\n")).toHaveLength(5);
    expect(email.html).toContain(`<p><a href="${LINK}">Choose a new password</a></p>`);
  });
});
