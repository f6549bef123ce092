import { useTranslation } from "react-i18next";
import type { SeatChoice, SeatChoices } from "~/views/house-seats";

// A performance's seats as checkboxes, without script (issue 55 item 5): a fieldset for each part
// of the house and each row, so a screen reader says "Stalls, Row B, Seat 4". Seats that cannot be
// chosen are shown, disabled, with why, so the rows read as the house does.

export function SeatCheckboxes({
  choices,
  name,
  legend,
  hint,
  error,
  selectable,
  labelOf,
  checked,
}: {
  choices: SeatChoices;
  name: string;
  legend: string;
  hint: string;
  /** The error, already worded. */
  error?: string;
  selectable: (seat: SeatChoice) => boolean;
  labelOf: (seat: SeatChoice) => string;
  /** What was checked when the form came back with an error. */
  checked: ReadonlySet<number>;
}) {
  const { t } = useTranslation();
  const hintId = `${name}-hint`;
  const errorId = `${name}-error`;
  return (
    <fieldset
      id={name}
      className={error ? "field field--error seat-checkboxes" : "field seat-checkboxes"}
      aria-describedby={[hintId, error && errorId].filter(Boolean).join(" ")}
    >
      <legend>{legend}</legend>
      <p className="hint" id={hintId}>
        {hint}
      </p>
      {error ? (
        <p className="field-error" id={errorId}>
          <span className="visually-hidden">{t("frame.errorPrefix")}</span>
          {error}
        </p>
      ) : null}
      {choices.sections.map((section) => (
        <fieldset key={section.sectionId} className="seat-checkboxes__section">
          <legend>{section.name}</legend>
          {section.rows.map((row) => (
            <fieldset key={row.row} className="seat-checkboxes__row" data-row={`${section.name} ${row.row}`}>
              <legend>{t("staff.houseSeats.row", { row: row.row })}</legend>
              <ul className="seat-checkboxes__seats">
                {row.seats.map((seat) => {
                  const id = `${name}-${seat.seatId}`;
                  const enabled = selectable(seat);
                  return (
                    <li key={seat.seatId} className="checkbox">
                      <input
                        type="checkbox"
                        id={id}
                        name={name}
                        value={seat.seatId}
                        disabled={!enabled}
                        defaultChecked={enabled && checked.has(seat.seatId)}
                      />
                      <label htmlFor={id}>{labelOf(seat)}</label>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          ))}
        </fieldset>
      ))}
    </fieldset>
  );
}
