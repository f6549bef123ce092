/**
 * A labelled select whose first option means "no preference" (any price, anywhere): the filter
 * and search forms' fields. With a hint or an error (form-fields.tsx's SelectInput) the select is
 * described by them; its first option then means "not chosen yet".
 */
export function SelectField({
  id,
  name,
  label,
  anyLabel,
  options,
  defaultValue,
  className,
  hint,
  error,
  errorPrefix,
  autoComplete,
}: {
  id: string;
  name: string;
  label: string;
  anyLabel: string;
  options: { value: string | number; label: string }[];
  defaultValue?: string | number;
  className: string;
  hint?: string;
  /** The error, already worded for the buyer. */
  error?: string;
  /** Said before the error to screen reader users ("Error: "), not shown. */
  errorPrefix?: string;
  autoComplete?: string;
}) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={errorId}>
          {errorPrefix ? <span className="visually-hidden">{errorPrefix}</span> : null}
          {error}
        </p>
      ) : null}
      <select
        id={id}
        name={name}
        defaultValue={defaultValue ?? ""}
        autoComplete={autoComplete}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
      >
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The price range and part-of-house fields that the calendar filter, the seat map filter and best
 * available share: "from" and "to" over the same prices, then where in the house.
 */
export function PriceAndSectionFields({
  idPrefix,
  className,
  names,
  labels,
  prices,
  sections,
  values = {},
}: {
  idPrefix: string;
  className: string;
  names: { minPrice: string; maxPrice: string; section: string };
  labels: { from: string; to: string; anyPrice: string; section: string; anySection: string };
  prices: { value: number; label: string }[];
  sections: { id: string; name: string }[];
  values?: { minPrice?: number; maxPrice?: number; sectionId?: string };
}) {
  return (
    <>
      <SelectField
        className={className}
        id={`${idPrefix}-min-price`}
        name={names.minPrice}
        label={labels.from}
        anyLabel={labels.anyPrice}
        options={prices}
        defaultValue={values.minPrice}
      />
      <SelectField
        className={className}
        id={`${idPrefix}-max-price`}
        name={names.maxPrice}
        label={labels.to}
        anyLabel={labels.anyPrice}
        options={prices}
        defaultValue={values.maxPrice}
      />
      <SelectField
        className={className}
        id={`${idPrefix}-section`}
        name={names.section}
        label={labels.section}
        anyLabel={labels.anySection}
        options={sections.map((section) => ({ value: section.id, label: section.name }))}
        defaultValue={values.sectionId}
      />
    </>
  );
}
