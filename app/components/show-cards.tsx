import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDateTime, formatMoney } from "~/i18n/format";
import type { ShowCardView, ThisWeekItem } from "~/views/show-list";
import { Picture } from "./picture";

/** A card is a quarter of a wide page, a half of a middling one, all of a phone's. */
const CARD_SIZES = "(min-width: 64em) 16rem, (min-width: 36em) 45vw, 90vw";

/**
 * The shows on sale as cards: poster, name, venue, the "from" price (all-in, the domain's), the
 * next dates and the way to book. `headingLevel` fits the names into the page's outline.
 */
export function ShowCards({ cards, headingLevel = 3 }: { cards: ShowCardView[]; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  if (cards.length === 0) return <p className="empty-state">{t("home.empty")}</p>;
  return (
    <ul className="show-cards">
      {cards.map((card, index) => (
        <li key={card.href} className="show-card">
          {card.poster ? (
            <Picture picture={card.poster} sizes={CARD_SIZES} className="show-card__poster" eager={index < 4} />
          ) : null}
          <div className="show-card__body">
            <Heading className="show-card__name">
              <Link to={card.href}>
                {card.name}
                <span className="visually-hidden">{t("showCards.at", { venue: card.venueName, city: card.city })}</span>
              </Link>
            </Heading>
            <p className="show-card__venue">
              {card.venueHref ? <Link to={card.venueHref}>{card.venueName}</Link> : card.venueName}, {card.city}
            </p>
            {card.fromPrice ? (
              <p className="show-card__price">
                {t("showCards.from", { price: formatMoney(card.fromPrice.amount, card.fromPrice.currency, locale) })}
              </p>
            ) : null}
            <p className="show-card__age">{t("show.ageGuidance", { age: card.ageGuidance })}</p>
            {card.nextDates.length ? (
              <>
                <p className="show-card__next-label">{t("showCards.next")}</p>
                <ul className="show-card__dates">
                  {card.nextDates.map((date) => (
                    <li key={date}>
                      <time dateTime={date}>{formatDateTime(date, card.timeZone, locale)}</time>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The performances of the coming seven days, earliest first, each a link to its show. */
export function ThisWeek({ items }: { items: ThisWeekItem[] }) {
  const { t, i18n } = useTranslation();
  if (items.length === 0) return null;
  return (
    <section className="this-week" aria-labelledby="this-week">
      <h2 id="this-week">{t("showCards.thisWeek")}</h2>
      <ul className="this-week__list">
        {items.map((item) => (
          <li key={item.id} className="this-week__item">
            <Link to={item.href}>
              <span className="this-week__name">{item.name}</span>{" "}
              <span className="this-week__where">{item.venueName}</span>{" "}
              <time className="this-week__when" dateTime={item.startsAt}>
                {formatDateTime(item.startsAt, item.timeZone, i18n.language)}
              </time>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Filters by venue and day: a GET form, so it works without script and its results can be linked to. */
export function ShowFilters({
  venues,
  venue,
  day,
}: {
  venues: { slug: string; name: string }[] | null;
  venue: string;
  day: string;
}) {
  const { t } = useTranslation();
  return (
    <Form method="get" className="show-filters" aria-labelledby="show-filters">
      <h2 id="show-filters" className="show-filters__title">
        {t("showCards.filters")}
      </h2>
      {venues ? (
        <div className="field show-filters__field">
          <label htmlFor="filter-venue">{t("showCards.venue")}</label>
          <select id="filter-venue" name="venue" defaultValue={venue}>
            <option value="">{t("showCards.anyVenue")}</option>
            {venues.map((entry) => (
              <option key={entry.slug} value={entry.slug}>
                {entry.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="field show-filters__field">
        <label htmlFor="filter-date">{t("showCards.date")}</label>
        <input id="filter-date" type="date" name="date" defaultValue={day} />
      </div>
      <button type="submit" className="button show-filters__submit">
        {t("showCards.apply")}
      </button>
    </Form>
  );
}
