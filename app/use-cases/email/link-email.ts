import { escapeHtml, type RenderedEmail } from "./order-email";

// The account emails' one layout: paragraphs and links, one to a paragraph. In the text part a
// link is its address alone, on its own line; in the HTML part, a link named by its label.

export type LinkEmailPart = string | { label: string; link: string };

export function renderLinkEmail(subject: string, parts: LinkEmailPart[]): RenderedEmail {
  const text = parts.map((part) => (typeof part === "string" ? part : part.link)).join("\n\n");
  const html = parts
    .map((part) =>
      typeof part === "string"
        ? `<p>${escapeHtml(part)}</p>`
        : `<p><a href="${escapeHtml(part.link)}">${escapeHtml(part.label)}</a></p>`,
    )
    .join("\n");
  return { subject, text, html };
}
