import type { RenderedEmail, Translate } from "./order-email";
import { renderLinkEmail } from "./link-email";

// The password reset email: one link, how long it works, and what to do if it was not you.

export function renderPasswordReset(
  view: { firstName: string; link: string; minutes: number },
  t: Translate,
): RenderedEmail {
  return renderLinkEmail(t("email.reset.subject"), [
    t("email.reset.greeting", { name: view.firstName }),
    t("email.reset.body"),
    { label: t("email.reset.action"), link: view.link },
    t("email.reset.expiry", { minutes: view.minutes }),
    t("email.reset.notYou"),
  ]);
}
