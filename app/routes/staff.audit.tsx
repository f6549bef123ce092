import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDateTime, formatMoney } from "~/i18n/format";
import { refuseStaffPost, requireStaff } from "~/web/staff.server";

// The staff's audit log, for managers (issue 55 item 1): who did what, when, to which order, newest
// first; `?order=NUMBER` keeps one order's entries (the order page links here). Read-only, as the
// log itself is: the database refuses to change an entry.

export const handle = { titleKey: "staff.audit.title", query: ["order"] };

/** Enough for a night's refunds and holds on one screen; older entries stay in the database. */
const SHOWN = 200;

type Detail =
  | { key: string; text: string }
  | { key: string; yes: boolean }
  | { key: "amount"; minor: number; currency: string };

/**
 * An entry's details as staff read them: ids are the database's words, not staff's (the seats' and
 * the order's names are kept beside them), and the order's number is in a column of its own.
 */
function readableDetail(detail: Record<string, unknown>, orderNumber: string | null): Detail[] {
  return Object.entries(detail).flatMap(([key, value]): Detail[] => {
    if (/Ids?$/.test(key) || key === "currency" || (key === "orderNumber" && value === orderNumber)) return [];
    if (typeof value === "boolean") return [{ key, yes: value }];
    if (key === "amount" && typeof value === "number" && typeof detail.currency === "string")
      return [{ key: "amount", minor: value, currency: detail.currency }];
    return [{ key, text: Array.isArray(value) ? value.join("; ") : String(value) }];
  });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "manageStaff");
  const order = new URL(request.url).searchParams.get("order")?.trim().toUpperCase() || null;
  const entries = await context.staff.auditFor({ newest: SHOWN, ...(order && { orderNumber: order }) });
  return {
    order,
    timeZone: context.config.market.timeZone,
    entries: entries.map((entry) => ({
      id: entry.id,
      at: entry.at,
      staffName: entry.staffName,
      action: entry.action,
      orderNumber: entry.orderNumber,
      detail: readableDetail(entry.detail, entry.orderNumber),
    })),
  };
}

export async function action(args: ActionFunctionArgs) {
  return refuseStaffPost(args, "manageStaff");
}

export default function StaffAudit() {
  const { t, i18n } = useTranslation();
  const { order, timeZone, entries } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("staff.audit.title")}</h1>
      {order ? (
        <p>
          {t("staff.audit.forOrder", { number: order })} <Link to="/staff/audit">{t("staff.audit.all")}</Link>
        </p>
      ) : null}
      {entries.length === 0 ? (
        <p>{t("staff.audit.none")}</p>
      ) : (
        <table className="ticket-table">
          <caption>{t("staff.audit.caption", { count: entries.length })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("staff.audit.when")}</th>
              <th scope="col">{t("staff.audit.who")}</th>
              <th scope="col">{t("staff.audit.what")}</th>
              <th scope="col">{t("staff.audit.order")}</th>
              <th scope="col">{t("staff.audit.detail")}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>{formatDateTime(entry.at, timeZone, i18n.language)}</td>
                <td>{entry.staffName ?? t("staff.audit.operator")}</td>
                <th scope="row">{t(`staff.audit.action.${entry.action}`, { defaultValue: entry.action })}</th>
                <td>
                  {entry.orderNumber ? (
                    <Link to={`/staff/orders/${entry.orderNumber}`}>{entry.orderNumber}</Link>
                  ) : null}
                </td>
                <td>
                  {entry.detail.length > 0 ? (
                    <ul>
                      {entry.detail.map((detail) => (
                        <li key={detail.key}>
                          {t(`staff.audit.field.${detail.key}`, { defaultValue: detail.key })}:{" "}
                          {"minor" in detail
                            ? formatMoney(detail.minor, detail.currency, i18n.language)
                            : "yes" in detail
                              ? t(detail.yes ? "staff.audit.yes" : "staff.audit.no")
                              : detail.text}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p>
        <Link to="/staff">{t("staff.home.back")}</Link>
      </p>
    </>
  );
}
