import { useTranslation } from "react-i18next";
import { Paragraphs, VenueAddress } from "./venue-visit";

/** What an order's pages say about the performance's venue, as `orderView` gives it. */
export interface OrderVisitView {
  lines: string[];
  travel: string | null;
  calendarPath: string | null;
}

/**
 * After paying (issue 56 item 6): the venue's address with its map link, the catalogue's way
 * there, and the performance as a calendar entry. On the confirmation and the e-tickets only, so
 * none of it weighs on the checkout's pages.
 */
export function OrderVisit({
  venueName,
  showName,
  visit,
}: {
  venueName: string;
  showName: string;
  visit: OrderVisitView;
}) {
  const { t } = useTranslation();
  return (
    <section className="order-visit" aria-labelledby="order-visit-heading">
      <h2 id="order-visit-heading">{t("orderVisit.heading")}</h2>
      <VenueAddress name={venueName} lines={visit.lines} />
      {visit.travel ? <Paragraphs text={visit.travel} /> : null}
      {visit.calendarPath ? (
        <p>
          {/* A file, not a page: the browser hands it to the calendar app (no client-side routing). */}
          <a href={visit.calendarPath} type="text/calendar">
            {t("orderVisit.calendar", { show: showName })}
          </a>
        </p>
      ) : null}
    </section>
  );
}
