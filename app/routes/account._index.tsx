import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { accountFlag, detailsSaved } from "~/forms/schemas.server";
import { requireCustomer } from "~/web/session.server";
import { formatDate, formatDateTime, formatMoney } from "~/i18n/format";
import { RefundNotice } from "~/components/refund-notice";

// My account: who is signed in, their membership, and their tickets: upcoming performances and
// past ones apart, each order with its places and a link to its e-tickets (the page with the
// barcodes).

export const handle = { titleKey: "account.home.title", query: ["account"] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const customer = await requireCustomer(request, context);
  const now = context.clock.now().getTime();
  const orders = (await context.orders.paidByCustomer(customer.id))
    // Orders for no performance (a membership) are not tickets: the membership section shows them.
    .flatMap((order) =>
      order.performance_id && order.starts_at
        ? [
            {
              number: order.number,
              show: order.show_name,
              venue: order.venue_name ?? "",
              startsAt: order.starts_at,
              timeZone: order.time_zone ?? "UTC",
              places: order.tickets,
              refund: order.refund_status
                ? { status: order.refund_status, amount: order.refunded, currency: order.currency }
                : null,
              total: order.total,
              currency: order.currency,
              delivery: order.delivery_method,
              // The e-tickets page is open to whoever holds the order's key, its owner included;
              // tickets sent by post or kept at the box office have no e-tickets to show.
              eTickets:
                order.delivery_method === "eTicket" && order.access_key ? `/e-tickets/${order.access_key}` : null,
              past: Date.parse(order.starts_at) < now,
            },
          ]
        : [],
    );
  return {
    customer: { name: `${customer.firstName} ${customer.lastName}`, email: customer.email },
    membership: await context.memberships.status(customer.id),
    timeZone: context.config.market.timeZone,
    saved: detailsSaved(request),
    created: accountFlag(request) === "created",
    upcoming: orders.filter((order) => !order.past),
    // The most recent first: what a customer looks back for is usually what they last saw.
    past: orders.filter((order) => order.past).reverse(),
  };
}

type Listed = Awaited<ReturnType<typeof loader>>["upcoming"];

function OrderList({ orders, kind }: { orders: Listed; kind: "upcoming" | "past" }) {
  const { t, i18n } = useTranslation();
  const headingId = `tickets-${kind}-heading`;
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>{t(`account.tickets.${kind}`)}</h3>
      {orders.length === 0 ? (
        <p>{t(kind === "upcoming" ? "account.home.noUpcoming" : "account.home.noPast")}</p>
      ) : (
        <ul className="account-orders">
          {orders.map((order) => (
            <li key={order.number} className="account-order">
              <h4>{order.show}</h4>
              <dl className="order-facts">
                <dt>{t("confirmation.number")}</dt>
                <dd className="order-facts__number">{order.number}</dd>
                <dt>{t("confirmation.performance")}</dt>
                <dd>
                  {formatDateTime(order.startsAt, order.timeZone, i18n.language)}
                  {order.venue ? `, ${order.venue}` : ""}
                </dd>
                <dt>{t("confirmation.tickets")}</dt>
                <dd>
                  {order.places.length > 0 ? (
                    <ul>
                      {order.places.map((place) => (
                        <li key={place.label}>
                          {place.refunded ? t("refunds.page.ticketRefunded", { ticket: place.label }) : place.label}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </dd>
                <dt>{t("account.tickets.total")}</dt>
                <dd>{formatMoney(order.total, order.currency, i18n.language)}</dd>
                {order.delivery && !order.eTickets ? (
                  <>
                    <dt>{t("confirmation.delivery")}</dt>
                    <dd>{t(`delivery.${order.delivery}`)}</dd>
                  </>
                ) : null}
              </dl>
              <RefundNotice refund={order.refund} />
              {order.eTickets ? (
                <p>
                  <Link to={order.eTickets}>{t("account.home.eTickets", { number: order.number })}</Link>
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function AccountHome() {
  const { t, i18n } = useTranslation();
  const { customer, membership, timeZone, saved, created, upcoming, past } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("account.home.title")}</h1>
      {created ? (
        <div className="message" role="status">
          <p>{t("account.signUp.created")}</p>
        </div>
      ) : null}
      {saved ? (
        <div className="message" role="status">
          <p>{t("account.details.saved")}</p>
        </div>
      ) : null}
      <p>{t("account.home.signedInAs", { name: customer.name, email: customer.email })}</p>
      <ul className="account-links">
        <li>
          <Link to="/account/details">{t("account.details.title")}</Link>
        </li>
        <li>
          <Link to="/account/sign-out">{t("account.signOut.title")}</Link>
        </li>
      </ul>
      <section aria-labelledby="membership-heading">
        <h2 id="membership-heading">{t("membership.title")}</h2>
        <ul>
          <li>
            {membership.plus
              ? t("membership.plus.member", { date: formatDate(membership.plus.endsAt, timeZone, i18n.language) })
              : t("account.membership.noPlus")}
          </li>
          <li>{t(membership.access ? "account.membership.access" : "account.membership.noAccess")}</li>
        </ul>
        <p>
          <Link to="/membership">{t("account.membership.manage")}</Link>
        </p>
      </section>
      <section aria-labelledby="tickets-heading">
        <h2 id="tickets-heading">{t("account.tickets.title")}</h2>
        <OrderList orders={upcoming} kind="upcoming" />
        <OrderList orders={past} kind="past" />
      </section>
    </>
  );
}
