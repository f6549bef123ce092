/**
 * A labelled select whose first option means "no preference" (any price, anywhere): the filter
 * and search forms' fields.
 */
export function SelectField({
  id,
  name,
  label,
  anyLabel,
  options,
  defaultValue,
  className,
}: {
  id: string;
  name: string;
  label: string;
  anyLabel: string;
  options: { value: string | number; label: string }[];
  defaultValue?: string | number;
  className: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={defaultValue ?? ""}>
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
