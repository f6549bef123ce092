import { data, redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { parseWithZod, DETAILS_SAVED_PATH, detailsSchema, type Country } from "~/forms/schemas.server";
import { DETAILS_FIELDS } from "~/forms/account-names";
import { requireCustomer } from "~/web/session.server";
import { errorsForSummary } from "~/forms/checkout/messages";
import { ErrorSummary } from "~/components/error-summary";
import { CheckboxField, TextField } from "~/components/form-fields";
import { AddressFields } from "~/components/address-fields";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";
import { isStoreUnreachable } from "~/ticketing/errors";

// Manage details: the name, phone, saved delivery address and contact consent a customer keeps
// with their account, which the checkout fills in for them. The email is how they sign in, so it
// is shown here but not changed here.

export const handle = { titleKey: "account.details.title", query: ["saved"] };

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
    // An outage is the whole site's 503 (build.server.ts), not this form's refusal.
    if (isStoreUnreachable(error)) throw error;
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
  const [form, fields] = useSchemaForm((checks) => checks.detailsSchema(country), lastResult, saved);
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
          hint={t(`contacts.phoneHint${country}`)}
          type="tel"
          autoComplete="tel"
        />
        <AddressFields
          fields={fields}
          country={country}
          legend={t("account.details.addressTitle")}
          hint={t("account.details.addressHint")}
        />
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
