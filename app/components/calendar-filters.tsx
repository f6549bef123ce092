import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "~/i18n/format";
import { ACCESS_SERVICES, accessServiceKey, type AccessService } from "~/views/access-services";
import { PriceAndSectionFields } from "./select-field";

export interface CalendarFilterValues {
  quantity?: number;
  sectionId?: string;
  minPrice?: number;
  maxPrice?: number;
  /** Only performances with this access service. */
  access?: AccessService;
}

export interface CalendarFilterOptions {
  prices: number[];
  sections: { id: string; name: string }[];
  maxSeats: number;
  currency: string;
  /** The venue's: which sign language its signed performances are. */
  country?: string;
}

/**
 * The calendar's filters as a GET form: it works without script (the page reloads with the
 * choices in its address, so it can be bookmarked and shared) and with it (Remix navigates).
 */
export function CalendarFilters({
  action,
  values,
  options,
  active,
  clearHref,
}: {
  action: string;
  values: CalendarFilterValues;
  options: CalendarFilterOptions;
  active: boolean;
  clearHref: string;
}) {
  const { t, i18n } = useTranslation();
  const money = (amount: number) => formatMoney(amount, options.currency, i18n.language);
  const prices = options.prices.map((price) => ({ value: price, label: money(price) }));
  // Keyed by the values, so the choices follow the address when a link (Clear, a month) changes it.
  const key = JSON.stringify(values);
  return (
    <Form method="get" action={action} className="calendar-filters" key={key}>
      <fieldset className="calendar-filters__fieldset">
        <legend className="calendar-filters__legend">{t("calendar.filter.legend")}</legend>
        <div className="calendar-filters__fields">
          <div className="calendar-filters__field">
            <label htmlFor="calendar-seats">{t("calendar.filter.seats")}</label>
            <select id="calendar-seats" name="seats" defaultValue={values.quantity ?? 1}>
              {Array.from({ length: options.maxSeats }, (_, index) => (
                <option key={index + 1} value={index + 1}>
                  {index + 1}
                </option>
              ))}
            </select>
          </div>
          <PriceAndSectionFields
            idPrefix="calendar"
            className="calendar-filters__field"
            names={{ minPrice: "from", maxPrice: "to", section: "section" }}
            labels={{
              from: t("calendar.filter.from"),
              to: t("calendar.filter.to"),
              anyPrice: t("calendar.filter.anyPrice"),
              section: t("calendar.filter.section"),
              anySection: t("calendar.filter.allSections"),
            }}
            prices={prices}
            sections={options.sections}
            values={values}
          />
          <div className="calendar-filters__field">
            <label htmlFor="calendar-access">{t("calendar.filter.access")}</label>
            <select id="calendar-access" name="access" defaultValue={values.access ?? ""}>
              <option value="">{t("calendar.filter.anyAccess")}</option>
              {ACCESS_SERVICES.map((service) => (
                <option key={service} value={service}>
                  {t(accessServiceKey(service, options.country))}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="calendar-filters__actions">
          <button type="submit" className="button">
            {t("calendar.filter.submit")}
          </button>
          {active ? (
            <Link to={clearHref} className="calendar-filters__clear">
              {t("calendar.filter.clear")}
            </Link>
          ) : null}
        </div>
      </fieldset>
    </Form>
  );
}

/** The filter in words: "Showing availability for 2 seats in the Stalls from £20.00 to £60.00". */
export function filterSummary(
  t: (key: string, options?: Record<string, unknown>) => string,
  values: CalendarFilterValues,
  sectionName: string | undefined,
  money: (amount: number) => string,
  country?: string,
): string {
  const parts = [t("calendar.filter.summarySeats", { count: values.quantity ?? 1 })];
  if (sectionName) parts.push(t("calendar.filter.summarySection", { section: sectionName }));
  if (values.minPrice !== undefined && values.maxPrice !== undefined)
    parts.push(t("calendar.filter.summaryFromTo", { from: money(values.minPrice), to: money(values.maxPrice) }));
  else if (values.minPrice !== undefined)
    parts.push(t("calendar.filter.summaryFrom", { from: money(values.minPrice) }));
  else if (values.maxPrice !== undefined) parts.push(t("calendar.filter.summaryTo", { to: money(values.maxPrice) }));
  const summary = t("calendar.filter.summary", { detail: parts.join(" ") });
  return values.access
    ? `${summary}. ${t("calendar.filter.summaryAccess", { service: t(accessServiceKey(values.access, country)) })}`
    : summary;
}
