import { data, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/node";
import {
  type ErrorResponse,
  isRouteErrorResponse,
  Link,
  useLoaderData,
  useParams,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { fromZonedTime } from "date-fns-tz";
import { venueDay } from "~/urls/venue-days";
import { useTranslation } from "react-i18next";
import { membershipOf, promoFromLink, readBuyer } from "~/web/buyer.server";
import { benefitsOf } from "~/ticketing/memberships";
import { buyerEntitlements } from "~/ticketing/entitlements.server";
import { AllInNote } from "~/components/all-in-note";
import { CalendarFilters, filterSummary, type CalendarFilterValues } from "~/components/calendar-filters";
import { addMonths, formatMonth } from "~/components/calendar-format";
import { formatMoney } from "~/i18n/format";
import { CalendarMonth } from "~/components/calendar-month";
import type { CalendarPerformanceView } from "~/components/calendar-performance";
import { CalendarPromo, type PromoOutcome } from "~/components/calendar-promo";
import { ErrorPage } from "~/components/error-page";
import { calendarParams, parseParams } from "~/urls/params";
import { emptyOr, isCanonicalWholeNumber, type KeptQuery } from "~/urls/page-query";
import { calendarPath, showPath, ticketsPath } from "~/urls/paths";
import type { RoutingMode } from "~/urls/route-table.js";
import { showFromParams } from "~/web/show-params.server";
import type { AvailabilityFilter } from "~/ticketing/availability.server";
import { bookable, offersTickets, saleState } from "~/ticketing/sale-window";
import { accessServiceKey, accessServicesOf, isAccessService } from "~/views/access-services";
import { accessWording } from "~/use-cases/access-listings.server";
import { orderFee } from "~/ticketing/pricing";
import { promoRuleView } from "~/ticketing/promotions.server";
import type { ClientEvent } from "~/views/events";
import { track } from "~/web/track.server";
import type { loader as rootLoader } from "~/root";
import { venuePhoneHandle } from "~/components/venue-phone-handle";
import { headTags } from "~/components/page-head";
import { pageHead } from "~/web/page-head.server";

// The filter's bounds, as the page reads them (readFilter) and as a kept page's address may have them.
const MAX_PRICE = 100_000_000;
const MAX_SEATS_ASKED = 99;
const SECTION = /^[\w-]{1,64}$/;

export const meta = headTags;

export const handle = {
  titleKey: "calendar.title",
  // As ErrorBoundary below words the page.
  errorTitleKey: (error: unknown) => (isNotFound(error) ? "errors.notFound.title" : "calendar.error.title"),
  keptPage: true,
  // Not `pc`: a promo code is applied once, on arrival, and is not written into the page's links.
  query: ["from", "to", "seats", "section", "access"],
  ...venuePhoneHandle,
};
export const keptQuery: KeptQuery = {
  from: (value) => emptyOr(value, (price) => isCanonicalWholeNumber(price, MAX_PRICE)),
  to: (value) => emptyOr(value, (price) => isCanonicalWholeNumber(price, MAX_PRICE)),
  seats: (value) => emptyOr(value, (seats) => seats !== "0" && isCanonicalWholeNumber(seats, MAX_SEATS_ASKED)),
  section: (value) => emptyOr(value, (id) => SECTION.test(id)),
  access: (value) => emptyOr(value, isAccessService),
};

const isNotFound = (error: unknown): error is ErrorResponse =>
  isRouteErrorResponse(error) && (error.status === 404 || error.status === 405);

type Show = Awaited<ReturnType<typeof showFromParams>>;

const FILTER_PARAMS = ["seats", "section", "from", "to", "access"] as const;
// The seat picker offers up to the performances' seat limit; this bounds it when nothing plays.
const DEFAULT_MAX_SEATS = 10;

/** A whole number from the query string, or undefined for anything else (a bad filter is no filter). */
function wholeNumber(value: string | null, max = MAX_PRICE): number | undefined {
  if (!value || !/^\d{1,9}$/.test(value)) return undefined;
  const number = Number(value);
  return number <= max ? number : undefined;
}

function readFilter(url: URL): CalendarFilterValues {
  const { searchParams } = url;
  let minPrice = wholeNumber(searchParams.get("from"));
  let maxPrice = wholeNumber(searchParams.get("to"));
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice)
    [minPrice, maxPrice] = [maxPrice, minPrice];
  const quantity = wholeNumber(searchParams.get("seats"), MAX_SEATS_ASKED);
  const section = searchParams.get("section");
  const access = searchParams.get("access") ?? "";
  return {
    access: isAccessService(access) ? access : undefined,
    quantity: quantity && quantity >= 1 ? quantity : undefined,
    sectionId: section && SECTION.test(section) ? section : undefined,
    minPrice,
    maxPrice,
  };
}

/** The filter as a query string, for links that keep it (previous and next month). */
function filterQuery(filter: CalendarFilterValues): string {
  const query = new URLSearchParams();
  if (filter.quantity !== undefined) query.set("seats", String(filter.quantity));
  if (filter.sectionId) query.set("section", filter.sectionId);
  if (filter.minPrice !== undefined) query.set("from", String(filter.minPrice));
  if (filter.maxPrice !== undefined) query.set("to", String(filter.maxPrice));
  if (filter.access) query.set("access", filter.access);
  const text = query.toString();
  return text ? `?${text}` : "";
}

/**
 * What the page says of the code in play: the outcome of a link's (`?pc=`), or else the code the
 * buyer already holds, if it is good for this show here, as a quiet note.
 */
async function promoOutcome(
  context: AppLoadContext,
  show: Show,
  { link, promo }: Awaited<ReturnType<typeof promoFromLink>>,
): Promise<PromoOutcome | null> {
  if (link && !link.ok) return { outcome: link.reason };
  if (!promo) return null;
  const rule = promoRuleView(promo, await context.catalogue.priceOptionsOfRun(show.runId), show.currency);
  return { outcome: "applied", code: promo.code, rule, fromLink: link !== null };
}

function monthStart(month: string, timeZone: string): Date {
  return fromZonedTime(`${month}-01T00:00:00`, timeZone);
}

/**
 * A month of a show's performances with availability in words, filtered by seats, part of the
 * house and price; previous and next links to the nearest months with performances; the outcome
 * of a promo link. Any failure past the 404s is the calendar's own error (ErrorBoundary below).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const show = await showFromParams(params, context);
  const { date } = parseParams(params, calendarParams);
  const ids = { show: show.slug, venue: show.venueSlug };
  const events: ClientEvent[] = [track(context, "fetchCalendar.request", ids)];
  try {
    const { page, headers } = await loadCalendar(request, context, show, date);
    page.trackedEvents.unshift(...events, track(context, "fetchCalendar.success", ids));
    return data(page, { headers });
  } catch (error) {
    track(context, "fetchCalendar.failure", ids);
    throw error;
  }
}

async function loadCalendar(request: Request, context: AppLoadContext, show: Show, date: string | undefined) {
  const url = new URL(request.url);
  const mode = context.config.routingType;
  const now = context.clock.now();
  const zone = show.timeZone;
  const headers = new Headers();
  // Read once: the promo code and the membership both come from the buyer's cookies.
  const buyer = await readBuyer(request, context);
  const target = { runId: show.runId, titleSlug: show.slug, venueSlug: show.venueSlug, currency: show.currency };
  const promo = await promoFromLink(context, buyer, target, url.searchParams.get("pc"));
  if (promo.link?.ok) headers.append("Set-Cookie", promo.link.cookie);

  const span = await context.catalogue.runSpan(show.runId, now);
  const month = date ? date.slice(0, 7) : venueDay(span ? (span.firstOnSale ?? span.first) : now, zone, "yyyy-MM");
  const from = monthStart(month, zone);
  const to = monthStart(addMonths(month, 1), zone);
  const asked = readFilter(url);
  const [monthPerformances, around] = await Promise.all([
    context.catalogue.performances(show.runId, from < now ? now : from, to),
    // Filtered to a service, the months before and after are those with such dates.
    context.catalogue.performancesAround(show.runId, now, from, to, asked.access),
  ]);
  // An access filter is a filter of dates, not of places: the month keeps only those dates.
  const performances = asked.access
    ? monthPerformances.filter((performance) => accessServicesOf(performance.accessServices).includes(asked.access!))
    : monthPerformances;

  const maxSeats = performances.length
    ? Math.max(...performances.map((performance) => performance.seatLimit))
    : DEFAULT_MAX_SEATS;
  const filter: CalendarFilterValues = {
    ...asked,
    quantity: asked.quantity !== undefined && asked.quantity <= maxSeats ? asked.quantity : undefined,
  };
  const performanceIds = performances.map((performance) => performance.id);
  const factsFor = (values: CalendarFilterValues) =>
    context.availability.calendar(performanceIds, values satisfies AvailabilityFilter);
  let facts = await factsFor(filter);
  if (filter.sectionId && !facts.sections.some((section) => section.id === filter.sectionId)) {
    // A part of the house that does not sell places for this month: as if none were chosen.
    filter.sectionId = undefined;
    facts = await factsFor(filter);
  }

  const membership = await membershipOf(context, buyer);
  const wording = await accessWording(request, context, show.venueSlug);
  const audiences = buyerEntitlements(membership, promo.promo).entitlements.presale;
  const views: CalendarPerformanceView[] = performances.map((performance) => {
    const state = saleState(performance, now, audiences);
    const level = facts.availability.get(performance.id)?.level ?? "soldOut";
    const offered = offersTickets(state, level === "soldOut");
    return {
      id: performance.id,
      startsAt: performance.startsAt,
      day: venueDay(performance.startsAt, zone, "yyyy-MM-dd"),
      level,
      state,
      bookable: bookable(state),
      onSaleFrom: performance.onSaleFrom,
      href: offered ? ticketsPath(mode, show.slug, show.venueSlug, performance.id) : null,
      access: wording.services(performance.accessServices, show.country),
    };
  });

  const query = filterQuery(filter);
  const monthLink = (iso: string | null) => {
    if (!iso) return null;
    const target = venueDay(iso, zone, "yyyy-MM");
    return { month: target, href: `${calendarPath(mode, show.slug, show.venueSlug, `${target}-01`)}${query}` };
  };
  const active = FILTER_PARAMS.some((name) => url.searchParams.has(name));
  const page = {
    // The month's one address: its filters make no other page.
    head: await pageHead(request, context, {
      describe: (t) => t("seo.calendar", { show: show.name, venue: show.venueName }),
      venueSlug: show.venueSlug,
    }),
    venuePhone: show.venuePhone,
    show: {
      name: show.name,
      venueName: show.venueName,
      timeZone: zone,
      currency: show.currency,
      href: showPath(mode, show.slug, show.venueSlug),
    },
    month,
    previous: monthLink(around.before),
    next: monthLink(around.after),
    performances: views,
    /** Performances this month before the access filter: the filter form stays to widen it again. */
    anyThisMonth: monthPerformances.length > 0,
    filter,
    filterActive: active,
    sectionName: facts.sections.find((section) => section.id === filter.sectionId)?.name,
    noMatch: performances.length > 0 && facts.selectedPriceRange === null,
    options: {
      prices: facts.prices,
      sections: facts.sections,
      maxSeats,
      currency: show.currency,
      country: show.country,
    },
    orderFee: orderFee(show.transactionFee, benefitsOf(membership)),
    formAction: calendarPath(mode, show.slug, show.venueSlug, date),
    clearHref: calendarPath(mode, show.slug, show.venueSlug, date),
    presale: {
      shown: views.some((view) => view.state === "presale"),
      unlocked: views.some((view) => view.state === "presaleUnlocked"),
      // Whose key opened it: the membership when the buyer has one that qualifies, else the code.
      unlockedBy:
        buyerEntitlements(membership, null).entitlements.presale.size > 0 ? ("membership" as const) : ("code" as const),
    },
    promo: await promoOutcome(context, show, promo),
    trackedEvents: promo.link ? promo.link.events : [],
  };
  return { page, headers };
}

export default function Calendar() {
  const { t, i18n } = useTranslation();
  const page = useLoaderData<typeof loader>();
  const { show, month, performances, filter, options } = page;
  const locale = i18n.language;
  const money = (amount: number) => formatMoney(amount, show.currency, locale);
  return (
    <div className="calendar">
      <h1>{t("calendar.title")}</h1>
      <p className="calendar__show">
        <Link to={show.href}>{t("calendar.at", { show: show.name, venue: show.venueName })}</Link>
      </p>
      {page.promo ? <CalendarPromo promo={page.promo} /> : null}
      {page.anyThisMonth ? (
        <>
          <CalendarFilters
            action={page.formAction}
            values={filter}
            options={options}
            active={page.filterActive}
            clearHref={page.clearHref}
          />
          <AllInNote fee={page.orderFee} currency={show.currency} />
        </>
      ) : null}
      {page.filterActive && performances.length > 0 ? (
        <p className="calendar__summary" role="status">
          {filterSummary((key, options) => t(key, options), filter, page.sectionName, money, options.country)}
        </p>
      ) : null}
      {page.noMatch ? <p className="calendar__no-match">{t("calendar.filter.noMatch")}</p> : null}
      {page.presale.shown ? (
        <p className="calendar__presale">
          <span className="calendar-performance__tag">{t("calendar.presaleTag")}</span> {t("calendar.presaleNote")}
        </p>
      ) : null}
      {page.presale.unlocked ? (
        <p className="calendar__presale">
          <span className="calendar-performance__tag">{t("calendar.presaleTag")}</span>{" "}
          {t(page.presale.unlockedBy === "membership" ? "calendar.presaleMember" : "calendar.presaleUnlocked")}
        </p>
      ) : null}
      {page.previous || page.next ? (
        <nav aria-label={t("calendar.monthsNav")}>
          {/* A list, and a space between its items: each link is read on its own, also by a text
              browser and by anything that reads the page's words run together. */}
          <ul className="calendar__months">
            {page.previous ? (
              <li>
                <Link to={page.previous.href} className="calendar__month-link calendar__month-link--previous">
                  {t("calendar.previous", { month: formatMonth(page.previous.month, locale) })}
                </Link>
              </li>
            ) : null}
            {page.previous && page.next ? " " : null}
            {page.next ? (
              <li className="calendar__months-next">
                <Link to={page.next.href} className="calendar__month-link calendar__month-link--next">
                  {t("calendar.next", { month: formatMonth(page.next.month, locale) })}
                </Link>
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
      <CalendarMonth month={month} performances={performances} timeZone={show.timeZone} />
      {performances.length === 0 ? (
        <p className="empty-state">
          {filter.access && page.anyThisMonth
            ? t("calendar.filter.noAccess", {
                service: t(accessServiceKey(filter.access, options.country)),
                month: formatMonth(month, locale),
              })
            : t("calendar.emptyMonth", { month: formatMonth(month, locale) })}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The calendar's own error page (spec section 8), with the way back to the show. A 404 (no such
 * show here, a date that is not a date) is the site's not-found page, as everywhere else.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const params = useParams();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  if (isNotFound(error)) {
    return <ErrorPage kind="notFound" status={error.status} />;
  }
  const env = root?.env;
  const mode = (env?.ROUTING_TYPE ?? "DEFAULT") as RoutingMode;
  const titleSlug = params.titleSlug ?? env?.TITLE_SLUG;
  const venueSlug = params.venueSlug ?? env?.VENUE_SLUG;
  const back = titleSlug && venueSlug ? showPath(mode, titleSlug, venueSlug) : "/";
  return (
    <section className="error-page" aria-labelledby="calendar-error-title">
      <h1 id="calendar-error-title">{t("calendar.error.title")}</h1>
      <p>{t("calendar.error.message")}</p>
      <p>
        <Link to={back}>{t("calendar.error.back")}</Link>
      </p>
    </section>
  );
}
