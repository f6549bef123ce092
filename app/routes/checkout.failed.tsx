import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { readBuyer } from "~/web/buyer.server";
import { reservationPaths } from "~/use-cases/hold-view.server";
import { guardPaymentPage } from "~/web/order-pages.server";
import { checkoutPath } from "~/urls/paths";
import { LAST_STEP } from "~/ticketing/checkout-steps";
import { PostForm } from "~/components/post-form";
import { useSupportPhone } from "~/components/support-phone";
import type { CardBrand } from "~/forms/checkout/card-types";
import { cardTypeNames } from "~/web/checkout-flow.server";

// /checkout/failed: the last payment did not go through. Says whether anything was charged (it
// never is: a failed or voided payment takes nothing), why, and what the buyer can do: try again,
// change their selection, reselect seats when the hold ran out, or phone the venue.

export const handle = { titleKey: "failed.title" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { state } = await guardPaymentPage(request, context, "failed");
  const buyer = await readBuyer(request, context);
  const reservation = buyer.basketId ? await context.reservations.current(buyer.basketId) : null;
  const wallet = state.method === "googlePay" || state.method === "applePay";
  return {
    reasonKey: wallet && state.failure === "declined" ? "payment.walletDeclined" : `failed.${state.failure}`,
    // A card of a brand this payment could not take: the message names those it could.
    cardTypes: cardTypeNames((state.acceptedBrands ?? []) as CardBrand[]),
    // A card payment says "your card"; PayPal and wallets say "your order".
    charged: state.method === "card" ? ("cardNotCharged" as const) : ("orderNotCharged" as const),
    holdLive: Boolean(reservation && !reservation.expired),
    ticketsHref: reservation ? reservationPaths(context, reservation).tickets : "/",
  };
}

export default function Failed() {
  const { t } = useTranslation();
  const { reasonKey, cardTypes, charged, holdLive, ticketsHref } = useLoaderData<typeof loader>();
  const phone = useSupportPhone();
  return (
    <>
      <h1>{t("failed.title")}</h1>
      <div className="message message--error" role="alert">
        <p>
          <strong>{t(`failed.${charged}`)}</strong>
        </p>
        <p>{t(reasonKey, { cardTypes: t("validation.orList", { items: cardTypes }) })}</p>
      </div>
      <p>{t("failed.whatNext", { phone })}</p>
      <div className="form-actions">
        {holdLive ? (
          <>
            <Link to={checkoutPath(LAST_STEP)} className="button">
              {t("failed.retry")}
            </Link>
            <Link to={ticketsHref} className="button button--secondary">
              {t("failed.changeSelection")}
            </Link>
          </>
        ) : (
          <PostForm action={checkoutPath("hold")}>
            <input type="hidden" name="intent" value="reselect" />
            <button type="submit" className="button">
              {t("failed.reselect")}
            </button>
          </PostForm>
        )}
      </div>
    </>
  );
}
