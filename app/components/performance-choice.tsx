import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { errorsForSummary, translateMessage } from "~/forms/checkout/messages";
import { formatDateTime } from "~/i18n/format";
import type { ListedPerformance } from "~/views/staff-performances";
import { ErrorSummary } from "./error-summary";
import { SelectField } from "./select-field";

// The staff's pages that work on one performance (issue 55: the door, house seats and comps) first
// ask for it with a GET form, so the page's address keeps the choice, then name it above their
// own form with a way back to the choice. `wording` is where each page's words for these are:
// performance, choosePerformance, performanceOption, noPerformances, chosen and change.

type Wording = "staff.door" | "staff.houseSeats";

/** The page before a performance is chosen: the GET form, its errors first, and the way home. */
export function PerformanceChoice({
  title,
  wording,
  performances,
  defaultValue,
  errors,
  fields = ["performance"],
  submit,
  children,
}: {
  title: string;
  wording: Wording;
  performances: ListedPerformance[];
  defaultValue: string;
  /** The GET form's errors by field, as wording keys (messages.ts). */
  errors: Readonly<Record<string, readonly string[] | undefined>>;
  /** The form's fields in their order, for the error summary: the performance, then the children's. */
  fields?: string[];
  submit: string;
  /** The form's other fields, after the performance. */
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const performanceError = errors.performance?.[0];
  return (
    <>
      <ErrorSummary errors={errorsForSummary(errors, fields, t)} />
      <h1>{title}</h1>
      {performances.length === 0 ? <p>{t(`${wording}.noPerformances`)}</p> : null}
      <Form method="get" noValidate>
        <SelectField
          className="field"
          id="performance"
          name="performance"
          label={t(`${wording}.performance`)}
          anyLabel={t(`${wording}.choosePerformance`)}
          options={performances.map((performance) => ({
            value: performance.id,
            label: t(`${wording}.performanceOption`, {
              show: performance.show,
              venue: performance.venue,
              when: formatDateTime(performance.startsAt, performance.timeZone, i18n.language),
            }),
          }))}
          defaultValue={defaultValue}
          error={performanceError ? translateMessage(performanceError, t) : undefined}
          errorPrefix={t("frame.errorPrefix")}
        />
        {children}
        <div className="form-actions">
          <button type="submit" className="button">
            {submit}
          </button>
        </div>
      </Form>
      <StaffHomeLink />
    </>
  );
}

/**
 * The choice of a performance on sale, for house seats and comps: the loader's answer from
 * salePerformanceChoice (~/web/staff-performances.server).
 */
export function SalePerformanceChoice({
  title,
  choice,
}: {
  title: string;
  choice: { performances: ListedPerformance[]; asked: string | null; performanceError: string | null };
}) {
  const { t } = useTranslation();
  return (
    <PerformanceChoice
      title={title}
      wording="staff.houseSeats"
      performances={choice.performances}
      defaultValue={choice.asked ?? ""}
      errors={choice.performanceError ? { performance: [choice.performanceError] } : {}}
      submit={t("staff.houseSeats.showSeats")}
    />
  );
}

/** The chosen performance named above the page's form, with the way back to the choice. */
export function ChosenPerformance({
  performance,
  wording,
  values,
  changeTo,
}: {
  performance: ListedPerformance;
  wording: Wording;
  /** Any other values the wording names (the door's name). */
  values?: Record<string, string>;
  changeTo: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <p>
      {t(`${wording}.chosen`, {
        show: performance.show,
        venue: performance.venue,
        when: formatDateTime(performance.startsAt, performance.timeZone, i18n.language),
        ...values,
      })}{" "}
      <Link to={changeTo}>{t(`${wording}.change`)}</Link>
    </p>
  );
}

/**
 * The way back to the staff's start page, at the foot of these pages. Here, not in a module of
 * its own, so that it costs them no chunk of their own (each a request and its imports' names).
 */
export function StaffHomeLink() {
  const { t } = useTranslation();
  return (
    <p>
      <Link to="/staff">{t("staff.home.back")}</Link>
    </p>
  );
}
