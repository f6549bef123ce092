import { useTranslation } from "react-i18next";
import { US_STATES } from "~/forms/checkout/us-states";
import { SelectInput, TextField, type FieldLike } from "./form-fields";

/** The address fields a form shares with others: a UK postcode, or a US state and ZIP code. */
export interface AddressFieldSet {
  addressLine1: FieldLike;
  addressLine2: FieldLike;
  city: FieldLike;
  state: FieldLike;
  zip: FieldLike;
  postcode: FieldLike;
}

/**
 * A postal address in the deployment's country, as the contact step and Manage details both ask
 * for it: the country is said, not asked (post goes within the country only).
 */
export function AddressFields({
  fields,
  country,
  legend,
  hint,
}: {
  fields: AddressFieldSet;
  country: "GB" | "US";
  legend: string;
  hint: string;
}) {
  const { t } = useTranslation();
  const us = country === "US";
  return (
    <fieldset className="address" aria-describedby="address-hint">
      <legend>{legend}</legend>
      <p className="hint" id="address-hint">
        {hint}
      </p>
      <TextField field={fields.addressLine1} label={t("contacts.addressLine1")} autoComplete="address-line1" />
      <TextField field={fields.addressLine2} label={t("contacts.addressLine2")} autoComplete="address-line2" />
      <TextField field={fields.city} label={t("contacts.city")} autoComplete="address-level2" />
      {us ? (
        <>
          <SelectInput
            field={fields.state}
            label={t("contacts.state")}
            placeholder={t("contacts.chooseState")}
            options={US_STATES.map((state) => ({ value: state.code, label: state.name }))}
            autoComplete="address-level1"
          />
          <TextField field={fields.zip} label={t("contacts.zip")} autoComplete="postal-code" inputMode="numeric" />
        </>
      ) : (
        <TextField field={fields.postcode} label={t("contacts.postcode")} autoComplete="postal-code" />
      )}
      <p>
        {t("contacts.country")}: {t(us ? "contacts.countryUS" : "contacts.countryGB")}
      </p>
    </fieldset>
  );
}
