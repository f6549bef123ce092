import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { RefundNotice } from "~/components/refund-notice";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { PageQueryHandle } from "~/urls/page-query";
import { parseWithZod, ACCOUNT_CREATED_PATH, accountCreated, signUpSchema } from "~/forms/schemas.server";
import { SIGN_UP_FAILED } from "~/forms/account-names";
import { currentCustomer, signInCookie } from "~/web/session.server";
import { parseContactDetails } from "~/views/contact-details";
import { errorsForSummary } from "~/forms/checkout/messages";
import { paidOrder } from "~/web/order-pages.server";
import { checkoutPath } from "~/urls/paths";
import { BasketSummary } from "~/components/checkout-step";
import { ErrorSummary } from "~/components/error-summary";
import { NewPasswordField } from "~/components/form-fields";
import { formatDateTime } from "~/i18n/format";
import { PostForm } from "~/components/post-form";
import { telHref, useSupportPhone, type SupportPhoneHandle } from "~/components/support-phone";
import { useSchemaForm } from "~/components/use-schema-form";
import type { AuthService } from "~/use-cases/auth.server";
import { isStoreUnreachable } from "~/ticketing/errors";
import type { SummaryError } from "~/views/errors";
import { leaveWaitingRoom } from "~/web/buyer.server";

// /checkout/confirmation: the order just paid for. Reached only through a paid order (its cookie,
// set when the payment succeeded): coming back to this URL without paying confirms nothing.
//
// A guest may create an account here with just a password: the order gives the email and the
// name, and the order becomes the new account's. The action acts only on the order this page
// shows (found by the buyer's own cookies, never by anything posted), only while it has no customer.

export const handle: SupportPhoneHandle & PageQueryHandle & { titleKey: (data: unknown) => string } = {
  // Without a paid order the page says it found none: its title must not say "Order complete".
  query: ["account"],
  titleKey: (data) =>
    (data as { order?: unknown } | undefined)?.order ? "checkout.steps.confirmation" : "confirmation.noOrderTitle",
  // The venue of the order shown, even when the buyer has since started a basket elsewhere.
  supportPhone: (data) => {
    const order = (data as { order?: { supportPhone: string | null } | null } | undefined)?.order;
    return order ? order.supportPhone : undefined;
  },
};

/** What the page offers about accounts: the sign-up form, news that it worked, or nothing. */
type SignUp = "offer" | "created" | null;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const order = await paidOrder(request, context);
  if (!order) return { order: null, signUp: null };
  // Paid: the buyer's place in the waiting room (if one is on) goes to the next.
  const [view, customer] = await Promise.all([
    context.orderViews.view(order),
    currentCustomer(request, context),
    leaveWaitingRoom(request, context),
  ]);
  const signUp: SignUp = customer
    ? accountCreated(request) && order.customer_id === customer.id
      ? "created"
      : null
    : order.customer_id
      ? null
      : "offer";
  return { order: view, signUp };
}

type Registered = Awaited<ReturnType<AuthService["register"]>>;

export async function action({ request, context }: ActionFunctionArgs) {
  const order = await paidOrder(request, context);
  // No order of this buyer's, or they are signed in already: the page shows what there is to show.
  if (!order || (await currentCustomer(request, context))) return redirect(checkoutPath("confirmation"), 303);
  const submission = parseWithZod(await request.formData(), { schema: signUpSchema });
  const hideFields = ["password"];
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  const failed = (status: number) => data(submission.reply({ formErrors: [SIGN_UP_FAILED], hideFields }), { status });
  if (order.customer_id) return failed(409);

  const contacts = parseContactDetails(order.contacts);
  let registered: Registered;
  try {
    registered = await context.auth.register({
      email: order.email,
      password: submission.value.password,
      firstName: contacts?.firstName ?? order.customer_name,
      lastName: contacts?.lastName ?? "",
      address: context.clientAddress,
    });
  } catch (error) {
    // An outage is the whole site's 503 (build.server.ts), not this form's refusal.
    if (isStoreUnreachable(error)) throw error;
    context.logger.error({ err: error, orderId: order.id }, "account after purchase not created");
    return failed(500);
  }
  if (!registered.ok) {
    context.logger.info({ orderId: order.id, reason: registered.reason }, "account after purchase refused");
    return failed(registered.reason === "throttled" ? 429 : 409);
  }
  try {
    const claimed = await context.customers.claimOrder(order.id, registered.customer.id);
    if (!claimed) context.logger.warn({ orderId: order.id }, "order already had a customer when its buyer signed up");
  } catch (error) {
    // The account exists and the buyer is about to be signed in to it: that much has worked.
    context.logger.error({ err: error, orderId: order.id }, "order not linked to the account created for it");
  }
  context.logger.info({ customerId: registered.customer.id, orderId: order.id }, "customer registered after purchase");
  return redirect(ACCOUNT_CREATED_PATH, {
    status: 303,
    headers: { "Set-Cookie": await signInCookie(context, registered.token) },
  });
}

type SignUpForm = ReturnType<typeof useSchemaForm<typeof signUpSchema>>;

/** Create an account with a password, or, when that failed, the ways on from here. */
function SignUpOffer({
  email,
  signUpForm: [form, fields],
  failed,
}: {
  email: string;
  signUpForm: SignUpForm;
  failed: boolean;
}) {
  const { t } = useTranslation();
  const supportPhone = useSupportPhone();
  return (
    <section className="sign-up" aria-labelledby="sign-up-heading">
      <h2 id="sign-up-heading">{t("account.signUp.title")}</h2>
      {failed ? (
        <div className="message message--error" id="sign-up-failed" tabIndex={-1}>
          <p>
            <strong>{t(SIGN_UP_FAILED)}</strong>
          </p>
          <ul>
            <li>
              <Link to="/account/sign-in">{t("account.signUp.signIn")}</Link>
            </li>
            <li>
              <Link to="/account/forgotten-password">{t("account.signUp.resetPassword")}</Link>
            </li>
            <li>
              <a href={telHref(supportPhone)}>{t("account.signUp.contactSupport", { phone: supportPhone })}</a>
            </li>
          </ul>
        </div>
      ) : (
        <>
          <p>{t("account.signUp.intro", { email })}</p>
          <PostForm id={form.id} onSubmit={form.onSubmit}>
            <NewPasswordField field={fields.password} label={t("account.password")} />
            <div className="form-actions">
              <button type="submit" className="button">
                {t("account.signUp.submit")}
              </button>
            </div>
          </PostForm>
        </>
      )}
    </section>
  );
}

export default function Confirmation() {
  const { t, i18n } = useTranslation();
  const { order, signUp } = useLoaderData<typeof loader>();
  const signUpForm = useSchemaForm((checks) => checks.signUpSchema, useActionData<typeof action>());
  const [form] = signUpForm;
  // A failure typing again will not fix: the form gives way to where to go from here.
  const failed = form.errors?.includes(SIGN_UP_FAILED) ?? false;
  const errors: SummaryError[] = failed
    ? [{ field: "sign-up-failed", text: t(SIGN_UP_FAILED) }]
    : errorsForSummary(form.allErrors, ["password"], t);
  if (!order) {
    return (
      <>
        <h1>{t("confirmation.noOrderTitle")}</h1>
        <p>{t("confirmation.noOrder")}</p>
        <p>
          <Link to="/">{t("confirmation.findShow")}</Link>
        </p>
      </>
    );
  }
  return (
    <div className="order-confirmation">
      {signUp === "offer" ? <ErrorSummary errors={errors} /> : null}
      <h1>{t("checkout.steps.confirmation")}</h1>
      <div className="message" role="status">
        <p>{t("confirmation.thanks", { name: order.customerName })}</p>
        <p>{t("confirmation.emailSent", { email: order.email })}</p>
      </div>
      <RefundNotice refund={order.refund} />
      {signUp === "created" ? (
        <div className="message" role="status">
          <p>{t("account.signUp.created")}</p>
          <p>
            <Link to="/account">{t("account.signUp.myTickets")}</Link>
          </p>
        </div>
      ) : null}
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
        {order.access ? (
          <>
            <dt>{t("access.booking.services")}</dt>
            <dd>{order.access.services.map((key) => t(key)).join(", ")}</dd>
            {order.access.notes ? (
              <>
                <dt>{t("access.booking.notes")}</dt>
                <dd>{order.access.notes}</dd>
              </>
            ) : null}
          </>
        ) : null}
        <dt>{t("confirmation.tickets")}</dt>
        <dd>
          <ul>
            {order.tickets.map((ticket) => (
              <li key={ticket.id}>
                {ticket.voided ? t("refunds.page.ticketRefunded", { ticket: ticket.label }) : ticket.label}
              </li>
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
      {signUp === "offer" ? <SignUpOffer email={order.email} signUpForm={signUpForm} failed={failed} /> : null}
    </div>
  );
}
