import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useFetcher, useLoaderData, useLocation, useMatches } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { applyPromoCode } from "~/web/buyer.server";
import { holdView } from "~/use-cases/hold-view.server";
import { ensureBasket, ticketsContext, ticketsPageBack, ticketsPageTitle } from "~/web/tickets-page.server";
import { buyerEntitlements } from "~/ticketing/entitlements.server";
import { saveTicketChoices, ticketsView } from "~/use-cases/ticket-prices.server";
import { AllInNote } from "~/components/all-in-note";
import { Confirmation } from "~/components/confirmation";
import { ErrorSummary } from "~/components/error-summary";
import { formatDateTime } from "~/i18n/format";
import { HOLD_ACTION, HoldPanel, useHoldExpired } from "~/components/hold-panel";
import { formatMoney } from "~/i18n/format";
import { PostForm } from "~/components/post-form";
import { RemovePromoLink } from "~/components/promo-removal";
import { useSeatSubmissions } from "~/components/use-seat-submissions";
import { SeatMap, SeatMapFilters } from "~/components/seat-map";
import { PriceAndSectionFields } from "~/components/select-field";
import { TicketChoices } from "~/components/ticket-choices";
import {
  chooseSeats,
  chooseStanding,
  reserveBestAvailable,
  type Message,
  type ReserveOutcome,
} from "~/use-cases/reservations.server";
import { orderFee } from "~/ticketing/pricing";
import { FILTER_PARAMS, parseSeatMapFilter, seatMapFilterValues } from "~/views/seat-map";
import { isAccessService } from "~/views/access-services";
import { pathWithDeclaredQuery, type KeptQuery } from "~/urls/page-query";
import { pushToDataLayer, type ClientEvent } from "~/views/events";
import { FIRST_STEP, HOLD_REVIEW } from "~/ticketing/checkout-steps";
import { checkoutPath, ticketsPath } from "~/urls/paths";
import { eventListings, showShareCard } from "~/use-cases/structured-data.server";
import { accessWording } from "~/use-cases/access-listings.server";
import { StructuredData } from "~/components/structured-data";
import { shareTags } from "~/components/share-card";
import { headTags } from "~/components/page-head";
import { pageHead } from "~/web/page-head.server";
import { flashEvents, track } from "~/web/track.server";
import type { FieldErrors } from "~/views/ticket-choices";
import type { SummaryError } from "~/views/errors";
import { useSupportPhone } from "~/components/support-phone";
import { venuePhoneHandle } from "~/components/venue-phone-handle";

export const meta: MetaFunction<typeof loader> = (args) => [...headTags(args), ...shareTags(args.data?.share)];

export const handle = {
  titleKey: "tickets.title",
  title: (data: { pageTitle?: string } | undefined) => data?.pageTitle,
  keptPage: true,
  query: Object.values(FILTER_PARAMS),
  ...venuePhoneHandle,
};
// Marked pure: the page's script, which never reads it, leaves the call out (app/urls/page-query.ts).
export const keptQuery: KeptQuery = /* @__PURE__ */ seatMapFilterValues();

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const page = await ticketsContext(request, params, context);
  const { show, venue, performance, refusal, ownReservation, otherReservation, buyer } = page;
  const url = new URL(request.url);
  // Wheelchair spaces are drawn as selectable: the form's access declaration decides.
  const drawn = buyerEntitlements(page.membership, page.promo, { wheelchair: true });
  const trackedEvents: ClientEvent[] = [track(context, "fetchSeats.request", { performanceId: performance.id })];
  const view = refusal
    ? null
    : await context.seatMaps.view({
        performanceId: performance.id,
        basketId: buyer.basketId,
        entitlements: drawn.entitlements,
        filter: parseSeatMapFilter(url.searchParams),
      });
  trackedEvents.push(
    track(context, view || refusal ? "fetchSeats.success" : "fetchSeats.failure", { performanceId: performance.id }),
  );
  if (view?.sections.some((section) => section.kind === "standing")) {
    trackedEvents.push(track(context, "fetchAdmissions.request", { performanceId: performance.id }));
    trackedEvents.push(track(context, "fetchAdmissions.success", { performanceId: performance.id }));
  }
  const tickets =
    ownReservation && buyer.basketId
      ? ticketsView(ownReservation, await context.baskets.price(buyer.basketId, page.benefits), page.benefits)
      : null;
  const seatLimit = performance.seat_limit;
  const level = (await context.availability.summary([performance.id])).get(performance.id)?.level ?? "soldOut";
  const structuredData = await eventListings(
    context,
    show,
    [
      {
        id: performance.id,
        startsAt: performance.starts_at,
        onSaleFrom: performance.on_sale_from,
        presaleFrom: performance.presale_from,
        status: performance.status,
        level,
        accessServices: performance.access_services,
        accessNotes: performance.access_notes,
      },
    ],
    await accessWording(request, context, show.venueSlug),
  );
  const locale = await context.i18n.getLocale(request);
  return {
    // The seat map's filters make no other page: its one address is the performance's.
    head: await pageHead(request, context, {
      describe: (t) =>
        t("seo.tickets", {
          show: show.name,
          venue: show.venueName,
          date: formatDateTime(performance.starts_at, show.timeZone, locale),
        }),
      venueSlug: show.venueSlug,
    }),
    structuredData,
    pageTitle: await ticketsPageTitle(request, context, show, performance.starts_at),
    share: await showShareCard(request, context, show, {
      title: `${show.name}, ${show.venueName}`,
      path: ticketsPath(context.config.routingType, show.slug, show.venueSlug, performance.id),
    }),
    show: { name: show.name, venueName: show.venueName, timeZone: show.timeZone },
    performance: {
      id: performance.id,
      startsAt: performance.starts_at,
      seatLimit,
      timedEntry: performance.timed_entry,
    },
    currency: venue.currency,
    venuePhone: venue.support_phone,
    orderFee: orderFee(show.transactionFee, page.benefits),
    refusal,
    view,
    tickets,
    hold: ownReservation ? holdView(context, ownReservation) : null,
    other: otherReservation
      ? {
          showName: otherReservation.show.name,
          startsAt: otherReservation.startsAt,
          timeZone: otherReservation.show.timeZone,
          ticketsHref: holdView(context, otherReservation).ticketsHref,
        }
      : null,
    promo: page.promo ? { code: page.promo.code } : null,
    /** The access membership already records a wheelchair user: no declaration to tick. */
    accessRegistered: drawn.accessRegistered,
    trackedEvents,
  };
}

type ActionResult = { intent: string; error?: Message; errors?: FieldErrors; seatIds?: number[]; groupLimit?: number };

const int = (value: FormDataEntryValue | null) => {
  if (typeof value !== "string" || !/^\d{1,7}$/.test(value.trim())) return undefined;
  return Number(value);
};

export async function action({ request, params, context }: ActionFunctionArgs) {
  const page = await ticketsContext(request, params, context);
  const { performance, ownReservation, otherReservation } = page;
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const headers = new Headers();
  const back = ticketsPageBack(request);
  const fail = (result: Omit<ActionResult, "intent">, events: ClientEvent[] = [], status = 400) =>
    data({ ...result, intent, trackedEvents: events } satisfies ActionResult & { trackedEvents: ClientEvent[] }, {
      status,
      headers,
    });
  const done = async (outcome: ReserveOutcome, to: string) => {
    if (!outcome.ok) return fail({ error: outcome.error, seatIds: outcome.seatIds }, outcome.events, 409);
    await flashEvents(context, headers, outcome.events);
    return redirect(to, { headers });
  };

  // One performance per basket: the page asks "Empty your cart?" before anything else happens.
  if (otherReservation && intent !== "promo") return redirect(back);

  if (intent === "promo") {
    const outcome = await applyPromoCode(context, {
      source: "form",
      code: String(form.get("promoCode") ?? ""),
      target: {
        performanceId: performance.id,
        titleSlug: page.show.slug,
        venueSlug: page.show.venueSlug,
        currency: page.venue.currency,
      },
      basketId: page.buyer.basketId,
    });
    if (!outcome.ok) return fail({ errors: { promoCode: { key: `promo.${outcome.reason}` } } }, outcome.events);
    headers.append("Set-Cookie", outcome.cookie);
    await flashEvents(context, headers, outcome.events);
    return redirect(back, { headers });
  }

  if (intent === "continue") {
    if (!ownReservation || ownReservation.expired) return redirect(back);
    const { errors, events } = await saveTicketChoices(context, ownReservation, form, page.benefits);
    if (Object.keys(errors).length) return fail({ errors }, events);
    await flashEvents(context, headers, events);
    return redirect(checkoutPath(FIRST_STEP), { headers });
  }

  const { entitlements, wheelchairUser: declared } = buyerEntitlements(page.membership, page.promo, {
    wheelchair: form.get("access") === "wheelchair",
  });
  const basketId = await ensureBasket(context, page.buyer.basketId, headers, page.claimBasket);
  const current = ownReservation;

  if (intent === "select") {
    const wanted = form.getAll("seat").flatMap((value) => (int(value) === undefined ? [] : [int(value)!]));
    const sponsored = new Set(
      form.getAll("sponsored").flatMap((value) => (int(value) === undefined ? [] : [int(value)!])),
    );
    const outcome = await chooseSeats(context, {
      basketId,
      performanceId: performance.id,
      wanted,
      current,
      entitlements,
      sponsored,
    });
    if (!outcome.ok && outcome.error.key === "engine.restricted" && !declared)
      return fail(
        {
          error: { key: "tickets.accessDeclarationNeeded" },
          errors: { access: { key: "tickets.accessDeclarationNeeded" } },
        },
        outcome.events,
        409,
      );
    return done(outcome, back);
  }

  if (intent === "best") {
    const quantity = int(form.get("quantity"));
    if (!quantity) return fail({ errors: { quantity: { key: "tickets.quantityRequired" } } });
    const wheelchairSpaces = Math.min(int(form.get("wheelchairSpaces")) ?? 0, quantity);
    if (wheelchairSpaces > 0 && !declared)
      return fail({ errors: { access: { key: "tickets.accessDeclarationNeeded" } } });
    const section = form.get("section");
    // Seats suited to the performance's access services, when the buyer asks (the domain drops
    // any the performance does not carry); the offer's page says whether these seats are.
    const prefer = [...new Set(form.getAll("prefer").map(String).filter(isAccessService))];
    const outcome = await reserveBestAvailable(context, {
      basketId,
      performanceId: performance.id,
      request: {
        quantity,
        minPrice: int(form.get("minPrice")),
        maxPrice: int(form.get("maxPrice")),
        sectionId: typeof section === "string" && section ? section : undefined,
        wheelchairSpaces,
        prefer,
      },
      current,
      entitlements,
    });
    // Over the seat limit, the page also says who to call for a larger group.
    if (!outcome.ok && outcome.error.key === "engine.seat-limit") {
      const groupLimit = Number(outcome.error.values?.seatSelectionLimit ?? 0);
      return fail({ error: outcome.error, groupLimit }, outcome.events);
    }
    const asked = new URLSearchParams(prefer.map((service) => ["prefer", service]));
    return done(outcome, prefer.length ? `${checkoutPath(HOLD_REVIEW)}?${asked}` : checkoutPath(HOLD_REVIEW));
  }

  if (intent === "standing") {
    const events: ClientEvent[] = [];
    for (const [name, value] of form.entries()) {
      if (!name.startsWith("area-")) continue;
      const quantity = int(value);
      if (quantity === undefined) return fail({ errors: { [name]: { key: "tickets.quantityRequired" } } });
      const held = current?.standing.find((claim) => claim.sectionId === name.slice(5))?.quantity ?? 0;
      if (quantity === held && !current?.expired) continue;
      const outcome = await chooseStanding(context, {
        basketId,
        performanceId: performance.id,
        sectionId: name.slice(5),
        quantity,
        entitlements,
      });
      events.push(...outcome.events);
      if (!outcome.ok) return fail({ error: outcome.error }, events, 409);
    }
    await flashEvents(context, headers, events);
    return redirect(back, { headers });
  }

  return fail({ error: { key: "reserve.somethingWrong" } });
}

export default function Tickets() {
  const { t, i18n } = useTranslation();
  const loaderData = useLoaderData<typeof loader>();
  const { show, performance, view, tickets, hold, other, refusal, currency } = loaderData;
  const actionData = useActionData<typeof action>();
  const seatFetcher = useFetcher<typeof action>({ key: "seat-map" });
  const result = (seatFetcher.data ?? actionData) as (ActionResult & { trackedEvents?: ClientEvent[] }) | undefined;
  const location = useLocation();
  const matches = useMatches();
  const seatForm = useRef<HTMLFormElement>(null);
  const [presaleOpen, setPresaleOpen] = useState(true);
  const expired = useHoldExpired(hold);
  const when = formatDateTime(performance.startsAt, show.timeZone, i18n.language);
  const money = (amount: number) => formatMoney(amount, currency, i18n.language);
  // The venue's, as the header says it (useSupportPhone): a group booking is the venue's to take.
  const phone = useSupportPhone();

  const seats = useSeatSubmissions(seatFetcher, seatForm, () => {
    // The server refused: put the seats back as the server has them.
    seatForm.current?.reset();
  });
  useEffect(() => {
    if (seatFetcher.state !== "idle" || !seatFetcher.data) return;
    pushToDataLayer((seatFetcher.data as { trackedEvents?: ClientEvent[] }).trackedEvents);
  }, [seatFetcher.state, seatFetcher.data]);

  const summary: SummaryError[] = [
    ...(result?.error ? [{ field: null, text: t(result.error.key, result.error.values) }] : []),
    ...Object.entries(result?.errors ?? {})
      .filter(([, error]) => error.key !== result?.error?.key)
      .map(([field, error]) => ({ field, text: t(error.key, error.values) })),
  ];
  const fieldError = (field: string) => result?.errors?.[field];
  const bands = view?.bands ?? [];
  const prices = [...new Set(bands.map((band) => band.price))]
    .sort((a, b) => a - b)
    .map((price) => ({ value: price, label: money(price) }));
  const standing = view?.sections.filter((section) => section.kind === "standing") ?? [];
  const seated = view?.sections.some((section) => section.kind === "seated") ?? false;

  return (
    <>
      <StructuredData data={loaderData.structuredData} />
      <h1>{t("tickets.title")}</h1>
      <p className="tickets__performance">
        {show.name}, {show.venueName}: {when}
        {performance.timedEntry ? ` (${performance.timedEntry})` : null}
      </p>
      <ErrorSummary errors={summary} />
      {result?.groupLimit ? (
        <p className="message message--info">
          {t("tickets.groupContact", { seatSelectionLimit: result.groupLimit, phone })}
        </p>
      ) : null}
      {result?.error?.key === "reserve.somethingWrong" || result?.error?.key === "reserve.genericError" ? (
        <p>
          <Link to={location.pathname}>{t("reserve.changeSelection")}</Link>
        </p>
      ) : null}

      {other ? (
        <Confirmation open title={t("hold.emptyCartTitle")}>
          <p>
            {t("hold.emptyCartBody", {
              show: other.showName,
              when: formatDateTime(other.startsAt, other.timeZone, i18n.language),
            })}
          </p>
          <div className="confirmation__actions">
            <PostForm action={HOLD_ACTION}>
              <input
                type="hidden"
                name="to"
                value={pathWithDeclaredQuery(location.pathname, location.search, matches)}
              />
              <input type="hidden" name="intent" value="empty" />
              <button type="submit" className="button button--warning">
                {t("hold.emptyCartConfirm")}
              </button>
            </PostForm>
            <Link to={other.ticketsHref} className="button button--secondary">
              {t("hold.emptyCartKeep")}
            </Link>
          </div>
        </Confirmation>
      ) : null}

      {refusal === "presale" ? (
        <>
          <Confirmation open={presaleOpen} title={t("tickets.presaleTitle")} onClose={() => setPresaleOpen(false)}>
            <PresaleOffer error={fieldError("promoCode")} />
          </Confirmation>
          {!presaleOpen ? (
            <p className="message message--info">
              {t("tickets.presaleBody")}{" "}
              <button type="button" className="link-button" onClick={() => setPresaleOpen(true)}>
                {t("tickets.presaleShow")}
              </button>
            </p>
          ) : null}
        </>
      ) : refusal ? (
        <p className="message message--info">{t(`engine.${refusal}`)}</p>
      ) : null}

      {loaderData.promo ? (
        <p className="message message--info">
          {t("promo.appliedCode", { code: loaderData.promo.code })} <RemovePromoLink />
        </p>
      ) : null}
      {hold ? <HoldPanel hold={hold} /> : null}

      {tickets && tickets.lines.length > 0 ? (
        <section className="basket" aria-labelledby="basket-title">
          <h2 id="basket-title">{t("tickets.yourTickets")}</h2>
          <PostForm>
            <TicketChoices view={tickets} errors={result?.errors} />
            <input type="hidden" name="intent" value="continue" />
            <button type="submit" className="button button--primary" disabled={expired}>
              {expired ? t("hold.reservationExpired") : t("tickets.continue")}
            </button>
          </PostForm>
        </section>
      ) : null}

      {view ? (
        <>
          <AllInNote fee={loaderData.orderFee} currency={currency} />
          {seated ? (
            <section className="best-available" aria-labelledby="best-title">
              <h2 id="best-title">{t("tickets.bestTitle")}</h2>
              <p>{t("tickets.bestIntro", { count: performance.seatLimit })}</p>
              <PostForm>
                <div className="field">
                  <label htmlFor="quantity">{t("tickets.quantity")}</label>
                  <select
                    id="quantity"
                    name="quantity"
                    defaultValue="2"
                    aria-describedby={fieldError("quantity") ? "quantity-error" : undefined}
                  >
                    {Array.from({ length: performance.seatLimit }, (_, index) => (
                      <option key={index + 1} value={index + 1}>
                        {index + 1}
                      </option>
                    ))}
                    <option value={performance.seatLimit + 1}>
                      {t("tickets.moreThan", { count: performance.seatLimit })}
                    </option>
                  </select>
                  {fieldError("quantity") ? (
                    <p id="quantity-error" className="field-error">
                      {t(fieldError("quantity")!.key)}
                    </p>
                  ) : null}
                </div>
                <div className="field-row">
                  <PriceAndSectionFields
                    idPrefix="best"
                    className="field"
                    names={{ minPrice: "minPrice", maxPrice: "maxPrice", section: "section" }}
                    labels={{
                      from: t("tickets.priceFrom"),
                      to: t("tickets.priceTo"),
                      anyPrice: t("tickets.anyPrice"),
                      section: t("tickets.partOfHouse"),
                      anySection: t("tickets.anywhere"),
                    }}
                    prices={prices}
                    sections={view.filterSections}
                  />
                </div>
                {view.suited.length ? (
                  <fieldset className="best-available__suited">
                    <legend>{t("access.booking.preferLegend")}</legend>
                    {view.suited.map(({ service, key }) => (
                      <div className="checkbox" key={service}>
                        <input type="checkbox" id={`prefer-${service}`} name="prefer" value={service} />
                        <label htmlFor={`prefer-${service}`}>{t(`${key}.prefer`)}</label>
                      </div>
                    ))}
                  </fieldset>
                ) : null}
                <AccessDeclaration
                  id="best-access"
                  error={fieldError("access")}
                  registered={loaderData.accessRegistered}
                >
                  <div className="field">
                    <label htmlFor="wheelchairSpaces">{t("tickets.wheelchairSpaces")}</label>
                    <select id="wheelchairSpaces" name="wheelchairSpaces" defaultValue="0">
                      {[0, 1, 2].map((count) => (
                        <option key={count} value={count}>
                          {count}
                        </option>
                      ))}
                    </select>
                  </div>
                </AccessDeclaration>
                <input type="hidden" name="intent" value="best" />
                <button type="submit" className="button">
                  {t("tickets.findSeats")}
                </button>
              </PostForm>
            </section>
          ) : null}

          {standing.length ? (
            <section className="standing" aria-labelledby="standing-title">
              <h2 id="standing-title">{t("tickets.standingTitle")}</h2>
              <PostForm>
                {standing.map((area) =>
                  area.kind === "standing" ? (
                    <div className="field" key={area.id}>
                      <label htmlFor={`area-${area.id}`}>
                        {t("tickets.standingArea", { area: area.name, price: money(bands[area.band]?.price ?? 0) })}
                      </label>
                      <p id={`area-${area.id}-hint`} className="hint">
                        {area.left > 0 ? t("tickets.left", { count: area.left }) : t("availability.soldOut")}
                      </p>
                      <select
                        id={`area-${area.id}`}
                        name={`area-${area.id}`}
                        aria-describedby={`area-${area.id}-hint`}
                        defaultValue={String(
                          tickets?.lines.find((line) => line.section === area.name && !line.seat)?.quantity ?? 0,
                        )}
                        disabled={area.left === 0}
                      >
                        {Array.from({ length: Math.min(performance.seatLimit, area.left) + 1 }, (_, count) => (
                          <option key={count} value={count}>
                            {count}
                          </option>
                        ))}
                      </select>
                    </div>
                  ) : null,
                )}
                <input type="hidden" name="intent" value="standing" />
                <button type="submit" className="button">
                  {t("tickets.reservePlaces")}
                </button>
              </PostForm>
            </section>
          ) : null}

          {seated ? (
            <section className="seat-map-section" aria-labelledby="seat-map-title">
              <h2 id="seat-map-title">{t("tickets.seatMapTitle")}</h2>
              <SeatMapFilters view={view} filter={view.filter} />
              <PostForm ref={seatForm} id="seat-map-form" className="seat-map-form" autoComplete="off">
                <input type="hidden" name="intent" value="select" />
                <AccessDeclaration
                  id="map-access"
                  error={fieldError("access")}
                  registered={loaderData.accessRegistered}
                />
                <SeatMap
                  view={view}
                  waiting={seats.waiting}
                  onToggle={(seatId, checked, sponsored) => seats.toggle(seatId, { checked, sponsored })}
                />
                <button type="submit" className="button button--primary">
                  {t("tickets.updateSeats")}
                </button>
              </PostForm>
            </section>
          ) : null}
        </>
      ) : null}
      {view && bands.some((band) => band.options.length > 1) ? (
        <p className="hint">{t("tickets.optionsHint")}</p>
      ) : null}
      <p className="hint">{t("tickets.groupHint", { seatSelectionLimit: performance.seatLimit, phone })}</p>
    </>
  );
}

/** The access declaration: wheelchair spaces and companion seats are booked for the people who need them. */
function AccessDeclaration({
  id,
  error,
  registered,
  children,
}: {
  id: string;
  error?: { key: string };
  registered: boolean;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  if (registered)
    return (
      <fieldset className="access-declaration">
        <legend>{t("tickets.accessLegend")}</legend>
        <p className="hint">{t("tickets.accessRegistered")}</p>
        {children}
      </fieldset>
    );
  return (
    <fieldset className="access-declaration">
      <legend>{t("tickets.accessLegend")}</legend>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {t(error.key)}
        </p>
      ) : null}
      <div className="checkbox">
        <input
          type="checkbox"
          id={id}
          name="access"
          value="wheelchair"
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <label htmlFor={id}>{t("tickets.accessDeclaration")}</label>
      </div>
      {children}
    </fieldset>
  );
}

function PresaleOffer({ error }: { error?: { key: string } }) {
  const { t } = useTranslation();
  return (
    <>
      <p>{t("tickets.presaleBody")}</p>
      <p>
        <Link to="/membership" className="button">
          {t("tickets.presaleJoin")}
        </Link>
      </p>
      <PostForm className="promo-form">
        <div className="field">
          <label htmlFor="promoCode">{t("tickets.presaleCode")}</label>
          {error ? (
            <p id="promoCode-error" className="field-error">
              {t(error.key)}
            </p>
          ) : null}
          <input
            type="text"
            id="promoCode"
            name="promoCode"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-describedby={error ? "promoCode-error" : undefined}
            aria-invalid={error ? true : undefined}
          />
        </div>
        <input type="hidden" name="intent" value="promo" />
        <button type="submit" className="button">
          {t("tickets.applyCode")}
        </button>
      </PostForm>
    </>
  );
}
