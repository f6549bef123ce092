import { data, redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { errorsForSummary, message, translateMessage } from "~/forms/checkout/messages";
import { parseWithZod, refundRetrySchema, refundSchema, resendSchema } from "~/forms/schemas.server";
import { formatDateTime, formatMoney } from "~/i18n/format";
import { may } from "~/ticketing/staff-roles";
import { notFound } from "~/urls/params";
import type { BoxOfficeOrder, BoxOfficeRefundAnswer } from "~/use-cases/box-office.server";
import { requireStaff } from "~/web/staff.server";
import { ErrorSummary } from "~/components/error-summary";
import { CheckboxField, TextField } from "~/components/form-fields";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";

// One order as the box office reads it (issue 55 item 3, decision 0061): who, what and when; each
// ticket with its code and whether it was used at the door; the payment, the refunds and the
// emails. A refund (whole, or the tickets ticked) goes through the refund `npm run refund` runs,
// so asking twice refunds once; the confirmation email can be sent again. Each POST answers with a
// redirect back here (POST-redirect-GET), and the page says what happened from the store, in a
// status region: a reload repeats nothing and says nothing untrue.

export const handle = { titleKey: "staff.orders.order.pageTitle", query: ["refund", "email", "done"] };

const orderPath = (number: string) => `/staff/orders/${number}`;

type PostOutcome =
  | { kind: "refund"; refund: BoxOfficeOrder["refunds"][number] }
  | { kind: "resent"; to: string }
  | { kind: "alreadyRefunded" | "resendRepeated" };

/** What the last POST did, as the store has it now (the address names the refund or the email). */
function outcomeOf(order: BoxOfficeOrder, query: URLSearchParams): PostOutcome | null {
  const refundId = query.get("refund");
  const refund = refundId ? order.refunds.find((candidate) => candidate.id === refundId) : undefined;
  if (refund) return { kind: "refund", refund };
  const emailId = query.get("email");
  const email = emailId ? order.emails.find((candidate) => candidate.id === emailId) : undefined;
  if (email) return { kind: "resent", to: email.to_address };
  const done = query.get("done");
  if (done === "alreadyRefunded" || done === "resendRepeated") return { kind: done };
  return null;
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { staff } = await requireStaff(request, context, "viewOrders");
  const order = await context.boxOffice.order(params.number ?? "");
  if (!order) throw notFound();
  return {
    order,
    outcome: outcomeOf(order, new URL(request.url).searchParams),
    // Managers read who did what to this order in the audit log.
    auditLog: may(staff.role, "manageStaff"),
  };
}

type Intent = "refund" | "retry" | "resend";

function refused(intent: Intent, result: SubmissionResult<string[]>) {
  const answer: { intent: Intent; result: SubmissionResult<string[]> } = { intent, result };
  return data(answer, { status: 400 });
}

/** A refund's answer: back to the page to read what happened, or the form again saying why not. */
async function answerRefund(
  context: AppLoadContext,
  staffId: string,
  order: BoxOfficeOrder,
  answer: BoxOfficeRefundAnswer,
  reply: (errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]>,
  intent: Intent,
) {
  if (answer.ok && answer.outcome === "alreadyRefunded")
    return redirect(`${orderPath(order.number)}?done=alreadyRefunded`, 303);
  if (answer.ok || answer.reason === "providerRefused" || answer.reason === "providerError") {
    const { refund } = answer;
    const ids = refund.ticket_ids.split(",").filter(Boolean);
    await context.staff.record({
      staffId,
      action: "refund",
      orderId: answer.order.id,
      detail: {
        orderNumber: order.number,
        refundId: refund.id,
        whole: refund.whole === 1,
        tickets: ids.map((id) => order.tickets.find((ticket) => ticket.id === id)?.label ?? id),
        amount: refund.amount,
        currency: order.currency,
        outcome: answer.ok ? "refunded" : answer.reason,
        ...(intent === "retry" && { retried: true }),
      },
    });
    return redirect(`${orderPath(order.number)}?refund=${encodeURIComponent(refund.id)}`, 303);
  }
  switch (answer.reason) {
    case "unknownOrder":
      throw notFound();
    case "usedAtDoor":
      return refused(
        intent,
        reply({
          fieldErrors: {
            confirmUsed: [message("staff.orders.refund.usedNotConfirmed", { tickets: answer.tickets.join("; ") })],
          },
        }),
      );
    case "noTickets":
      return refused(intent, reply({ fieldErrors: { tickets: ["staff.orders.refund.ticketsMissing"] } }));
    case "ticketsAlreadyRefunded":
      return refused(
        intent,
        reply({ formErrors: [message("staff.orders.refund.alreadyRefunded", { tickets: answer.tickets.join("; ") })] }),
      );
    case "ticketNotInOrder":
    case "ambiguousTicket":
      return refused(intent, reply({ formErrors: ["staff.orders.refund.ticketNotInOrder"] }));
    case "notPaid":
    case "noCapturedPayment":
    case "unknownRefund":
      return refused(intent, reply({ formErrors: [`staff.orders.refund.${answer.reason}`] }));
  }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "viewOrders");
  const order = await context.boxOffice.order(params.number ?? "");
  if (!order) throw notFound();
  const form = await request.formData();
  const intent = form.get("intent");

  if (intent === "refund") {
    const { staff } = await requireStaff(request, context, "refund");
    const submission = parseWithZod(form, { schema: refundSchema });
    if (submission.status !== "success") return refused(intent, submission.reply());
    const { scope, tickets, confirmUsed, reason } = submission.value;
    const answer = await context.boxOffice.refund(order.number, {
      whole: scope === "whole",
      ticketIds: tickets ?? [],
      usedConfirmed: confirmUsed,
      reason: reason || null,
    });
    return answerRefund(context, staff.id, order, answer, (errors) => submission.reply(errors), intent);
  }

  if (intent === "retry") {
    const { staff } = await requireStaff(request, context, "refund");
    const submission = parseWithZod(form, { schema: refundRetrySchema });
    if (submission.status !== "success") return refused(intent, submission.reply());
    const answer = await context.boxOffice.retryRefund(order.number, submission.value.refund);
    return answerRefund(context, staff.id, order, answer, (errors) => submission.reply(errors), intent);
  }

  if (intent === "resend") {
    const { staff } = await requireStaff(request, context, "resendEmail");
    const submission = parseWithZod(form, { schema: resendSchema });
    if (submission.status !== "success")
      return refused(intent, submission.reply({ formErrors: ["staff.orders.resend.stale"] }));
    const answer = await context.boxOffice.resendConfirmation(order.number, submission.value.seen);
    if (!answer.ok) {
      if (answer.reason === "unknownOrder") throw notFound();
      return refused(intent, submission.reply({ formErrors: [`staff.orders.resend.${answer.reason}`] }));
    }
    if (!answer.queued) return redirect(`${orderPath(order.number)}?done=resendRepeated`, 303);
    await context.staff.record({
      staffId: staff.id,
      action: "resendEmail",
      orderId: answer.orderId,
      detail: { orderNumber: order.number, emailId: answer.emailId, kind: "orderConfirmation" },
    });
    return redirect(`${orderPath(order.number)}?email=${encodeURIComponent(answer.emailId)}`, 303);
  }

  throw new Response(null, { status: 400, statusText: "Bad Request" });
}

type LoaderData = Awaited<ReturnType<typeof loader>>;
type PageOrder = LoaderData["order"];

function Outcome({ order, outcome }: { order: PageOrder; outcome: LoaderData["outcome"] }) {
  const { t, i18n } = useTranslation();
  const money = (amount: number) => formatMoney(amount, order.currency, i18n.language);
  if (!outcome) return null;
  switch (outcome.kind) {
    case "refund": {
      const { refund } = outcome;
      if (refund.status === "succeeded")
        return (
          <>
            <p>{t("staff.orders.refund.outcome.refunded", { amount: money(refund.amount) })}</p>
            {refund.tickets.length ? (
              <p>{t("staff.orders.refund.outcome.refundedTickets", { tickets: refund.tickets.join("; ") })}</p>
            ) : null}
          </>
        );
      return (
        <p>
          {t(`staff.orders.refund.outcome.${refund.status === "refused" ? "refused" : "pending"}`, {
            amount: money(refund.amount),
          })}
        </p>
      );
    }
    case "alreadyRefunded":
      return <p>{t("staff.orders.refund.outcome.already")}</p>;
    case "resent":
      return <p>{t("staff.orders.resend.outcome.queued", { email: outcome.to })}</p>;
    case "resendRepeated":
      return <p>{t("staff.orders.resend.outcome.repeated")}</p>;
  }
}

function Tickets({ order }: { order: PageOrder }) {
  const { t, i18n } = useTranslation();
  const when = (iso: string) => formatDateTime(iso, order.timeZone, i18n.language);
  if (order.tickets.length === 0) return <p>{t("staff.orders.tickets.none")}</p>;
  return (
    <table className="ticket-table">
      <caption>{t("staff.orders.tickets.caption")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("staff.orders.tickets.ticket")}</th>
          <th scope="col">{t("staff.orders.tickets.band")}</th>
          <th scope="col" className="ticket-table__amount">
            {t("staff.orders.tickets.price")}
          </th>
          <th scope="col">{t("staff.orders.tickets.code")}</th>
          <th scope="col">{t("staff.orders.tickets.state")}</th>
        </tr>
      </thead>
      <tbody>
        {order.tickets.map((ticket) => (
          <tr key={ticket.id} data-ticket={ticket.id}>
            <th scope="row">{ticket.label}</th>
            <td>
              {ticket.band && ticket.priceOption
                ? t("staff.orders.tickets.bandCell", { band: ticket.band, option: ticket.priceOption })
                : (ticket.band ?? "")}
            </td>
            <td className="ticket-table__amount">{formatMoney(ticket.price, order.currency, i18n.language)}</td>
            {/* The code as printed under the e-ticket's barcode, a void one's too: the box office
                matches what a buyer holds up, and a void code admits nobody at the door. */}
            <td>
              <code>{ticket.code}</code>
            </td>
            <td>
              <strong>{t(`staff.orders.tickets.${ticket.state}`)}</strong>{" "}
              {ticket.checkedIn ? (
                <span className="ticket-table__note">
                  {t("staff.orders.tickets.usedAt", { when: when(ticket.checkedIn.at), door: ticket.checkedIn.door })}
                </span>
              ) : null}{" "}
              {ticket.voidedAt ? (
                <span className="ticket-table__note">
                  {t("staff.orders.tickets.refundedAt", { when: when(ticket.voidedAt) })}
                </span>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type RefundFormParts = ReturnType<typeof useRefundForm>;

function useRefundForm(result: SubmissionResult<string[]> | undefined) {
  return useSchemaForm((checks) => checks.refundSchema, result, undefined, { id: "refund" });
}

function RefundForm({ order, parts: [form, fields] }: { order: PageOrder; parts: RefundFormParts }) {
  const { t, i18n } = useTranslation();
  const refundable = order.tickets.filter((ticket) => ticket.state === "valid" || ticket.state === "used");
  const used = refundable.filter((ticket) => ticket.state === "used");
  const chosen = new Set(fields.tickets.defaultOptions ?? []);
  const ticketsError = fields.tickets.errors?.[0];
  const money = (amount: number) => formatMoney(amount, order.currency, i18n.language);
  const when = (iso: string) => formatDateTime(iso, order.timeZone, i18n.language);
  return (
    <>
      {used.length ? (
        <p className="message message--error">
          <strong>{t("staff.orders.refund.usedWarning", { count: used.length })}</strong>
        </p>
      ) : null}
      <PostForm id={form.id} onSubmit={form.onSubmit} action={orderPath(order.number)}>
        <input type="hidden" name="intent" value="refund" />
        {refundable.length ? (
          <fieldset
            className={ticketsError ? "field field--error" : "field"}
            aria-describedby={ticketsError ? "tickets-error" : undefined}
          >
            <legend>{t("staff.orders.refund.ticketsLegend")}</legend>
            {ticketsError ? (
              <p className="field-error" id="tickets-error">
                <span className="visually-hidden">{t("frame.errorPrefix")}</span>
                {translateMessage(ticketsError, t)}
              </p>
            ) : null}
            {refundable.map((ticket, index) => {
              // The first box takes the field's name, so the error summary's link lands on it.
              const id = index === 0 ? "tickets" : `tickets-${index + 1}`;
              return (
                <div className="checkbox" key={ticket.id}>
                  <input
                    key={fields.tickets.key}
                    type="checkbox"
                    id={id}
                    name="tickets"
                    value={ticket.id}
                    defaultChecked={chosen.has(ticket.id)}
                  />
                  <label htmlFor={id}>
                    {ticket.checkedIn
                      ? t("staff.orders.refund.ticketOptionUsed", {
                          label: ticket.label,
                          price: money(ticket.price),
                          when: when(ticket.checkedIn.at),
                          door: ticket.checkedIn.door,
                        })
                      : t("staff.orders.refund.ticketOption", { label: ticket.label, price: money(ticket.price) })}
                  </label>
                </div>
              );
            })}
          </fieldset>
        ) : null}
        {/* A ticket already used at the door is refunded only with this box ticked, and the server
            asks for it again if the page did not offer it (a ticket checked in since): the buyer
            came, so a refund of it is an exception (the performance stopped, the seat could not
            be used), made knowingly. Not a second page: one form, one press, the warning and the
            box beside the choice, as a counter works with a queue at the window. */}
        {used.length || fields.confirmUsed.errors ? (
          <CheckboxField
            field={fields.confirmUsed}
            label={t("staff.orders.refund.confirmUsed")}
            hint={t("staff.orders.refund.confirmUsedHint")}
          />
        ) : null}
        <TextField
          field={fields.reason}
          label={t("staff.orders.refund.reason")}
          hint={t("staff.orders.refund.reasonHint")}
          autoComplete="off"
        />
        <p className="hint">{t("staff.orders.refund.wholeHint")}</p>
        <div className="form-actions">
          {refundable.length ? (
            <button type="submit" name="scope" value="tickets" className="button">
              {t("staff.orders.refund.submitTickets")}
            </button>
          ) : null}
          <button type="submit" name="scope" value="whole" className="button button--warning">
            {t("staff.orders.refund.submitWhole")}
          </button>
        </div>
      </PostForm>
    </>
  );
}

function Refunds({ order }: { order: PageOrder }) {
  const { t, i18n } = useTranslation();
  if (order.refunds.length === 0) return <p>{t("staff.orders.refunds.none")}</p>;
  return (
    <table className="ticket-table">
      <caption>{t("staff.orders.refunds.caption")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("staff.orders.refunds.when")}</th>
          <th scope="col">{t("staff.orders.refunds.tickets")}</th>
          <th scope="col" className="ticket-table__amount">
            {t("staff.orders.refunds.amount")}
          </th>
          <th scope="col">{t("staff.orders.refunds.status")}</th>
          <th scope="col">{t("staff.orders.refunds.reason")}</th>
        </tr>
      </thead>
      <tbody>
        {order.refunds.map((refund) => (
          <tr key={refund.id} data-refund={refund.id}>
            <th scope="row">{formatDateTime(refund.created_at, order.timeZone, i18n.language)}</th>
            <td>
              {refund.whole ? <strong>{t("staff.orders.refunds.whole")}</strong> : null}
              {refund.tickets.length ? (
                <ul>
                  {refund.tickets.map((label) => (
                    <li key={label}>{label}</li>
                  ))}
                </ul>
              ) : refund.whole ? null : (
                t("staff.orders.refunds.noTickets")
              )}
            </td>
            <td className="ticket-table__amount">{formatMoney(refund.amount, order.currency, i18n.language)}</td>
            <td>
              {t(`staff.orders.refunds.statusName.${refund.status}`)}
              {refund.status === "pending" && order.canRefund ? (
                <PostForm action={orderPath(order.number)}>
                  <input type="hidden" name="intent" value="retry" />
                  <input type="hidden" name="refund" value={refund.id} />
                  <button type="submit" className="button button--secondary">
                    {t("staff.orders.refunds.retry")}
                  </button>
                </PostForm>
              ) : null}
            </td>
            <td>{refund.reason ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Payments({ order }: { order: PageOrder }) {
  const { t, i18n } = useTranslation();
  if (order.payments.length === 0) return <p>{t("staff.orders.payments.none")}</p>;
  return (
    <table className="ticket-table">
      <caption>{t("staff.orders.payments.caption")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("staff.orders.payments.when")}</th>
          <th scope="col">{t("staff.orders.payments.provider")}</th>
          <th scope="col">{t("staff.orders.payments.method")}</th>
          <th scope="col">{t("staff.orders.payments.reference")}</th>
          <th scope="col" className="ticket-table__amount">
            {t("staff.orders.payments.amount")}
          </th>
          <th scope="col">{t("staff.orders.payments.status")}</th>
        </tr>
      </thead>
      <tbody>
        {order.payments.map((payment) => (
          <tr key={payment.id}>
            <th scope="row">{formatDateTime(payment.created_at, order.timeZone, i18n.language)}</th>
            <td>{t(`staff.orders.payments.providerName.${payment.provider}`, { defaultValue: payment.provider })}</td>
            <td>
              {payment.method === "card" && payment.last4
                ? t("staff.orders.payments.methodName.cardEnding", { last4: payment.last4 })
                : t(`staff.orders.payments.methodName.${payment.method}`)}
            </td>
            <td>{payment.provider_reference ? <code>{payment.provider_reference}</code> : ""}</td>
            <td className="ticket-table__amount">{formatMoney(payment.amount, payment.currency, i18n.language)}</td>
            <td>{t(`staff.orders.payments.statusName.${payment.status}`)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Emails({ order }: { order: PageOrder }) {
  const { t, i18n } = useTranslation();
  const when = (iso: string) => formatDateTime(iso, order.timeZone, i18n.language);
  if (order.emails.length === 0) return <p>{t("staff.orders.emails.none")}</p>;
  return (
    <table className="ticket-table">
      <caption>{t("staff.orders.emails.caption")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("staff.orders.emails.kind")}</th>
          <th scope="col">{t("staff.orders.emails.to")}</th>
          <th scope="col">{t("staff.orders.emails.queued")}</th>
          <th scope="col">{t("staff.orders.emails.status")}</th>
        </tr>
      </thead>
      <tbody>
        {order.emails.map((email) => (
          <tr key={email.id} data-email={email.id}>
            <th scope="row">{t(`staff.orders.emails.kindName.${email.kind}`)}</th>
            <td>{email.to_address}</td>
            <td>{when(email.created_at)}</td>
            <td>
              {email.status === "sent" && email.sent_at
                ? t("staff.orders.emails.sent", { when: when(email.sent_at) })
                : t(`staff.orders.emails.${email.status === "failed" ? "failed" : "pending"}`)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function StaffOrder() {
  const { t, i18n } = useTranslation();
  const { order, outcome, auditLog } = useLoaderData<typeof loader>();
  const answered = useActionData<typeof action>();
  const when = (iso: string) => formatDateTime(iso, order.timeZone, i18n.language);
  const refund = useRefundForm(answered?.intent === "refund" ? answered.result : undefined);
  const errors =
    answered?.intent === "refund"
      ? errorsForSummary(refund[0].allErrors, ["tickets", "confirmUsed", "reason"], t)
      : errorsForSummary(answered?.result.error, [], t);
  return (
    <>
      <ErrorSummary errors={errors} />
      <div className={outcome ? "message" : undefined} id="order-outcome" role="status">
        <Outcome order={order} outcome={outcome} />
      </div>
      <h1>{t("staff.orders.order.title", { number: order.number })}</h1>
      <dl className="order-details">
        <dt>{t("staff.orders.order.status")}</dt>
        <dd>{t(`staff.orders.status.${order.refundStatus ?? order.status}`)}</dd>
        <dt>{t("staff.orders.order.name")}</dt>
        <dd>{order.customerName}</dd>
        <dt>{t("staff.orders.order.email")}</dt>
        <dd>{order.email}</dd>
        <dt>{t("staff.orders.order.show")}</dt>
        <dd>{order.showName}</dd>
        {order.performance ? (
          <>
            <dt>{t("staff.orders.order.venue")}</dt>
            <dd>{order.performance.venueName}</dd>
            <dt>{t("staff.orders.order.performance")}</dt>
            <dd>{when(order.performance.startsAt)}</dd>
          </>
        ) : null}
        <dt>{t("staff.orders.order.total")}</dt>
        <dd>{formatMoney(order.total, order.currency, i18n.language)}</dd>
        <dt>{t("staff.orders.order.ordered")}</dt>
        <dd>{when(order.createdAt)}</dd>
        {order.paidAt ? (
          <>
            <dt>{t("staff.orders.order.paid")}</dt>
            <dd>{when(order.paidAt)}</dd>
          </>
        ) : null}
      </dl>

      <h2>{t("staff.orders.tickets.heading")}</h2>
      <Tickets order={order} />

      {order.canRefund ? (
        <>
          <h2>{t("staff.orders.refund.heading")}</h2>
          <RefundForm order={order} parts={refund} />
        </>
      ) : null}

      <h2>{t("staff.orders.refunds.heading")}</h2>
      <Refunds order={order} />

      <h2>{t("staff.orders.payments.heading")}</h2>
      <Payments order={order} />

      <h2>{t("staff.orders.emails.heading")}</h2>
      <Emails order={order} />
      {order.canResend ? (
        <PostForm action={orderPath(order.number)}>
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="seen" value={order.resends} />
          <p className="hint">{t("staff.orders.resend.hint", { email: order.email })}</p>
          <div className="form-actions">
            <button type="submit" className="button button--secondary">
              {t("staff.orders.resend.submit")}
            </button>
          </div>
        </PostForm>
      ) : null}

      {auditLog ? (
        <p>
          <Link to={`/staff/audit?order=${order.number}`}>{t("staff.audit.orderLink")}</Link>
        </p>
      ) : null}
      <p>
        <Link to="/staff/orders">{t("staff.orders.order.back")}</Link>
      </p>
    </>
  );
}
