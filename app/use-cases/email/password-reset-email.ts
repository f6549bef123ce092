import { escapeHtml, type RenderedEmail, type Translate } from "./order-email";

// The password reset email: one link, how long it works, and what to do if it was not you.

export function renderPasswordReset(
  view: { firstName: string; link: string; minutes: number },
  t: Translate,
): RenderedEmail {
  const lines = [
    t("email.reset.greeting", { name: view.firstName }),
    t("email.reset.body"),
    view.link,
    t("email.reset.expiry", { minutes: view.minutes }),
    t("email.reset.notYou"),
  ];
  const html = [
    `<p>${escapeHtml(lines[0]!)}</p>`,
    `<p>${escapeHtml(lines[1]!)}</p>`,
    `<p><a href="${escapeHtml(view.link)}">${escapeHtml(t("email.reset.action"))}</a></p>`,
    `<p>${escapeHtml(lines[3]!)}</p>`,
    `<p>${escapeHtml(lines[4]!)}</p>`,
  ].join("\n");
  return { subject: t("email.reset.subject"), text: lines.join("\n\n"), html };
}
