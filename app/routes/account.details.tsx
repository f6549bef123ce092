import { data, redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { useTranslation } from "react-i18next";
import { DETAILS_FIELDS, DETAILS_SAVED_PATH, detailsSchema } from "~/accounts/forms";
import { requireCustomer } from "~/accounts/session.server";
import { errorsForSummary, US_STATES, type Country } from "~/checkout/forms";
import { ErrorSummary } from "~/components/error-summary";
import { CheckboxField, SelectInput, TextField } from "~/components/form-fields";
import { PostForm } from "~/components/post-form";

// Manage details: the name, phone, saved delivery address and contact consent a customer keeps
// with their account, which the checkout fills in for them. The email is how they sign in, so it
// is shown here but not changed here.

export const handle = { titleKey: "account.details.title" };

/**
 * The deployment's country, where a saved address may be: its venue's in the single-venue modes,
 * otherwise the one its language is for (the UK version posts, the US version mails).
 */
async function deploymentCountry(context: AppLoadContext): Promise<Country> {
  const venue = context.config.venueSlug ? await context.catalogue.venue(context.config.venueSlug) : undefined;
  return venue?.country ?? (context.config.language === "en-US" ? "US" : "GB");
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const customer = await requireCustomer(request, context);
  const [profile, country] = await Promise.all([context.customers.profile(customer.id), deploymentCountry(context)]);
  if (!profile) throw new Response(null, { status: 404 });
  const address = profile.address;
  return {
    email: profile.email,
    country,
    saved: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      phone: profile.phone ?? undefined,
      addressLine1: address?.line1,
      addressLine2: address?.line2,
      city: address?.city,
      state: address?.state ?? undefined,
      postcode: address?.postcode,
      zip: address?.postcode,
      contactConsent: profile.contactConsent ? "on" : undefined,
    },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const customer = await requireCustomer(request, context);
  const submission = parseWithZod(await request.formData(), {
    schema: detailsSchema(await deploymentCountry(context)),
  });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  let saved = false;
  try {
    saved = await context.customers.updateProfile(customer.id, submission.value);
    if (!saved) context.logger.warn({ customerId: customer.id }, "customer details not saved: no such customer");
  } catch (error) {
    context.logger.error({ err: error, customerId: customer.id }, "customer details not saved");
  }
  // What was typed stays in the form (the reply carries it), so nothing is lost by trying again.
  if (!saved) return data(submission.reply({ formErrors: ["account.details.notSaved"] }), { status: 500 });
  return redirect(DETAILS_SAVED_PATH, 303);
}

export default function ManageDetails() {
  const { t } = useTranslation();
  const { email, country, saved } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  // As useSchemaForm, with the saved details as the starting values.
  const [form, fields] = useForm({
    lastResult,
    defaultValue: saved,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: detailsSchema(country) }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const us = country === "US";
  return (
    <>
      <ErrorSummary errors={errorsForSummary(form.allErrors, DETAILS_FIELDS, t)} />
      <h1>{t("account.details.title")}</h1>
      <dl className="order-facts">
        <dt>{t("account.email")}</dt>
        <dd>{email}</dd>
      </dl>
      <p className="hint">{t("account.details.emailHint")}</p>
      <PostForm id={form.id} onSubmit={form.onSubmit}>
        <TextField field={fields.firstName} label={t("contacts.firstName")} autoComplete="given-name" />
        <TextField field={fields.lastName} label={t("contacts.lastName")} autoComplete="family-name" />
        <TextField
          field={fields.phone}
          label={t("account.details.phone")}
          hint={t("contacts.phoneHint")}
          type="tel"
          autoComplete="tel"
        />
        <fieldset className="address" aria-describedby="address-hint">
          <legend>{t("account.details.addressTitle")}</legend>
          <p className="hint" id="address-hint">
            {t("account.details.addressHint")}
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
        <CheckboxField field={fields.contactConsent} label={t("contacts.consent")} />
        <div className="form-actions">
          <button type="submit" className="button">
            {t("account.details.submit")}
          </button>
        </div>
      </PostForm>
      <p>
        <Link to="/account">{t("account.details.back")}</Link>
      </p>
    </>
  );
}
