import type { ReactNode } from "react";
import { Link, isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { SummaryView } from "~/views/summary";
import { ErrorExplanation, errorKind } from "./error-page";
import { ErrorSummary } from "./error-summary";
import { formatMoney } from "~/i18n/format";
import { PostForm } from "./post-form";
import type { SummaryError } from "~/views/errors";
import type { StepFrame } from "~/views/checkout-step";
import { checkoutPath } from "~/urls/paths";

/**
 * A comma between a row's parts that only a reader of the words meets: a text browser, which shows
 * no styles, and a screen reader would otherwise run "seat 14", "Full Price" and "£41.00" together.
 */
const Separator = () => <span className="visually-hidden">, </span>;

/** The itemised order: the engine's lines, the vouchers used, what is left to pay. */
export function BasketSummary({ summary, heading = "h2" }: { summary: SummaryView; heading?: "h2" | "h3" }) {
  const { t, i18n } = useTranslation();
  const money = (amount: number) => formatMoney(amount, summary.currency, i18n.language);
  const Heading = heading;
  return (
    <section className="basket-summary" aria-labelledby="basket-summary-title">
      <Heading id="basket-summary-title">{t("summary.title")}</Heading>
      <table className="ticket-table">
        <caption className="visually-hidden">{t("summary.title")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("summary.item")}</th>
            <th scope="col" className="ticket-table__amount">
              {t("summary.amount")}
            </th>
          </tr>
        </thead>
        <tbody>
          {summary.lines.map((line) => (
            <tr key={line.id}>
              <th scope="row">
                {t(line.label.key, line.label.values)}
                {line.note ? (
                  <>
                    <Separator />
                    <span className="ticket-table__note">{t(line.note.key, line.note.values)}</span>
                  </>
                ) : null}
                <Separator />
              </th>
              <td className="ticket-table__amount">{money(line.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">
              {t("summary.total")}
              <Separator />
            </th>
            <td className="ticket-table__amount">{money(summary.total)}</td>
          </tr>
          {summary.vouchers.map((voucher) => (
            <tr key={voucher.id}>
              <th scope="row">
                {t(voucher.label.key, voucher.label.values)}
                <Separator />
                <span className="ticket-table__note">
                  {t("summary.remaining", { amount: money(voucher.remaining) })}
                </span>
                <Separator />
              </th>
              <td className="ticket-table__amount">{money(-voucher.amount)}</td>
            </tr>
          ))}
          {summary.vouchers.length > 0 ? (
            <tr>
              <th scope="row">
                {t("summary.toPay")}
                <Separator />
              </th>
              <td className="ticket-table__amount">{money(summary.toPay)}</td>
            </tr>
          ) : null}
        </tfoot>
      </table>
    </section>
  );
}

/** The price-change alert: shown until the buyer says they have seen the new prices. */
export function PriceChangeAlert() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <div className="message message--error" role="alert">
      <h2>{t("summary.priceChangedTitle")}</h2>
      <p>{t("summary.priceChangedBody")}</p>
      <PostForm action={checkoutPath("hold")}>
        <input type="hidden" name="returnTo" value={location.pathname} />
        <input type="hidden" name="intent" value="acknowledge-prices" />
        <button type="submit" className="button">
          {t("summary.priceChangedAcknowledge")}
        </button>
      </PostForm>
    </div>
  );
}

/**
 * One checkout step's page: "Error: " title handling is the root's (handle.titleKey plus the
 * error flag), the error summary first, the progress list, the step's content, the summary.
 *
 * With `summaryFirst` (the payment page) the order summary comes before the step's forms in the
 * source, so on a phone, where the page is one column, the buyer reads what they are paying for
 * before Pay, and so does a screen reader or a browser without CSS, which follow the source, not
 * the drawing: a CSS `order` would have put it first for the eye alone. On wide screens the grid
 * still draws it in the right-hand column; it holds no control, so the tab order is the same.
 */
export function CheckoutStep({
  title,
  frame,
  errors = [],
  summaryFirst = false,
  children,
}: {
  title: string;
  frame: StepFrame;
  errors?: SummaryError[];
  summaryFirst?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const summary = (
    <aside className="checkout-step__summary">
      <BasketSummary summary={frame.summary} />
    </aside>
  );
  return (
    <div className="checkout-step">
      <ErrorSummary errors={errors} />
      <nav aria-label={t("steps.progress")} className="checkout-progress">
        <ol>
          {frame.steps.map((step) => (
            <li key={step.name} className={step.done ? "checkout-progress__done" : undefined}>
              {t(`checkout.steps.${step.name}`)}
              {step.done ? <span className="visually-hidden"> ({t("steps.done")})</span> : null}
            </li>
          ))}
        </ol>
      </nav>
      <h1>{title}</h1>
      {frame.priceChanged ? <PriceChangeAlert /> : null}
      <div className={summaryFirst ? "checkout-step__body checkout-step__body--summary-first" : "checkout-step__body"}>
        {summaryFirst ? summary : null}
        <div className="checkout-step__main">{children}</div>
        {summaryFirst ? null : summary}
      </div>
    </div>
  );
}

const isEmptyCheckout = (error: unknown) => isRouteErrorResponse(error) && error.status === 404;

/** The heading (and so the title) of a step's error page: see CheckoutStepBoundary. */
export const stepErrorTitleKey = (error: unknown) =>
  isEmptyCheckout(error) ? "checkout.title" : `errors.${errorKind(error)}.title`;

/**
 * Any step's page when there is nothing to check out (the guard's 404), a form was refused (an
 * expired form, cookies refused: each says what happened and what to do), or something failed.
 */
export function CheckoutStepBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  const empty = isEmptyCheckout(error);
  return (
    <div className="checkout-step">
      <h1>{t(stepErrorTitleKey(error))}</h1>
      {empty ? (
        <p className="empty-state">{t("checkout.emptyBasket")}</p>
      ) : (
        <ErrorExplanation kind={errorKind(error)} />
      )}
      <p>
        <Link to="/">{t("checkout.browseLink")}</Link>
      </p>
    </div>
  );
}

/** A step form's one button: the buyer moves on (the action sends them to the next step that applies). */
export function ContinueButton() {
  const { t } = useTranslation();
  return (
    <div className="form-actions">
      <button type="submit" className="button">
        {t("steps.continue")}
      </button>
    </div>
  );
}
