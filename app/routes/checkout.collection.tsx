import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { answerStep, guardStep, stepFrame } from "~/web/checkout-flow.server";
import { deliverySchema } from "~/forms/schemas.server";
import { errorsForSummary } from "~/forms/checkout/messages";
import { CheckoutStep, CheckoutStepBoundary, ContinueButton, stepErrorTitleKey } from "~/components/checkout-step";
import { RadioGroup } from "~/components/form-fields";
import { formatMoney } from "~/i18n/format";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";

// /checkout/collection: how the tickets reach the buyer, from the venue's methods (e-ticket, post
// or mail within the deployment's country, box office or "theatre collection" as the venue's
// wording set calls it), each with its fee.

export const handle = { titleKey: "checkout.steps.collection", errorTitleKey: stepErrorTitleKey };
export const ErrorBoundary = CheckoutStepBoundary;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const state = await guardStep(request, context, "collection");
  return {
    frame: await stepFrame(context, state),
    currency: state.seller.currency,
    methods: state.deliveryMethods.map((method) => ({ id: method.id, kind: method.kind, fee: method.fee })),
    chosen: state.answers.deliveryMethodId,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return answerStep(
    request,
    context,
    "collection",
    (state) => deliverySchema(state.deliveryMethods.map((method) => method.id)),
    (_, value) => ({ deliveryMethodId: value.deliveryMethod }),
  );
}

export default function Collection() {
  const { t, i18n } = useTranslation();
  const { frame, methods, chosen, currency } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const ids = methods.map((method) => method.id);
  const [form, fields] = useSchemaForm((checks) => checks.deliverySchema(ids), lastResult, {
    deliveryMethod: chosen ?? undefined,
  });
  return (
    <CheckoutStep
      title={t("checkout.steps.collection")}
      frame={frame}
      errors={errorsForSummary(form.allErrors, ["deliveryMethod"], t)}
    >
      <PostForm id={form.id} onSubmit={form.onSubmit}>
        <RadioGroup
          field={fields.deliveryMethod}
          legend={t("collection.legend")}
          options={methods.map((method) => ({
            value: method.id,
            label: `${t(`delivery.${method.kind}`)}: ${method.fee ? formatMoney(method.fee, currency, i18n.language) : t("collection.free")}`,
            hint: t(`collection.${method.kind}Hint`),
          }))}
        />
        <ContinueButton />
      </PostForm>
    </CheckoutStep>
  );
}
