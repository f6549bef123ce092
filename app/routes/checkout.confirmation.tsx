import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { RefundNotice } from "~/components/refund-notice";
import { OrderVisit } from "~/components/order-visit";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { PageQueryHandle } from "~/urls/page-query";
import { accountFlag, SIGN_UP_SENT_PATH } from "~/forms/schemas.server";
import { SIGN_UP_FAILED } from "~/forms/account-names";
import { currentCustomer } from "~/web/session.server";
import { parseContactDetails } from "~/views/contact-details";
import { forgetPaidOrder, paidOrder } from "~/web/order-pages.server";
import { requestAccount } from "~/web/account-emails.server";
import { checkoutPath } from "~/urls/paths";
import { BasketSummary } from "~/components/checkout-step";
import { ErrorSummary } from "~/components/error-summary";
import { formatDateTime } from "~/i18n/format";
import { PostForm } from "~/components/post-form";
import { telHref, useSupportPhone, type SupportPhoneHandle } from "~/components/support-phone";
import { DEFAULT_AUTH_POLICY } from "~/use-cases/auth.server";
import { isStoreUnreachable } from "~/ticketing/errors";
import { leaveWaitingRoom } from "~/web/buyer.server";

// /checkout/confirmation: the order just paid for. Reached only through a paid order (its cookie,
// set when the payment succeeded): coming back to this URL without paying confirms nothing. The
// browser that paid is shown the order for a short time only, and no longer once the buyer says
// the computer is shared or signs out (app/web/order-pages.server.ts); the email keeps the link.
//
// A guest may ask for an account here: the order gives the email and the name, and the link that
// creates the account goes to that email. Nothing is created until it is followed, so whoever
// uses this browser next cannot take an account in the buyer's name (issue 53). The action acts
// only on the order this page shows (found by the buyer's own cookies, never by anything posted),
// only while it has no customer.

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

/** What the page offers about accounts: the offer, news that its link was emailed, or nothing. */
type SignUp = "offer" | "sent" | null;

const FORGET = "forget";
const SIGN_UP = "signUp";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const order = await paidOrder(request, context);
  if (!order) return { order: null, signUp: null, signUpHours: 0 };
  // Paid: the buyer's place in the waiting room (if one is on) goes to the next.
  const [view, customer] = await Promise.all([
    context.orderViews.view(order),
    currentCustomer(request, context),
    leaveWaitingRoom(request, context),
  ]);
  const signUp: SignUp = customer || order.customer_id ? null : accountFlag(request) === "sent" ? "sent" : "offer";
  return { order: view, signUp, signUpHours: DEFAULT_AUTH_POLICY.signUpHours };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const intent = (await request.formData()).get("intent");
  if (intent === FORGET) {
    // "This is a shared computer": the order is forgotten here at once, whoever asks.
    const headers = new Headers();
    for (const cookie of await forgetPaidOrder(request, context)) headers.append("Set-Cookie", cookie);
    return redirect(checkoutPath("confirmation"), { status: 303, headers });
  }
  const order = await paidOrder(request, context);
  // No order of this buyer's, or they are signed in already: the page shows what there is to show.
  if (intent !== SIGN_UP || !order || (await currentCustomer(request, context)))
    return redirect(checkoutPath("confirmation"), 303);
  // `error` titles the page "Error: " (root.tsx), as a refused form's does.
  const failed = (status: number) => data({ error: SIGN_UP_FAILED }, { status });
  if (order.customer_id) return failed(409);

  const contacts = parseContactDetails(order.contacts);
  try {
    const refused = await requestAccount(request, context, {
      email: order.email,
      firstName: contacts?.firstName ?? order.customer_name,
      lastName: contacts?.lastName ?? "",
      orderId: order.id,
    });
    if (refused) {
      context.logger.info({ orderId: order.id, reason: refused.reason }, "account after purchase refused");
      return failed(429);
    }
  } catch (error) {
    // An outage is the whole site's 503 (build.server.ts), not this form's refusal.
    if (isStoreUnreachable(error)) throw error;
    context.logger.error({ err: error, orderId: order.id }, "account link after purchase not sent");
    return failed(500);
  }
  context.logger.info({ orderId: order.id }, "account link sent after purchase");
  return redirect(SIGN_UP_SENT_PATH, 303);
}

/** A form that is one button, its intent the action's to switch on. */
function IntentForm({ intent, label, secondary = false }: { intent: string; label: string; secondary?: boolean }) {
  return (
    <PostForm>
      <div className="form-actions">
        <button
          type="submit"
          className={secondary ? "button button--secondary" : "button"}
          name="intent"
          value={intent}
        >
          {label}
        </button>
      </div>
    </PostForm>
  );
}

/** Ask for an account by email, or, when that failed, the ways on from here. */
function SignUpOffer({ email, failed }: { email: string; failed: boolean }) {
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
          <IntentForm intent={SIGN_UP} label={t("account.signUp.submit")} />
        </>
      )}
    </section>
  );
}

/** "This is a shared computer": hides the order from this browser now. */
function SharedComputer() {
  const { t } = useTranslation();
  return (
    <section className="shared-computer" aria-labelledby="shared-computer-heading">
      <h2 id="shared-computer-heading">{t("confirmation.shared.title")}</h2>
      <p>{t("confirmation.shared.body")}</p>
      <IntentForm intent={FORGET} label={t("confirmation.shared.submit")} secondary />
    </section>
  );
}

export default function Confirmation() {
  const { t, i18n } = useTranslation();
  const { order, signUp, signUpHours } = useLoaderData<typeof loader>();
  // A failure pressing again will not fix: the offer gives way to where to go from here.
  const failed = useActionData<typeof action>()?.error === SIGN_UP_FAILED;
  if (!order) {
    return (
      <>
        <h1>{t("confirmation.noOrderTitle")}</h1>
        <p>{t("confirmation.noOrder")}</p>
        <p>{t("confirmation.notShownHere")}</p>
        <p>
          <Link to="/">{t("confirmation.findShow")}</Link>
        </p>
      </>
    );
  }
  return (
    <div className="order-confirmation">
      {failed ? <ErrorSummary errors={[{ field: "sign-up-failed", text: t(SIGN_UP_FAILED) }]} /> : null}
      <h1>{t("checkout.steps.confirmation")}</h1>
      <div className="message" role="status">
        <p>{t("confirmation.thanks", { name: order.customerName })}</p>
        <p>{t("confirmation.emailSent", { email: order.email })}</p>
      </div>
      <RefundNotice refund={order.refund} />
      {signUp === "sent" ? (
        <div className="message" role="status">
          <p>{t("account.signUp.sent", { email: order.email, count: signUpHours })}</p>
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
      {order.visit ? <OrderVisit venueName={order.venueName} showName={order.showName} visit={order.visit} /> : null}
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
      {signUp === "offer" || failed ? <SignUpOffer email={order.email} failed={failed} /> : null}
      <SharedComputer />
    </div>
  );
}
