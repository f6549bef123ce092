import type { InputHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { translateMessage } from "~/forms/checkout/messages";
import { SelectField } from "./select-field";

// The checkout's form fields, in the GOV.UK pattern: label, hint, error, then the control, which
// is described by the hint and the error. They work the same without script: the server's reply
// (Conform's lastResult) gives each field its errors and the buyer's own text back. No `required`
// or `pattern`: the browser's bubbles would word errors differently from the server, which words
// every one (PostForm also sets noValidate).
//
// Every control's id is its field's name, so the error summary (errorsForSummary) can link to it
// knowing only the name; a radio group's first radio takes the name.

/**
 * What a field needs: Conform's field metadata fits as it is, and a plain object does too.
 * `defaultValue` is what the buyer sent last (or what was saved); `errors` are message keys.
 */
export interface FieldLike {
  name: string;
  /** Conform's key: a new one remounts the control, so a reset form shows its new defaults. */
  key?: string | undefined;
  defaultValue?: string | undefined;
  defaultChecked?: boolean | undefined;
  errors?: readonly string[] | undefined;
}

type AutoComplete = InputHTMLAttributes<HTMLInputElement>["autoComplete"];

/** Never written back into the page, whatever the caller asks: a no-script retry types them again. */
const NEVER_KEPT = new Set<AutoComplete>(["cc-number", "cc-csc", "current-password", "new-password"]);

function useFieldError(field: FieldLike): string | undefined {
  const { t } = useTranslation();
  const first = field.errors?.[0];
  return first ? translateMessage(first, t) : undefined;
}

function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  return ids.filter(Boolean).join(" ") || undefined;
}

function ErrorMessage({ id, text }: { id: string; text: string }) {
  const { t } = useTranslation();
  return (
    <p className="field-error" id={id}>
      <span className="visually-hidden">{t("frame.errorPrefix")}</span>
      {text}
    </p>
  );
}

export function TextField({
  field,
  label,
  hint,
  id = field.name,
  type = "text",
  autoComplete,
  inputMode,
  keepValue = true,
  spellCheck,
}: {
  field: FieldLike;
  label: string;
  hint?: string;
  id?: string;
  type?: "text" | "email" | "tel" | "password";
  autoComplete?: AutoComplete;
  inputMode?: InputHTMLAttributes<HTMLInputElement>["inputMode"];
  /** False for what must not come back into the page (card number and CVV never do). */
  keepValue?: boolean;
  spellCheck?: boolean;
}) {
  const error = useFieldError(field);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const keep = keepValue && !NEVER_KEPT.has(autoComplete);
  return (
    <div className={error ? "field field--error" : "field"}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? <ErrorMessage id={errorId} text={error} /> : null}
      <input
        key={field.key}
        id={id}
        name={field.name}
        type={type}
        defaultValue={keep ? field.defaultValue : undefined}
        autoComplete={autoComplete}
        inputMode={inputMode}
        spellCheck={spellCheck ?? (type === "email" ? false : undefined)}
        aria-describedby={describedBy(hint && hintId, error && errorId)}
        aria-invalid={error ? true : undefined}
      />
    </div>
  );
}

export interface RadioOption {
  value: string;
  label: string;
  hint?: string;
}

/**
 * One answer from a few: a fieldset whose legend is the question. The hint and the error describe
 * the fieldset, so they are read once on entering the group, not with every radio.
 */
export function RadioGroup({
  field,
  legend,
  labelledBy,
  hint,
  id = field.name,
  options,
}: {
  field: FieldLike;
  legend?: string;
  /**
   * The id of the page's heading when it already asks the question: the group is named by it and
   * has no legend of its own, so the question is read once (a hidden legend is still read by text
   * browsers, which show no styles).
   */
  labelledBy?: string;
  hint?: string;
  id?: string;
  options: RadioOption[];
}) {
  const error = useFieldError(field);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={error ? "field field--error" : "field"}>
      <fieldset
        key={field.key}
        className="radios"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy(hint && hintId, error && errorId)}
      >
        {labelledBy ? null : <legend>{legend}</legend>}
        {hint ? (
          <p className="hint" id={hintId}>
            {hint}
          </p>
        ) : null}
        {error ? <ErrorMessage id={errorId} text={error} /> : null}
        {options.map((option, index) => {
          const optionId = index === 0 ? id : `${id}-${index + 1}`;
          const optionHintId = `${optionId}-hint`;
          return (
            <div key={option.value} className="checkbox radio">
              <input
                id={optionId}
                type="radio"
                name={field.name}
                value={option.value}
                defaultChecked={field.defaultValue === option.value}
                aria-describedby={option.hint ? optionHintId : undefined}
              />
              <div>
                <label htmlFor={optionId}>{option.label}</label>
                {option.hint ? (
                  <p className="hint" id={optionHintId}>
                    {option.hint}
                  </p>
                ) : null}
              </div>
            </div>
          );
        })}
      </fieldset>
    </div>
  );
}

/** A single checkbox, sent as "on" when ticked and not at all when not. */
export function CheckboxField({
  field,
  label,
  hint,
  id = field.name,
}: {
  field: FieldLike;
  label: string;
  hint?: string;
  id?: string;
}) {
  const error = useFieldError(field);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className={error ? "field field--error" : "field"}>
      {error ? <ErrorMessage id={errorId} text={error} /> : null}
      <div className="checkbox">
        <input
          key={field.key}
          id={id}
          type="checkbox"
          name={field.name}
          value="on"
          defaultChecked={field.defaultChecked ?? field.defaultValue === "on"}
          aria-describedby={describedBy(hint && hintId, error && errorId)}
          aria-invalid={error ? true : undefined}
        />
        <div>
          <label htmlFor={id}>{label}</label>
          {hint ? (
            <p className="hint" id={hintId}>
              {hint}
            </p>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** A choice from a longer list (a US state): SelectField, with the field's error and value. */
export function SelectInput({
  field,
  label,
  placeholder,
  options,
  hint,
  id = field.name,
  autoComplete,
}: {
  field: FieldLike;
  label: string;
  /** The first option, chosen until the buyer picks one ("Choose a state"). */
  placeholder: string;
  options: { value: string; label: string }[];
  hint?: string;
  id?: string;
  autoComplete?: string;
}) {
  const { t } = useTranslation();
  const error = useFieldError(field);
  return (
    <SelectField
      key={field.key}
      className={error ? "field field--error" : "field"}
      id={id}
      name={field.name}
      label={label}
      anyLabel={placeholder}
      options={options}
      defaultValue={field.defaultValue}
      hint={hint}
      error={error}
      errorPrefix={t("frame.errorPrefix")}
      autoComplete={autoComplete}
    />
  );
}

/**
 * A password being chosen (registering, resetting, an account after purchase): the same rules
 * hint everywhere, and the browser's password manager may suggest one.
 */
export function NewPasswordField({ field, label }: { field: FieldLike; label: string }) {
  const { t } = useTranslation();
  return (
    <TextField
      field={field}
      label={label}
      hint={t("account.passwordHint")}
      type="password"
      autoComplete="new-password"
    />
  );
}
