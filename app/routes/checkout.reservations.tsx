import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { benefitsFor, readBuyer } from "~/web/buyer.server";
import { reservationPaths } from "~/use-cases/hold-view.server";
import { saveTicketChoices, ticketsView } from "~/use-cases/ticket-prices.server";
import { ErrorSummary } from "~/components/error-summary";
import { formatDateTime } from "~/i18n/format";
import { PostForm } from "~/components/post-form";
import { TicketChoices } from "~/components/ticket-choices";
import { releaseReservation } from "~/use-cases/reservations.server";
import { FIRST_STEP, HOLD_REVIEW } from "~/ticketing/checkout-steps";
import { checkoutPath } from "~/urls/paths";
import { flashEvents, track } from "~/web/track.server";
import type { FieldErrors } from "~/views/ticket-choices";
import { isAccessService, suitedSeatsKey } from "~/views/access-services";
import { suitedAnswers } from "~/ticketing/reservation-view.server";

// Best available's answer ("reservations: best available tickets"): the seats the search found,
// already held for the buyer, to accept (choosing a price option each) or to search again.

// `prefer`: the access services best available was asked to prefer seats suited to (tickets.tsx).
export const handle = { titleKey: "checkout.steps.reservations", query: ["prefer"] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const buyer = await readBuyer(request, context);
  const reservation = buyer.basketId ? await context.reservations.current(buyer.basketId) : null;
  if (!reservation || reservation.expired || !buyer.basketId) return { offer: null };
  const paths = reservationPaths(context, reservation);
  const benefits = await benefitsFor(context, buyer);
  const asked = new URL(request.url).searchParams.getAll("prefer").filter(isAccessService);
  return {
    offer: {
      // Whether the seats suit what was asked, read from the seats held, not from the address.
      suited: suitedAnswers(reservation, asked).map(({ service, suited }) => ({
        key: `${suitedSeatsKey(service, reservation.show.country)}.${suited ? "found" : "notFound"}`,
      })),
      show: reservation.show.name,
      venue: reservation.show.venueName,
      startsAt: reservation.startsAt,
      timeZone: reservation.show.timeZone,
      tickets: ticketsView(reservation, await context.baskets.price(buyer.basketId, benefits), benefits),
      ticketsHref: paths.tickets,
    },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const buyer = await readBuyer(request, context);
  const reservation = buyer.basketId ? await context.reservations.current(buyer.basketId) : null;
  if (!reservation || reservation.expired || !buyer.basketId) return redirect(checkoutPath(HOLD_REVIEW));
  const form = await request.formData();
  const headers = new Headers();
  if (form.get("intent") === "again") {
    const events = await releaseReservation(context, buyer.basketId, reservation.performanceId);
    events.push(track(context, "seatFinderReset", { performanceId: reservation.performanceId }));
    await flashEvents(context, headers, events);
    return redirect(`${reservationPaths(context, reservation).tickets}#best-title`, { headers });
  }
  const { errors, events } = await saveTicketChoices(context, reservation, form, await benefitsFor(context, buyer));
  if (Object.keys(errors).length) return data({ errors: errors as FieldErrors }, { status: 400 });
  await flashEvents(context, headers, events);
  return redirect(checkoutPath(FIRST_STEP), { headers });
}

export default function Reservations() {
  const { t, i18n } = useTranslation();
  const { offer } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!offer) {
    return (
      <>
        <h1>{t("checkout.steps.reservations")}</h1>
        <p className="empty-state">{t("checkout.emptyBasket")}</p>
        <p>
          <Link to="/">{t("checkout.browseLink")}</Link>
        </p>
      </>
    );
  }
  const errors = result?.errors ?? {};
  return (
    <>
      <h1>{t("checkout.steps.reservations")}</h1>
      <ErrorSummary errors={Object.entries(errors).map(([field, error]) => ({ field, text: t(error.key) }))} />
      <p>
        {t("reservations.found", {
          show: offer.show,
          venue: offer.venue,
          when: formatDateTime(offer.startsAt, offer.timeZone, i18n.language),
        })}
      </p>
      {offer.suited.map(({ key }) => (
        <p key={key}>{t(key)}</p>
      ))}
      {/* Two forms, each intent hidden: a button's value would be shown before its words by a text
          browser ("(accept) Accept these seats"). Searching again sends none of the choices. */}
      <PostForm>
        <input type="hidden" name="intent" value="accept" />
        <TicketChoices view={offer.tickets} errors={errors} />
        <div className="form-actions">
          <button type="submit" className="button button--primary">
            {t("reservations.accept")}
          </button>
        </div>
      </PostForm>
      <PostForm className="form-actions">
        <input type="hidden" name="intent" value="again" />
        <button type="submit" className="button button--secondary">
          {t("reservations.searchAgain")}
        </button>
      </PostForm>
      <p>
        <Link to={offer.ticketsHref}>{t("reservations.chooseOnMap")}</Link>
      </p>
    </>
  );
}
