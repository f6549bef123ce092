import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { venueDay } from "~/urls/venue-days";
import { useTranslation } from "react-i18next";
import { CalendarPerformance, type CalendarPerformanceView } from "~/components/calendar-performance";
import { formatDate } from "~/i18n/format";
import { calendarPath, showPath, ticketsPath, venuePath } from "~/urls/paths";
import { eventListings, showShareCard } from "~/use-cases/structured-data.server";
import { StructuredData } from "~/components/structured-data";
import { shareTags } from "~/components/share-card";
import { showFromParams } from "~/web/show-params.server";
import { bookable, offersTickets, saleState } from "~/ticketing/sale-window";
import { buyerEntitlements } from "~/ticketing/entitlements.server";
import { membershipOf, readBuyer } from "~/web/buyer.server";
import { track } from "~/web/track.server";
import { venuePhoneHandle } from "~/components/venue-phone-handle";

export const meta: MetaFunction<typeof loader> = ({ data }) => shareTags(data?.share);

export const handle = {
  title: (data: { show?: { name: string } } | undefined) => data?.show?.name,
  keptPage: true,
  ...venuePhoneHandle,
};

const NEXT_PERFORMANCES = 5;

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
    const [span, next] = await Promise.all([
      context.catalogue.runSpan(show.runId, now),
      context.catalogue.nextPerformances(show.runId, now, NEXT_PERFORMANCES),
    ]);
    const availability = await context.availability.summary(next.map((performance) => performance.id));
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
      };
    });
    const structuredData = await eventListings(
      context,
      show,
      next.map((performance) => ({
        ...performance,
        level: availability.get(performance.id)?.level ?? "soldOut",
      })),
    );
    const page = {
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
      },
      // Venue pages exist in the default routing mode only.
      venueHref: mode === "DEFAULT" ? venuePath(show.venueSlug) : null,
      venuePhone: show.venuePhone,
      span: span ? { first: span.first, last: span.last } : null,
      performances,
      calendarHref: calendarPath(mode, show.slug, show.venueSlug),
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
  const { show, venueHref, span, performances, calendarHref, structuredData } = useLoaderData<typeof loader>();
  const locale = i18n.language;
  return (
    <article className="show">
      {structuredData.length > 0 ? <StructuredData data={structuredData} /> : null}
      <h1>{show.name}</h1>
      <p className="show__where">{t("show.at", { venue: show.venueName, city: show.city })}</p>
      <p>{show.description}</p>
      <dl className="show__facts">
        <dt>{t("show.ageGuidanceLabel")}</dt>
        <dd>{show.ageGuidance}</dd>
        <dt>{t("show.runningTimeLabel")}</dt>
        <dd>{t("show.runningTime", { count: show.runningTimeMinutes })}</dd>
      </dl>

      <section className="show__section" aria-labelledby="show-where">
        <h2 id="show-where">{t("show.whereHeading")}</h2>
        <address className="venue-address">
          {venueHref ? <Link to={venueHref}>{show.venueName}</Link> : show.venueName}
          {[...show.addressLines, [show.city, show.region, show.postcode].filter(Boolean).join(" ")].map((line) => (
            <span key={line}>
              <br />
              {line}
            </span>
          ))}
        </address>
      </section>

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
    </article>
  );
}
