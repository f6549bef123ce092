import type { RenderedEmail, Translate } from "./order-email";
import { renderLinkEmail } from "./link-email";

// The two emails a request for an account sends, one or the other: to a new address, the link
// that creates the account; to an address with an account, word that someone tried, with the
// ways to sign in. The person who asked is told the same either way: only the owner learns which.

/**
 * No name in it: the name was typed by whoever asked, and this email goes to an address no one has
 * proven yet, so nothing a stranger typed is carried into someone else's inbox.
 */
export function renderSignUpLink(view: { link: string; hours: number }, t: Translate): RenderedEmail {
  return renderLinkEmail(t("email.signUp.subject"), [
    t("email.signUp.greeting"),
    t("email.signUp.body"),
    { label: t("email.signUp.action"), link: view.link },
    t("email.signUp.expiry", { count: view.hours }),
    t("email.signUp.notYou"),
  ]);
}

export function renderAlreadyRegistered(
  view: { firstName: string; signInLink: string; resetLink: string },
  t: Translate,
): RenderedEmail {
  return renderLinkEmail(t("email.alreadyRegistered.subject"), [
    t("email.reset.greeting", { name: view.firstName }),
    t("email.alreadyRegistered.body"),
    { label: t("email.alreadyRegistered.signIn"), link: view.signInLink },
    t("email.alreadyRegistered.forgotten"),
    { label: t("email.alreadyRegistered.reset"), link: view.resetLink },
    t("email.alreadyRegistered.notYou"),
  ]);
}
