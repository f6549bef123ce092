import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { answerStep, guardStep, stepFrame, trackedPerformance } from "~/web/checkout-flow.server";
import { extrasSchema } from "~/forms/schemas.server";
import { errorsForSummary } from "~/forms/checkout/messages";
import { CheckoutStep, CheckoutStepBoundary, ContinueButton, stepErrorTitleKey } from "~/components/checkout-step";
import { formatMoney } from "~/i18n/format";
import { TextField } from "~/components/form-fields";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";
import { track } from "~/web/track.server";

// /checkout/extras: the performance's upsells ("Enhance your experience"), a quantity each.
// Skipped by the guard when the venue offers none.

export const handle = { titleKey: "checkout.steps.extras", errorTitleKey: stepErrorTitleKey };
export const ErrorBoundary = CheckoutStepBoundary;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const state = await guardStep(request, context, "extras");
  const performanceId = trackedPerformance(state);
  return {
    frame: await stepFrame(context, state),
    currency: state.seller.currency,
    extras: state.extras.map((extra) => ({ ...extra, quantity: state.answers.quantities[extra.id] ?? 0 })),
    trackedEvents: [
      track(context, "fetchUpsells.request", { performanceId }),
      track(context, "fetchUpsells.success", { performanceId, count: state.extras.length }),
    ],
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return answerStep(
    request,
    context,
    "extras",
    (state) => extrasSchema(state.extras.map((extra) => extra.id)),
    (state, value) => ({
      extras: Object.fromEntries(state.extras.map((extra) => [extra.id, value.qty?.[extra.id] ?? 0])),
    }),
  );
}

export default function Extras() {
  const { t, i18n } = useTranslation();
  const { frame, extras, currency } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const ids = extras.map((extra) => extra.id);
  const [form, fields] = useSchemaForm((checks) => checks.extrasSchema(ids), lastResult, undefined, { id: "extras" });
  const quantities = fields.qty.getFieldset();
  const order = ids.map((id) => `qty.${id}`);
  return (
    <CheckoutStep title={t("checkout.steps.extras")} frame={frame} errors={errorsForSummary(form.allErrors, order, t)}>
      <p>{t("extras.intro")}</p>
      <PostForm id={form.id} onSubmit={form.onSubmit}>
        {extras.map((extra) => (
          <div key={extra.id} className="extra">
            <h2 className="extra__name">{extra.name}</h2>
            <TextField
              field={{
                ...quantities[extra.id]!,
                name: `qty.${extra.id}`,
                defaultValue: quantities[extra.id]?.initialValue ?? String(extra.quantity),
              }}
              label={t("extras.quantity", { name: extra.name })}
              hint={`${extra.description} ${t("extras.each", { price: formatMoney(extra.price, currency, i18n.language) })}`}
              inputMode="numeric"
            />
          </div>
        ))}
        <ContinueButton />
      </PostForm>
    </CheckoutStep>
  );
}
