import { escapeHtml, htmlEmail, htmlTicketList, type RenderedEmail, type Translate } from "./order-email";

// The email that tells a buyer what was refunded and where the money went. Every value arrives
// formatted; this file only lays it out, plainly, as the confirmation is.

export interface RefundEmailView {
  orderNumber: string;
  customerName: string;
  email: string;
  showName: string;
  /** Everything given back, formatted. */
  amount: string;
  /** The part back to the card (or PayPal, wallet), formatted; null when none. */
  toCard: string | null;
  /** Each voucher's part: its number's last four characters and the amount, formatted. */
  toVouchers: { ending: string; amount: string }[];
  /** The tickets now void, by their names; empty for an order of none (a membership). */
  tickets: string[];
  /** The whole order, or some of its tickets. */
  whole: boolean;
  /** The order bought a membership, which the refund ends. */
  membershipEnded: boolean;
  supportPhone: string;
}

export function renderRefundNotice(view: RefundEmailView, t: Translate): RenderedEmail {
  const subject = t("refunds.email.subject", { show: view.showName, orderNumber: view.orderNumber })
    .replace(/\s+/g, " ")
    .trim();
  const paragraphs = [
    t("email.greeting", { name: view.customerName }),
    t(view.whole ? "refunds.email.wholeIntro" : "refunds.email.partIntro", {
      orderNumber: view.orderNumber,
      show: view.showName,
      amount: view.amount,
    }),
    ...(view.toCard ? [t("refunds.email.toCard", { amount: view.toCard })] : []),
    ...view.toVouchers.map((voucher) => t("refunds.email.toVoucher", voucher)),
    ...(view.membershipEnded ? [t("refunds.email.membershipEnded")] : []),
  ];
  const closing = [t("refunds.email.help", { phone: view.supportPhone }), t("email.footer", { email: view.email })];
  const ticketsHeading = t("refunds.email.voidTickets", { count: view.tickets.length });

  const text = [
    ...paragraphs.flatMap((paragraph) => [paragraph, ""]),
    ...(view.tickets.length > 0 ? [ticketsHeading, ...view.tickets.map((ticket) => `- ${ticket}`), ""] : []),
    closing[0],
    "",
    "-- ",
    closing[1],
    "",
  ].join("\n");

  const e = escapeHtml;
  const html = htmlEmail({
    subject,
    heading: t("refunds.email.heading"),
    body: [
      ...paragraphs.map((paragraph) => `<p style="margin: 0 0 12px;">${e(paragraph)}</p>`),
      ...htmlTicketList(ticketsHeading, view.tickets),
      `<p style="margin: 0 0 24px;">${e(closing[0]!)}</p>`,
    ],
    footer: closing[1]!,
  });
  return { subject, text, html };
}
