import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireCustomer } from "~/accounts/session.server";
import { formatMoney } from "~/components/format";

// My account: who is signed in and their orders, upcoming and past, each with its e-tickets.

export const handle = { titleKey: "account.home.title" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const customer = await requireCustomer(request, context);
  const now = context.clock.now().toISOString();
  const orders = (await context.orders.paidByCustomer(customer.id)).map((order) => ({
    number: order.number,
    show: order.show_name,
    total: order.total,
    currency: order.currency,
    eTickets: order.access_key ? `/e-tickets/${order.access_key}` : null,
    past: order.starts_at !== null && order.starts_at < now,
  }));
  return {
    customer: { name: `${customer.firstName} ${customer.lastName}`, email: customer.email },
    upcoming: orders.filter((order) => !order.past),
    past: orders.filter((order) => order.past).reverse(),
  };
}

type Listed = Awaited<ReturnType<typeof loader>>["upcoming"];

function OrderList({ orders, title, empty }: { orders: Listed; title: string; empty: string }) {
  const { t, i18n } = useTranslation();
  return (
    <section aria-labelledby={`${title}-heading`}>
      <h2 id={`${title}-heading`}>{t(`account.home.${title}`)}</h2>
      {orders.length === 0 ? (
        <p>{t(empty)}</p>
      ) : (
        <ul className="account-orders">
          {orders.map((order) => (
            <li key={order.number}>
              <strong>{order.show}</strong> {t("account.home.orderNumber", { number: order.number })},{" "}
              {formatMoney(order.total, order.currency, i18n.language)}
              {order.eTickets ? (
                <>
                  {" "}
                  <Link to={order.eTickets}>{t("account.home.eTickets", { number: order.number })}</Link>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function AccountHome() {
  const { t } = useTranslation();
  const { customer, upcoming, past } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("account.home.title")}</h1>
      <p>{t("account.home.signedInAs", { name: customer.name, email: customer.email })}</p>
      <OrderList orders={upcoming} title="upcoming" empty="account.home.noUpcoming" />
      <OrderList orders={past} title="past" empty="account.home.noPast" />
      <p>
        <Link to="/account/sign-out">{t("account.signOut.title")}</Link>
      </p>
    </>
  );
}
