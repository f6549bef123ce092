import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "~/i18n/format";
import { type SandboxPaymentRecord } from "~/payments/sandbox.server";
import { basketOrder, paidOrder } from "~/web/order-pages.server";
import { requireSandboxDashboard } from "./sandbox.server";

// The sandbox's dashboard, as a real provider's test-mode dashboard lists payments: how a tester
// (or a browser test) sees that pressing Pay twice made one charge. It shows what the sandbox
// holds of this browser's own orders, which is never more than the card's brand and last four
// digits.

export const handle = { titleKey: "sandbox.payments.title" };

const SHOWN = 100;

type Status = "charged" | "refunded" | "voided" | "authorised" | "waiting" | "noAnswer" | "declined";

function statusOf(record: SandboxPaymentRecord): Status {
  if (record.voided) return "voided";
  if (record.refunded > 0) return "refunded";
  if (record.captured > 0) return "charged";
  if (record.state === "authorised") return "authorised";
  if (record.state === "hanging") return "noAnswer";
  return record.state.startsWith("awaiting") ? "waiting" : "declined";
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const gateway = requireSandboxDashboard(context.sandboxGateway, context.config.production);
  // Only this browser's own payments (its basket's order, the order it has just paid): a tester's
  // page, but never a list of other people's orders and cards, even on a development server
  // someone else can reach.
  const own = [await basketOrder(request, context), await paidOrder(request, context)].flatMap((order) =>
    order ? [`${order.id}:`] : [],
  );
  const records = (await gateway.snapshot()).filter((record) =>
    own.some((prefix) => record.idempotencyKey.startsWith(prefix)),
  );
  const newestFirst = records.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, SHOWN);
  return {
    total: records.length,
    payments: newestFirst.map((record) => ({
      reference: record.reference,
      createdAt: record.createdAt,
      description: record.description,
      method: record.method,
      brand: record.brand,
      last4: record.last4,
      amount: record.amount,
      currency: record.currency,
      status: statusOf(record),
    })),
  };
}

export default function SandboxPayments() {
  const { t, i18n } = useTranslation();
  const { payments, total } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("sandbox.payments.title")}</h1>
      <p className="message">{t("sandbox.notice")}</p>
      {payments.length === 0 ? (
        <p>{t("sandbox.payments.none")}</p>
      ) : (
        <table className="ticket-table">
          <caption>{t("sandbox.payments.caption", { count: payments.length, total })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("sandbox.payments.time")}</th>
              <th scope="col">{t("sandbox.paymentFor")}</th>
              <th scope="col">{t("sandbox.payments.method")}</th>
              <th scope="col" className="ticket-table__amount">
                {t("sandbox.amount")}
              </th>
              <th scope="col">{t("sandbox.payments.status")}</th>
            </tr>
          </thead>
          <tbody>
            {payments.map((payment) => (
              <tr key={payment.reference} data-reference={payment.reference}>
                <td>
                  {new Date(payment.createdAt).toLocaleString(i18n.language, {
                    dateStyle: "short",
                    timeStyle: "medium",
                    timeZone: "UTC",
                  })}
                </td>
                <th scope="row">{payment.description}</th>
                <td>
                  {payment.method === "card"
                    ? payment.brand && payment.last4
                      ? t("sandbox.cardEnding", { brand: t(`sandbox.brands.${payment.brand}`), last4: payment.last4 })
                      : payment.last4
                        ? t("sandbox.endingOnly", { last4: payment.last4 })
                        : t("payment.card")
                    : t(`payment.${payment.method}`)}
                </td>
                <td className="ticket-table__amount">{formatMoney(payment.amount, payment.currency, i18n.language)}</td>
                <td>{t(`sandbox.payments.statuses.${payment.status}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
