import type { LoaderFunctionArgs } from "@remix-run/node";
import { RefundNotice } from "~/components/refund-notice";
import { OrderVisit } from "~/components/order-visit";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "~/i18n/format";
import { barcodeSvg } from "~/use-cases/barcode.server";
import type { SupportPhoneHandle } from "~/components/support-phone";
import type { PageHandle } from "~/root";

// A paid order's e-tickets, one per place, each with a QR code drawn on the server: printable,
// and readable on a phone at the door. The link's key is a secret of its own (not the order
// number), so knowing an order number is not enough to see its tickets. A refunded ticket stays
// on the page, marked void, without its barcode: nothing on it could let anyone in.

export const handle: PageHandle & SupportPhoneHandle = {
  titleKey: "eTickets.title",
  // The order's venue's number, not the deployment's: it is the venue that can help at the door.
  supportPhone: (data) => (data as { supportPhone?: string | null } | undefined)?.supportPhone,
};

export async function loader({ params, context }: LoaderFunctionArgs) {
  const order = params.key ? await context.orders.byAccessKey(params.key) : undefined;
  if (!order || order.status !== "paid") throw new Response(null, { status: 404 });
  const view = await context.orderViews.view(order);
  const tickets = await Promise.all(
    view.tickets.map(async (ticket) => ({ ...ticket, svg: ticket.barcode ? await barcodeSvg(ticket.barcode) : null })),
  );
  return { ...view, tickets };
}

export default function ETickets() {
  const { t, i18n } = useTranslation();
  const order = useLoaderData<typeof loader>();
  const when = order.startsAt ? formatDateTime(order.startsAt, order.timeZone, i18n.language) : "";
  return (
    <div className="e-tickets">
      <h1>{t("eTickets.title")}</h1>
      <RefundNotice refund={order.refund} />
      <p>{t("eTickets.showAtDoor")}</p>
      <ol className="e-tickets__list">
        {order.tickets.map((ticket) => (
          <li key={ticket.id} className="e-ticket">
            <h2 className="e-ticket__show">{order.showName}</h2>
            <p>
              {when}, {order.venueName}
            </p>
            <p className="e-ticket__place">{ticket.label}</p>
            <p>
              {t("eTickets.order", { number: order.number })} · {order.customerName}
            </p>
            {ticket.svg && ticket.barcode ? (
              <>
                <div
                  className="e-ticket__barcode"
                  role="img"
                  aria-label={t("eTickets.barcode", { ticket: ticket.label })}
                  // The SVG is made on our server from our own random barcode value, never from input.
                  dangerouslySetInnerHTML={{ __html: ticket.svg }}
                />
                <p className="e-ticket__code">{ticket.barcode}</p>
              </>
            ) : (
              <>
                <p className="e-ticket__void">
                  <strong>{t("refunds.page.void")}</strong>
                </p>
                <p>{t("refunds.page.voidNote")}</p>
              </>
            )}
          </li>
        ))}
      </ol>
      {order.visit ? <OrderVisit venueName={order.venueName} showName={order.showName} visit={order.visit} /> : null}
    </div>
  );
}
