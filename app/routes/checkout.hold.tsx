import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { basketCookieHeader, benefitsFor, leaveWaitingRoom, promoCookieHeader, readBuyer } from "~/web/buyer.server";
import { unlockForChange } from "~/web/checkout-flow.server";
import { reservationPaths } from "~/use-cases/hold-view.server";
import { ReleaseDialog } from "~/components/hold-panel";
import { RemovePromoDialog } from "~/components/promo-removal";
import { safeReturnPath } from "~/urls/return-path";
import { releaseReservation, refusalMessage, type Message } from "~/use-cases/reservations.server";
import { flashEvents, track } from "~/web/track.server";

// The reservation's own actions, answered the same way whether a buyer pressed a button in a
// `<dialog>` (with script) or on this page (without it): extend the hold, release the seats,
// empty the cart before another date, reselect after expiry, cancel the order.

export const handle = { titleKey: "hold.pageTitle", query: ["confirm", "returnTo"] };

const CONFIRMATIONS = ["release", "remove-promo"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const confirm = CONFIRMATIONS.find((name) => name === url.searchParams.get("confirm")) ?? null;
  return { confirm, returnTo: safeReturnPath(url.searchParams.get("returnTo")) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = form.get("intent");
  const buyer = await readBuyer(request, context);
  const reservation = buyer.basketId ? await context.reservations.current(buyer.basketId) : null;
  const headers = new Headers();
  if (
    intent === "remove-promo" ||
    intent === "release" ||
    intent === "reselect" ||
    intent === "cancel" ||
    intent === "empty"
  )
    await unlockForChange(context, buyer.basketId ? await context.orders.byBasket(buyer.basketId) : undefined);

  if (intent === "extend") {
    const returnTo = safeReturnPath(form.get("returnTo"));
    if (!reservation) return redirect(returnTo);
    const extended = await context.inventory.extendHold(reservation.holdId);
    if (!extended.ok) return data({ error: refusalMessage(extended), returnTo }, { status: 409 });
    await flashEvents(context, headers, [track(context, "holdExtended", { performanceId: reservation.performanceId })]);
    return redirect(returnTo, { headers });
  }

  if (intent === "acknowledge-prices") {
    // The buyer has read the new prices: they become the ones later prices are compared with.
    const price = buyer.basketId
      ? await context.baskets.price(buyer.basketId, await benefitsFor(context, buyer))
      : undefined;
    if (buyer.basketId && price) {
      await context.baskets.acknowledgePrices(buyer.basketId, price.fingerprint);
      await flashEvents(context, headers, [
        track(context, "priceChangeAcknowledged", { performanceId: reservation?.performanceId ?? "" }),
      ]);
    }
    return redirect(safeReturnPath(form.get("returnTo")), { headers });
  }

  if (intent === "remove-promo") {
    // Only the code changes: the seats stay held, and the pages reprice without it.
    headers.append("Set-Cookie", await promoCookieHeader(context, null));
    if (buyer.basketId && reservation) await context.baskets.setPromo(buyer.basketId, null);
    await flashEvents(context, headers, [track(context, "promoClear")]);
    return redirect(safeReturnPath(form.get("returnTo")), { headers });
  }

  if (intent === "release" || intent === "reselect" || intent === "cancel" || intent === "empty") {
    const events = buyer.basketId ? await releaseReservation(context, buyer.basketId, reservation?.performanceId) : [];
    // Released, cancelled or lapsed: the place in the waiting room goes to the next buyer. Emptying
    // the cart to book another performance keeps it.
    if (intent !== "empty") await leaveWaitingRoom(request, context);
    if (intent === "reselect" && reservation?.expired)
      events.push(track(context, "holdExpired", { performanceId: reservation.performanceId }));
    await flashEvents(context, headers, events);
    // A fresh basket next time: nothing of the old one can come back.
    headers.append("Set-Cookie", await basketCookieHeader(context, null));
    const paths = reservation ? reservationPaths(context, reservation) : null;
    const destination =
      intent === "empty"
        ? safeReturnPath(form.get("to"))
        : intent === "reselect"
          ? (paths?.tickets ?? "/")
          : intent === "cancel"
            ? (paths?.show ?? "/")
            : (paths?.calendar ?? "/");
    return redirect(destination, { headers });
  }
  const error: Message = { key: "reserve.somethingWrong" };
  return data({ error, returnTo: "/" }, { status: 400 });
}

export default function HoldPage() {
  const { t } = useTranslation();
  const { confirm, returnTo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <h1>{t("hold.pageTitle")}</h1>
      {result?.error ? (
        <div className="message message--error" role="alert">
          <p>{t(result.error.key, result.error.values)}</p>
          <p>
            <Link to={result.returnTo}>{t("hold.back")}</Link>
          </p>
        </div>
      ) : null}
      {confirm === "release" ? <ReleaseDialog open returnTo={returnTo} /> : null}
      {confirm === "remove-promo" ? <RemovePromoDialog open returnTo={returnTo} /> : null}
      {!confirm && !result ? (
        <p>
          <Link to={returnTo}>{t("hold.back")}</Link>
        </p>
      ) : null}
    </>
  );
}
