import { useTranslation } from "react-i18next";

import { formatMoney } from "~/i18n/format";
import type { FieldErrors, TicketsView } from "~/views/ticket-choices";

/** "Stalls, row F, seat 12" or "Standing floor × 3". */
export function useTicketName() {
  const { t } = useTranslation();
  return (line: TicketsView["lines"][number]) =>
    line.seat
      ? t("tickets.seatName", { section: line.section, row: line.row, seat: line.seat })
      : t("tickets.standingName", { area: line.section, count: line.quantity });
}

/**
 * The buyer's tickets with a price option each (Full Price unless they choose otherwise) and the
 * acknowledgements the performance asks for. Fields only: the page supplies the form and buttons.
 */
export function TicketChoices({ view, errors = {} }: { view: TicketsView; errors?: FieldErrors }) {
  const { t, i18n } = useTranslation();
  const name = useTicketName();
  const money = (amount: number) => formatMoney(amount, view.currency, i18n.language);
  return (
    <>
      <table className="ticket-table">
        <caption className="visually-hidden">{t("tickets.yourTickets")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("tickets.ticket")}</th>
            <th scope="col">{t("tickets.priceType")}</th>
            <th scope="col" className="ticket-table__amount">
              {t("tickets.price")}
            </th>
          </tr>
        </thead>
        <tbody>
          {view.lines.map((line) => (
            <tr key={line.field}>
              <th scope="row">
                {name(line)}
                {line.marks.map((mark) => (
                  <span key={mark} className={`seat-mark seat-mark--${mark}`}>
                    {" "}
                    {t(`tickets.marks.${mark}`)}
                  </span>
                ))}
                {line.viewNote ? <span className="ticket-table__note"> {line.viewNote}</span> : null}
              </th>
              <td>
                {line.options.length > 1 ? (
                  <>
                    <label className="visually-hidden" htmlFor={line.field}>
                      {t("tickets.priceTypeFor", { ticket: name(line) })}
                    </label>
                    <select
                      id={line.field}
                      name={line.field}
                      defaultValue={line.priceOptionId}
                      aria-describedby={errors[line.field] ? `${line.field}-error` : undefined}
                      aria-invalid={errors[line.field] ? true : undefined}
                    >
                      {line.options.map((option) => (
                        <option key={option.id} value={option.id}>
                          {t("tickets.optionWithPrice", { label: option.label, price: money(option.amount) })}
                        </option>
                      ))}
                    </select>
                    {errors[line.field] ? (
                      <p id={`${line.field}-error`} className="field-error">
                        {t(errors[line.field]!.key)}
                      </p>
                    ) : null}
                  </>
                ) : (
                  (line.options[0]?.label ?? t("tickets.fullPrice"))
                )}
              </td>
              <td className="ticket-table__amount">{money(line.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {view.transactionFee ? (
            <tr>
              <th scope="row" colSpan={2}>
                {t("tickets.transactionFee")}
                {view.transactionFee.waived ? (
                  <span className="ticket-table__note"> {t("tickets.transactionFeeWaived")}</span>
                ) : null}
              </th>
              <td className="ticket-table__amount">{money(view.transactionFee.amount)}</td>
            </tr>
          ) : null}
          <tr>
            <th scope="row" colSpan={2}>
              {t("tickets.total")}
            </th>
            <td className="ticket-table__amount">{money(view.total)}</td>
          </tr>
        </tfoot>
      </table>
      {view.notice ? (
        <Acknowledgement
          name="ackNotice"
          heading={t("tickets.noticeHeading")}
          text={view.notice}
          label={t("tickets.noticeAck")}
          error={errors.ackNotice ? t(errors.ackNotice.key) : undefined}
        />
      ) : null}
      {view.admissionMessage ? (
        <Acknowledgement
          name="ackAdmission"
          heading={t("tickets.admissionHeading")}
          text={view.admissionMessage}
          label={t("tickets.admissionAck")}
          error={errors.ackAdmission ? t(errors.ackAdmission.key) : undefined}
        />
      ) : null}
    </>
  );
}

function Acknowledgement({
  name,
  heading,
  text,
  label,
  error,
}: {
  name: string;
  heading: string;
  text: string;
  label: string;
  error?: string;
}) {
  return (
    <fieldset className={`acknowledgement${error ? " acknowledgement--error" : ""}`}>
      <legend>{heading}</legend>
      <p>{text}</p>
      {error ? (
        <p id={`${name}-error`} className="field-error">
          {error}
        </p>
      ) : null}
      <div className="checkbox">
        <input
          type="checkbox"
          id={name}
          name={name}
          value="yes"
          aria-describedby={error ? `${name}-error` : undefined}
          aria-invalid={error ? true : undefined}
        />
        <label htmlFor={name}>{label}</label>
      </div>
    </fieldset>
  );
}
