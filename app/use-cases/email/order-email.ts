// The order confirmation email, as plain text and as HTML. Every value arrives formatted and
// translated; this file only lays it out. The HTML is deliberately plain (one column, inline
// styles, real headings and table headers) because mail clients strip style sheets, and screen
// reader users read email too.

export interface OrderEmailView {
  orderNumber: string;
  customerName: string;
  email: string;
  showName: string;
  venueName: string;
  /** Already formatted in the venue's time zone. */
  when: string;
  /** Seat or place labels, e.g. "Stalls, row F, seat 12". */
  tickets: string[];
  /** The delivery method's label, already translated. */
  delivery: string;
  /** The performance's access services, already translated and listed ("" for none). */
  access: string;
  /** The catalogue's notes about them ("Touch tour at 12:30…"; "" for none). */
  accessNotes: string;
  /** Itemised, with money already formatted. */
  lines: { label: string; amount: string }[];
  total: string;
  paid: string;
  /** Absolute link to the printable e-tickets, when they are delivered as e-tickets. */
  eTicketsUrl: string | null;
  /** The venue's address, its map link, the way there and the calendar entry; null without a venue. */
  visit: {
    lines: string[];
    mapUrl: string;
    /** The catalogue's way there, in paragraphs ("" for nothing said). */
    travel: string;
    /** Absolute link to the performance's .ics, offered with e-tickets. */
    calendarUrl: string | null;
  } | null;
  supportPhone: string;
}

export type Translate = (key: string, options?: Record<string, unknown>) => string;

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** For text and attribute values alike: nothing a buyer typed can become markup. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

// Only web links become hrefs: a misconfigured PUBLIC_URL must not turn into a javascript: link.
const isWebLink = (url: string | null): url is string => !!url && /^https?:\/\//i.test(url);

const FONT = "font-family: Arial, Helvetica, sans-serif; color: #1a1a1a;";

/**
 * Every email's HTML page around its own lines: one column, inline styles (mail clients strip
 * style sheets), the heading first, the small print last.
 */
export function htmlEmail({
  subject,
  heading,
  body,
  footer,
}: {
  subject: string;
  heading: string;
  body: string[];
  footer: string;
}) {
  const e = escapeHtml;
  return [
    "<!DOCTYPE html>",
    '<html><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(subject)}</title></head>`,
    `<body style="margin: 0; padding: 16px; background: #ffffff; ${FONT}">`,
    `<div style="max-width: 600px; margin: 0 auto; font-size: 16px; line-height: 1.5; ${FONT}">`,
    `<h1 style="font-size: 24px; margin: 0 0 16px;">${e(heading)}</h1>`,
    ...body,
    `<p style="margin: 0; font-size: 13px; color: #4a4a4a;">${e(footer)}</p>`,
    "</div>",
    "</body></html>",
    "",
  ].join("\n");
}

/** A heading and a list of tickets (or nothing, when there are none). */
export function htmlTicketList(heading: string, tickets: readonly string[]): string[] {
  if (tickets.length === 0) return [];
  const e = escapeHtml;
  return [
    `<h2 style="font-size: 20px; margin: 24px 0 8px;">${e(heading)}</h2>`,
    '<ul style="margin: 0 0 16px; padding-left: 24px;">',
    ...tickets.map((ticket) => `<li>${e(ticket)}</li>`),
    "</ul>",
  ];
}

/** The catalogue's text in paragraphs as the operator wrote them (blank lines between). */
function paragraphsOf(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

const CELL = "padding: 6px 8px; border-bottom: 1px solid #d0d0d0; text-align: left; vertical-align: top;";
const AMOUNT = "padding: 6px 8px; border-bottom: 1px solid #d0d0d0; text-align: right; white-space: nowrap;";

export function renderOrderConfirmation(view: OrderEmailView, t: Translate): RenderedEmail {
  // A subject is one header line; a show name with a line break must not start another header.
  const subject = t("email.subject", { show: view.showName, orderNumber: view.orderNumber })
    .replace(/\s+/g, " ")
    .trim();
  const field = (label: string, value: string) => t("email.field", { label, value });

  const details: [string, string][] = (
    [
      [t("email.orderNumber"), view.orderNumber],
      [t("email.show"), view.showName],
      [t("email.venue"), view.venueName],
      [t("email.when"), view.when],
      [t("email.delivery"), view.delivery],
      [t("access.booking.services"), view.access],
      [t("access.booking.notes"), view.accessNotes],
    ] as [string, string][]
  ).filter(([, value]) => value !== "");
  const eTicketsUrl = isWebLink(view.eTicketsUrl) ? view.eTicketsUrl : null;
  const visit = view.visit;
  const mapUrl = visit && isWebLink(visit.mapUrl) ? visit.mapUrl : null;
  const calendarUrl = visit && isWebLink(visit.calendarUrl) ? visit.calendarUrl : null;
  const travel = visit ? paragraphsOf(visit.travel) : [];
  const totals: [string, string][] = [
    [t("email.total"), view.total],
    [t("email.paid"), view.paid],
  ];

  const text = [
    t("email.greeting", { name: view.customerName }),
    "",
    t("email.intro"),
    "",
    ...details.map(([label, value]) => field(label, value)),
    ...(view.tickets.length > 0 ? ["", `${t("email.tickets")}:`, ...view.tickets.map((ticket) => `- ${ticket}`)] : []),
    ...(eTicketsUrl ? ["", t("email.eTicketsIntro"), eTicketsUrl, t("email.keepLink")] : []),
    ...(visit
      ? [
          "",
          `${t("orderVisit.heading")}:`,
          field(t("orderVisit.address"), [view.venueName, ...visit.lines].join(", ")),
          ...(mapUrl ? [field(t("orderVisit.map"), mapUrl)] : []),
          ...travel.flatMap((paragraph) => ["", paragraph]),
        ]
      : []),
    ...(calendarUrl ? ["", t("orderVisit.calendarIntro"), calendarUrl] : []),
    "",
    `${t("email.summary")}:`,
    ...view.lines.map((line) => field(line.label, line.amount)),
    ...totals.map(([label, value]) => field(label, value)),
    "",
    t("email.help", { phone: view.supportPhone }),
    "",
    t("email.signOff"),
    "",
    "-- ",
    t("email.footer", { email: view.email }),
    "",
  ].join("\n");

  const e = escapeHtml;
  const body = [
    `<p style="margin: 0 0 12px;">${e(t("email.greeting", { name: view.customerName }))}</p>`,
    `<p style="margin: 0 0 16px;">${e(t("email.intro"))}</p>`,
    '<table style="border-collapse: collapse; width: 100%; margin: 0 0 16px;">',
    ...details.map(
      ([label, value]) =>
        `<tr><th scope="row" style="${CELL} width: 40%;">${e(label)}</th><td style="${CELL}">${e(value)}</td></tr>`,
    ),
    "</table>",
    ...htmlTicketList(t("email.tickets"), view.tickets),
    ...(eTicketsUrl
      ? [
          `<p style="margin: 0 0 12px;">${e(t("email.eTicketsIntro"))}</p>`,
          `<p style="margin: 0 0 12px;"><a href="${e(eTicketsUrl)}" style="display: inline-block; padding: 12px 20px; background: #1a4d8f; color: #ffffff; font-weight: bold; text-decoration: underline;">${e(t("email.eTicketsLink"))}</a></p>`,
          `<p style="margin: 0 0 16px; font-size: 14px;">${e(t("email.keepLink"))}</p>`,
        ]
      : []),
    ...(visit
      ? [
          `<h2 style="font-size: 20px; margin: 24px 0 8px;">${e(t("orderVisit.heading"))}</h2>`,
          `<p style="margin: 0 0 12px;">${[view.venueName, ...visit.lines].map(e).join("<br>")}</p>`,
          ...(mapUrl
            ? [
                `<p style="margin: 0 0 12px;"><a href="${e(mapUrl)}" style="color: #1a4d8f;">${e(t("venuePage.map", { venue: view.venueName }))}</a></p>`,
              ]
            : []),
          ...travel.map((paragraph) => `<p style="margin: 0 0 12px;">${e(paragraph)}</p>`),
        ]
      : []),
    ...(calendarUrl
      ? [
          `<p style="margin: 0 0 16px;"><a href="${e(calendarUrl)}" style="color: #1a4d8f;">${e(t("orderVisit.calendar", { show: view.showName }))}</a></p>`,
        ]
      : []),
    `<h2 style="font-size: 20px; margin: 24px 0 8px;">${e(t("email.summary"))}</h2>`,
    '<table style="border-collapse: collapse; width: 100%; margin: 0 0 16px;">',
    `<thead><tr><th scope="col" style="${CELL}">${e(t("email.item"))}</th><th scope="col" style="${AMOUNT}">${e(t("email.amount"))}</th></tr></thead>`,
    "<tbody>",
    ...view.lines.map(
      (line) => `<tr><td style="${CELL}">${e(line.label)}</td><td style="${AMOUNT}">${e(line.amount)}</td></tr>`,
    ),
    "</tbody>",
    "<tfoot>",
    ...totals.map(
      ([label, value]) =>
        `<tr><th scope="row" style="${CELL}">${e(label)}</th><td style="${AMOUNT} font-weight: bold;">${e(value)}</td></tr>`,
    ),
    "</tfoot>",
    "</table>",
    `<p style="margin: 0 0 12px;">${e(t("email.help", { phone: view.supportPhone }))}</p>`,
    `<p style="margin: 0 0 24px;">${e(t("email.signOff"))}</p>`,
  ];
  const html = htmlEmail({
    subject,
    heading: t("email.heading"),
    body,
    footer: t("email.footer", { email: view.email }),
  });

  return { subject, text, html };
}
