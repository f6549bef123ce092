import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { paidOrder } from "~/checkout/order.server";
import { orderView } from "~/checkout/order-view.server";
import { BasketSummary } from "~/components/checkout-step";
import { formatDateTime } from "~/components/format";

// /checkout/confirmation: the order just paid for. Reached only through a paid order (its cookie,
// set when the payment succeeded): coming back to this URL without paying confirms nothing.

export const handle = { titleKey: "checkout.steps.confirmation" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const order = await paidOrder(request, context);
  return { order: order ? await orderView(context.store.db, order) : null };
}

export default function Confirmation() {
  const { t, i18n } = useTranslation();
  const { order } = useLoaderData<typeof loader>();
  if (!order) {
    return (
      <>
        <h1>{t("checkout.steps.confirmation")}</h1>
        <p>{t("confirmation.noOrder")}</p>
        <p>
          <Link to="/">{t("confirmation.findShow")}</Link>
        </p>
      </>
    );
  }
  return (
    <div className="order-confirmation">
      <h1>{t("checkout.steps.confirmation")}</h1>
      <div className="message" role="status">
        <p>{t("confirmation.thanks", { name: order.customerName })}</p>
        <p>{t("confirmation.emailSent", { email: order.email })}</p>
      </div>
      <dl className="order-facts">
        <dt>{t("confirmation.number")}</dt>
        <dd className="order-facts__number">{order.number}</dd>
        <dt>{t("confirmation.customer")}</dt>
        <dd>{order.customerName}</dd>
        <dt>{t("confirmation.show")}</dt>
        <dd>{order.showName}</dd>
        <dt>{t("confirmation.performance")}</dt>
        <dd>
          {order.startsAt ? formatDateTime(order.startsAt, order.timeZone, i18n.language) : ""}, {order.venueName}
        </dd>
        <dt>{t("confirmation.tickets")}</dt>
        <dd>
          <ul>
            {order.tickets.map((ticket) => (
              <li key={ticket.id}>{ticket.label}</li>
            ))}
          </ul>
        </dd>
        <dt>{t("confirmation.delivery")}</dt>
        <dd>{order.delivery ? t(`delivery.${order.delivery}`) : ""}</dd>
        <dt>{t("confirmation.email")}</dt>
        <dd>{order.email}</dd>
      </dl>
      {order.eTicketsKey ? (
        <p>
          <a href={`/e-tickets/${order.eTicketsKey}`} className="button">
            {t("confirmation.viewTickets")}
          </a>
        </p>
      ) : null}
      {order.delivery === "boxOffice" ? <p>{t("confirmation.collect")}</p> : null}
      {order.address ? (
        <>
          <p>{t("confirmation.posted")}</p>
          <address>
            {[order.address.line1, order.address.line2, order.address.city, order.address.state, order.address.postcode]
              .filter(Boolean)
              .map((part) => (
                <span key={part} className="address-line">
                  {part}
                </span>
              ))}
          </address>
        </>
      ) : null}
      <BasketSummary summary={order.summary} />
    </div>
  );
}
