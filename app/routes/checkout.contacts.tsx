import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ContactDetails } from "~/views/contact-details";
import {
  answerStep,
  type CheckoutState,
  guardStep,
  profileContacts,
  rememberForNextTime,
  stepFrame,
} from "~/web/checkout-flow.server";
import { needsAddress } from "~/ticketing/checkout-steps";
import { contactsSchema } from "~/forms/schemas.server";
import { errorsForSummary } from "~/forms/checkout/messages";
import { CheckoutStep, CheckoutStepBoundary, ContinueButton, stepErrorTitleKey } from "~/components/checkout-step";
import { CheckboxField, RadioGroup, TextField } from "~/components/form-fields";
import { AddressFields } from "~/components/address-fields";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";
import { ADDRESS_FIELDS } from "~/forms/address-fields";

// /checkout/contacts: who the tickets are for and how to reach them; the delivery address when
// the tickets go by post (mail in the US), limited to the deployment's country; the venue's own
// questions; contact consent (optional) and the terms (required).

export const handle = { titleKey: "checkout.steps.contacts", errorTitleKey: stepErrorTitleKey };
export const ErrorBoundary = CheckoutStepBoundary;

function schemaOptions(state: Pick<CheckoutState, "seller" | "questions"> & { needsAddress: boolean }) {
  return {
    country: state.seller.country,
    needsAddress: state.needsAddress,
    questions: state.questions.map((question) => ({ id: question.id, kind: question.kind, options: question.options })),
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const state = await guardStep(request, context, "contacts");
  // A signed-in customer starts from their profile; what they change here stays with this order.
  const contacts = state.answers.contacts ?? (await profileContacts(context, state));
  const address = contacts?.address;
  return {
    frame: await stepFrame(context, state),
    options: schemaOptions({ ...state, needsAddress: needsAddress(state) }),
    questions: state.questions,
    saved: contacts
      ? {
          firstName: contacts.firstName,
          lastName: contacts.lastName,
          email: contacts.email,
          confirmEmail: contacts.email,
          phone: contacts.phone,
          addressLine1: address?.line1,
          addressLine2: address?.line2,
          city: address?.city,
          postcode: address?.postcode,
          zip: address?.postcode,
          state: address?.state ?? undefined,
          question: contacts.answers,
          contactConsent: contacts.contactConsent ? "on" : undefined,
          termsAccepted: undefined as string | undefined,
        }
      : undefined,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return answerStep(
    request,
    context,
    "contacts",
    (state) => contactsSchema(schemaOptions({ ...state, needsAddress: needsAddress(state) })),
    async (state, value) => {
      const contacts: ContactDetails = {
        firstName: value.firstName,
        lastName: value.lastName,
        email: value.email,
        phone: value.phone,
        address:
          needsAddress(state) && value.addressLine1 && value.city
            ? {
                line1: value.addressLine1,
                line2: value.addressLine2 ?? "",
                city: value.city,
                postcode: value.postcode ?? value.zip ?? "",
                state: value.state ?? null,
                country: state.seller.country,
              }
            : null,
        answers: value.question ?? {},
        contactConsent: value.contactConsent ?? false,
      };
      await rememberForNextTime(context, state, contacts);
      return { contacts };
    },
  );
}

export default function Contacts() {
  const { t } = useTranslation();
  const { frame, options, questions, saved } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useSchemaForm((checks) => checks.contactsSchema(options), lastResult, saved);
  const answers = fields.question.getFieldset();
  const order = [
    "firstName",
    "lastName",
    "email",
    "confirmEmail",
    "phone",
    ...ADDRESS_FIELDS,
    ...questions.map((question) => `question.${question.id}`),
    "termsAccepted",
  ];
  return (
    <CheckoutStep
      title={t("checkout.steps.contacts")}
      frame={frame}
      errors={errorsForSummary(form.allErrors, order, t)}
    >
      <p>{t("contacts.intro")}</p>
      <PostForm id={form.id} onSubmit={form.onSubmit}>
        <TextField field={fields.firstName} label={t("contacts.firstName")} autoComplete="given-name" />
        <TextField field={fields.lastName} label={t("contacts.lastName")} autoComplete="family-name" />
        <TextField field={fields.email} label={t("contacts.email")} type="email" autoComplete="email" />
        <TextField field={fields.confirmEmail} label={t("contacts.confirmEmail")} type="email" autoComplete="email" />
        <TextField
          field={fields.phone}
          label={t("contacts.phone")}
          hint={t(`contacts.phoneHint${options.country}`)}
          type="tel"
          autoComplete="tel"
        />
        {options.needsAddress ? (
          <AddressFields
            fields={fields}
            country={options.country}
            legend={t("contacts.addressTitle")}
            hint={t("contacts.addressCountryHint")}
          />
        ) : null}
        {questions.length > 0 ? (
          <fieldset className="venue-questions">
            <legend>{t("contacts.questionsTitle")}</legend>
            {questions.map((question) => {
              const field = answers[question.id]!;
              return question.kind === "choice" ? (
                <RadioGroup
                  key={question.id}
                  field={field}
                  legend={question.label}
                  options={question.options.map((option) => ({ value: option, label: option }))}
                />
              ) : (
                <TextField key={question.id} field={field} label={question.label} />
              );
            })}
          </fieldset>
        ) : null}
        <CheckboxField field={fields.contactConsent} label={t("contacts.consent")} />
        <CheckboxField field={fields.termsAccepted} label={t("contacts.terms")} />
        <p>
          <Link to="/legal/terms-of-sale">{t("contacts.termsLink")}</Link>
        </p>
        <ContinueButton />
      </PostForm>
    </CheckoutStep>
  );
}
