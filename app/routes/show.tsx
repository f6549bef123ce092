import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { venueDay } from "~/urls/venue-days";
import { useTranslation } from "react-i18next";
import { CalendarPerformance, type CalendarPerformanceView } from "~/components/calendar-performance";
import { formatDate, formatDateTime, formatMoney } from "~/i18n/format";
import { accessPath, calendarPath, showPath, ticketsPath, venuePath } from "~/urls/paths";
import { eventListings, showShareCard } from "~/use-cases/structured-data.server";
import { StructuredData } from "~/components/structured-data";
import { shareTags } from "~/components/share-card";
import { headTags } from "~/components/page-head";
import { pageHead } from "~/web/page-head.server";
import { showFromParams } from "~/web/show-params.server";
import { bookable, offersTickets, saleState } from "~/ticketing/sale-window";
import { buyerEntitlements } from "~/ticketing/entitlements.server";
import { membershipOf, readBuyer } from "~/web/buyer.server";
import { track } from "~/web/track.server";
import { Picture } from "~/components/picture";
import { Paragraphs, VenueAddress } from "~/components/venue-visit";
import { pictureView, runFromPrice } from "~/use-cases/show-list.server";
import { venuePhoneHandle } from "~/components/venue-phone-handle";
import { AccessNext } from "~/components/access-list";
import { accessListings, accessWording } from "~/use-cases/access-listings.server";
import { NEXT_ACCESS_PERFORMANCES } from "~/views/access-services";

export const meta: MetaFunction<typeof loader> = (args) => [...headTags(args), ...shareTags(args.data?.share)];

export const handle = {
  title: (data: { show?: { name: string } } | undefined) => data?.show?.name,
  keptPage: true,
  ...venuePhoneHandle,
};

const NEXT_PERFORMANCES = 5;
/** The dates the booking block at the top offers, each with its own "Book". */
const BOOK_DATES = 3;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const requested = track(context, "fetchShow.request");
  let show: Awaited<ReturnType<typeof showFromParams>>;
  try {
    show = await showFromParams(params, context);
  } catch (error) {
    track(context, "fetchShow.failure", { reason: error instanceof Response ? error.status : "error" });
    throw error;
  }
  const ids = { show: show.slug, venue: show.venueSlug };
  try {
    const { config } = context;
    const mode = config.routingType;
    const now = context.clock.now();
    const [span, next, pictures, fromPrice] = await Promise.all([
      context.catalogue.runSpan(show.runId, now),
      context.catalogue.nextPerformances(show.runId, now, NEXT_PERFORMANCES),
      context.catalogue.picturesOf(show.slug),
      runFromPrice(context, show),
    ]);
    const wording = await accessWording(request, context, show.venueSlug);
    const [availability, accessNext] = await Promise.all([
      context.availability.summary(next.map((performance) => performance.id)),
      accessListings(context, wording, { titleSlug: show.slug, venueSlug: show.venueSlug }, NEXT_ACCESS_PERFORMANCES),
    ]);
    const membership = await membershipOf(context, await readBuyer(request, context));
    const { presale } = buyerEntitlements(membership, null).entitlements;
    const performances: CalendarPerformanceView[] = next.map((performance) => {
      // Presale performances say so to anyone not in their audience, whose tickets page explains who can book.
      const state = saleState(performance, now, presale);
      const level = availability.get(performance.id)?.level ?? "soldOut";
      const offered = offersTickets(state, level === "soldOut");
      return {
        id: performance.id,
        startsAt: performance.startsAt,
        day: venueDay(performance.startsAt, show.timeZone, "yyyy-MM-dd"),
        level,
        state,
        bookable: bookable(state),
        onSaleFrom: performance.onSaleFrom,
        href: offered ? ticketsPath(mode, show.slug, show.venueSlug, performance.id) : null,
        access: wording.services(performance.accessServices, show.country),
      };
    });
    const structuredData = await eventListings(
      context,
      show,
      next.map((performance) => ({
        ...performance,
        level: availability.get(performance.id)?.level ?? "soldOut",
      })),
      wording,
    );
    const page = {
      head: await pageHead(request, context, { description: show.description, venueSlug: show.venueSlug }),
      structuredData,
      share: await showShareCard(request, context, show, {
        title: `${show.name}, ${show.venueName}`,
        path: showPath(mode, show.slug, show.venueSlug),
      }),
      show: {
        name: show.name,
        description: show.description,
        ageGuidance: show.ageGuidance,
        runningTimeMinutes: show.runningTimeMinutes,
        venueName: show.venueName,
        city: show.city,
        addressLines: show.addressLines.split("\n").filter(Boolean),
        region: show.region,
        postcode: show.postcode,
        timeZone: show.timeZone,
        poster: pictures.poster ? pictureView(pictures.poster) : null,
        hero: pictures.hero ? pictureView(pictures.hero) : null,
        venueAccess: show.venueAccess,
        showAccess: show.showAccess,
        /** What it warns of (schema.org's hazards), each with its words. */
        hazards: wording.hazards(show.accessHazards),
      },
      // Venue pages exist in the default routing mode only.
      venueHref: mode === "DEFAULT" ? venuePath(show.venueSlug) : null,
      venuePhone: show.venuePhone,
      span: span ? { first: span.first, last: span.last } : null,
      performances,
      fromPrice,
      // Only dates the buyer can book now: the list below says why the others cannot be.
      bookDates: performances
        .flatMap(({ id, startsAt, href, bookable }) => (href && bookable ? [{ id, startsAt, href }] : []))
        .slice(0, BOOK_DATES),
      calendarHref: calendarPath(mode, show.slug, show.venueSlug),
      accessNext,
      accessHref: accessPath(),
      trackedEvents: [requested, track(context, "fetchShow.success", ids)],
    };
    return page;
  } catch (error) {
    track(context, "fetchShow.failure", { ...ids, reason: "error" });
    throw error;
  }
}

export default function Show() {
  const { t, i18n } = useTranslation();
  const {
    show,
    venueHref,
    span,
    performances,
    fromPrice,
    bookDates,
    calendarHref,
    structuredData,
    accessNext,
    accessHref,
  } = useLoaderData<typeof loader>();
  const locale = i18n.language;
  // Source order is reading order (screen readers, text browsers, phones): the name and facts,
  // then booking, then the pictures and the description; wider screens put the poster beside them.
  return (
    <article className="show">
      {structuredData.length > 0 ? <StructuredData data={structuredData} /> : null}
      <div className={show.poster ? "show__intro show__intro--poster" : "show__intro"}>
        <div className="show__head">
          <h1>{show.name}</h1>
          <p className="show__where">{t("show.at", { venue: show.venueName, city: show.city })}</p>
          <dl className="show__facts">
            <dt>{t("show.ageGuidanceLabel")}</dt>
            <dd>{show.ageGuidance}</dd>
            <dt>{t("show.runningTimeLabel")}</dt>
            <dd>{t("show.runningTime", { count: show.runningTimeMinutes })}</dd>
          </dl>
        </div>
        <section className="show__book" aria-labelledby="show-book">
          <h2 id="show-book">{t("show.bookHeading")}</h2>
          {fromPrice ? (
            <p className="show__from">
              <strong className="show__from-price">
                {t("show.fromPrice", { price: formatMoney(fromPrice.amount, fromPrice.currency, locale) })}
              </strong>{" "}
              <span className="show__from-note">{t("show.fromPriceNote")}</span>
            </p>
          ) : null}
          {bookDates.length > 0 ? (
            <ul className="show__book-dates">
              {bookDates.map((date) => (
                <li key={date.id}>
                  <span id={`book-when-${date.id}`} className="show__book-when">
                    {formatDateTime(date.startsAt, show.timeZone, locale)}
                  </span>{" "}
                  {/* Named "Book" and its date, so a list of the page's links tells the three apart. */}
                  <Link
                    to={date.href}
                    id={`book-${date.id}`}
                    aria-labelledby={`book-${date.id} book-when-${date.id}`}
                    className="button show__book-link"
                  >
                    {t("show.book")}
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
          <p className="show__all-dates">
            <Link to={calendarHref}>{t("show.bookAllDates")}</Link>
          </p>
        </section>
        {show.poster ? <Picture picture={show.poster} sizes="18rem" className="show__poster" eager /> : null}
        <div className="show__about">
          <p>{show.description}</p>
        </div>
      </div>
      {show.hero ? <Picture picture={show.hero} sizes="100vw" className="show__hero" /> : null}

      <section className="show__section" aria-labelledby="show-where">
        <h2 id="show-where">{t("show.whereHeading")}</h2>
        <VenueAddress
          name={show.venueName}
          lines={[...show.addressLines, [show.city, show.region, show.postcode].filter(Boolean).join(" ")]}
          link={venueHref ? <Link to={venueHref}>{show.venueName}</Link> : undefined}
        />
      </section>

      {show.venueAccess || show.showAccess || show.hazards.length > 0 ? (
        <section className="show__section" aria-labelledby="show-access">
          <h2 id="show-access">{t("venuePage.showAccessHeading")}</h2>
          {show.hazards.length > 0 ? (
            <>
              <h3>{t("hazard.heading")}</h3>
              <ul className="show__hazards">
                {show.hazards.map((hazard) => (
                  <li key={hazard.hazard}>{hazard.words}</li>
                ))}
              </ul>
            </>
          ) : null}
          {show.showAccess ? <Paragraphs text={show.showAccess} /> : null}
          {show.venueAccess ? <Paragraphs text={show.venueAccess} /> : null}
        </section>
      ) : null}

      <section className="show__section" aria-labelledby="show-when">
        <h2 id="show-when">{t("show.whenHeading")}</h2>
        {span ? (
          <>
            <p className="show__dates">
              {t("show.dates", {
                from: formatDate(span.first, show.timeZone, locale),
                to: formatDate(span.last, show.timeZone, locale),
              })}
            </p>
            <h3>{t("show.nextHeading")}</h3>
            <ul className="show__performances">
              {performances.map((performance) => (
                <li key={performance.id}>
                  <CalendarPerformance performance={performance} timeZone={show.timeZone} date="visible" />
                </li>
              ))}
            </ul>
            <p>
              <Link to={calendarHref} className="button">
                {t("show.calendarLink")}
              </Link>
            </p>
          </>
        ) : (
          <p className="empty-state">{t("show.empty")}</p>
        )}
      </section>

      <AccessNext performances={accessNext} allHref={accessHref} where={false} />
    </article>
  );
}
