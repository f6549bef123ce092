import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { answerStep, guardStep, stepFrame, trackedPerformance } from "~/web/checkout-flow.server";
import { protectionSchema } from "~/forms/schemas.server";
import { errorsForSummary } from "~/forms/checkout/messages";
import { CheckoutStep, CheckoutStepBoundary, ContinueButton, stepErrorTitleKey } from "~/components/checkout-step";
import { RadioGroup } from "~/components/form-fields";
import { formatMoney } from "~/i18n/format";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";
import { flashEvents, track } from "~/web/track.server";

// /checkout/ticket-protection: refund protection, sold per ticket. The buyer must answer yes or
// no. A member's membership includes it: the step does not apply to them (flow.server.ts), and
// the summary says it is included.

export const handle = { titleKey: "checkout.steps.ticket-protection", errorTitleKey: stepErrorTitleKey };
export const ErrorBoundary = CheckoutStepBoundary;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const state = await guardStep(request, context, "ticket-protection");
  return {
    frame: await stepFrame(context, state),
    fee: formatMoney(state.venue?.protectionFee ?? 0, state.seller.currency, await context.i18n.getLocale(request)),
    chosen: state.answers.protection === null ? null : state.answers.protection ? "yes" : "no",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return answerStep(
    request,
    context,
    "ticket-protection",
    () => protectionSchema,
    async (state, value, headers) => {
      const protect = value.protection === "yes";
      await flashEvents(context, headers, [
        track(context, "ticketProtectionSet", { performanceId: trackedPerformance(state), protect }),
      ]);
      return { protection: protect };
    },
  );
}

export default function TicketProtection() {
  const { t } = useTranslation();
  const { frame, fee, chosen } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useSchemaForm((checks) => checks.protectionSchema, lastResult, {
    protection: chosen ?? undefined,
  });
  return (
    <CheckoutStep
      title={t("checkout.steps.ticket-protection")}
      frame={frame}
      errors={errorsForSummary(form.allErrors, ["protection"], t)}
    >
      <p>{t("protection.intro", { fee })}</p>
      <p>
        <Link to="/legal/ticket-protection-terms">{t("protection.terms")}</Link>
      </p>
      <PostForm id={form.id} onSubmit={form.onSubmit}>
        <RadioGroup
          field={fields.protection}
          legend={t("protection.legend")}
          // The free answer first: text browsers tick a group's first radio when none is, and
          // a buyer must never pay for protection nobody chose (decision 0014). Neither is
          // ticked here, so "Please select an answer" still applies to every other client.
          options={[
            { value: "no", label: t("protection.no") },
            { value: "yes", label: t("protection.yes") },
          ]}
        />
        <ContinueButton />
      </PostForm>
    </CheckoutStep>
  );
}
