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
