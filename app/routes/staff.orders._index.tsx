import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { errorsForSummary } from "~/forms/checkout/messages";
import { orderSearchSchema, parseWithZod } from "~/forms/schemas.server";
import { formatDateTime, formatMoney } from "~/i18n/format";
import { refuseStaffPost, requireStaff } from "~/web/staff.server";
import { ErrorSummary } from "~/components/error-summary";
import { TextField } from "~/components/form-fields";
import { useSchemaForm } from "~/components/use-schema-form";

// The box office's orders (issue 55 item 3, decision 0061): one box for what a caller can say
// (the order number, their email, their name), a GET form so the address keeps the search and the
// way back from an order returns to it. Every status is listed, newest first: a box office asked
// about a failed payment needs that order too.

export const handle = { titleKey: "staff.orders.search.title", query: ["q"] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "viewOrders");
  const query = new URL(request.url).searchParams;
  if (!query.has("q")) return { result: null, found: null };
  const submission = parseWithZod(query, { schema: orderSearchSchema });
  if (submission.status !== "success") return { result: submission.reply(), found: null };
  const found = await context.boxOffice.find(submission.value.q);
  return { result: submission.reply(), found: { query: submission.value.q, ...found } };
}

export async function action(args: ActionFunctionArgs) {
  return refuseStaffPost(args, "viewOrders");
}

type Found = NonNullable<Awaited<ReturnType<typeof loader>>["found"]>;

function Results({ found }: { found: Found }) {
  const { t, i18n } = useTranslation();
  const quoted = t("staff.orders.search.quoted", { query: found.query });
  if (found.orders.length === 0)
    return (
      <p role="status" className="message">
        {t("staff.orders.search.none", { query: quoted })}
      </p>
    );
  return (
    <>
      {found.more ? (
        <p role="status" className="message">
          {t("staff.orders.search.more", { count: found.orders.length })}
        </p>
      ) : null}
      <table className="ticket-table">
        <caption>{t("staff.orders.search.caption", { query: quoted })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("staff.orders.search.number")}</th>
            <th scope="col">{t("staff.orders.search.name")}</th>
            <th scope="col">{t("staff.orders.search.email")}</th>
            <th scope="col">{t("staff.orders.search.performance")}</th>
            <th scope="col">{t("staff.orders.search.status")}</th>
            <th scope="col" className="ticket-table__amount">
              {t("staff.orders.search.total")}
            </th>
          </tr>
        </thead>
        <tbody>
          {found.orders.map((order) => (
            <tr key={order.number}>
              <th scope="row">
                <Link to={`/staff/orders/${order.number}`}>{order.number}</Link>
              </th>
              <td>{order.customerName}</td>
              <td>{order.email}</td>
              <td>
                {order.startsAt && order.timeZone
                  ? t("staff.orders.search.performanceCell", {
                      show: order.showName,
                      when: formatDateTime(order.startsAt, order.timeZone, i18n.language),
                    })
                  : order.showName}
              </td>
              <td>{t(`staff.orders.status.${order.refundStatus ?? order.status}`)}</td>
              <td className="ticket-table__amount">{formatMoney(order.total, order.currency, i18n.language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export default function StaffOrders() {
  const { t } = useTranslation();
  const { result, found } = useLoaderData<typeof loader>();
  // Checked in the browser by the loader's own schema, as the other staff forms are: an empty
  // search is answered before it is sent.
  const [form, fields] = useSchemaForm((checks) => checks.orderSearchSchema, result, undefined, { revalidate: false });
  return (
    <>
      <ErrorSummary errors={errorsForSummary(form.allErrors, ["q"], t)} />
      <h1>{t("staff.orders.search.title")}</h1>
      <Form method="get" action="/staff/orders" noValidate role="search" id={form.id} onSubmit={form.onSubmit}>
        <TextField
          field={fields.q}
          label={t("staff.orders.search.query")}
          hint={t("staff.orders.search.queryHint")}
          autoComplete="off"
          spellCheck={false}
        />
        <div className="form-actions">
          <button type="submit" className="button">
            {t("staff.orders.search.submit")}
          </button>
        </div>
      </Form>
      {found ? <Results found={found} /> : null}
      <p>
        <Link to="/staff">{t("staff.home.back")}</Link>
      </p>
    </>
  );
}
