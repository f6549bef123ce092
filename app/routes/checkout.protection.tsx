import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { useTranslation } from "react-i18next";
import { acceptOwnChange, guardStep, nextStepPath, stepFrame, unlockForChange } from "~/checkout/flow.server";
import { errorsForSummary, protectionSchema } from "~/checkout/forms";
import { CheckoutStep, CheckoutStepBoundary } from "~/components/checkout-step";
import { RadioGroup } from "~/components/form-fields";
import { formatMoney } from "~/components/format";
import { PostForm } from "~/components/post-form";
import { flashEvents, track } from "~/tracking/track.server";

// /checkout/ticket-protection: refund protection, sold per ticket. The buyer must answer yes or
// no; a member whose membership includes it sees it included instead of a choice.

export const handle = { titleKey: "checkout.steps.ticket-protection" };
export const ErrorBoundary = CheckoutStepBoundary;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const state = await guardStep(request, context, "ticket-protection");
  return {
    frame: await stepFrame(context, state),
    included: state.benefits.protectionIncluded,
    fee: formatMoney(state.venue.protectionFee, state.venue.currency, await context.i18n.getLocale(request)),
    chosen: state.answers.protection === null ? null : state.answers.protection ? "yes" : "no",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const state = await guardStep(request, context, "ticket-protection");
  const next = nextStepPath(state, "ticket-protection");
  if (state.benefits.protectionIncluded) return redirect(next);
  const submission = parseWithZod(await request.formData(), { schema: protectionSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await unlockForChange(context, state.order);
  const protect = submission.value.protection === "yes";
  await context.baskets.setProtection(state.basketId, protect);
  await acceptOwnChange(context, state);
  const headers = new Headers();
  await flashEvents(context, headers, [
    track(context, "ticketProtectionSet", { performanceId: state.reservation.performanceId, protect }),
  ]);
  return redirect(next, { headers });
}

export default function TicketProtection() {
  const { t } = useTranslation();
  const { frame, included, fee, chosen } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { protection: chosen ?? undefined },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: protectionSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const terms = (
    <p>
      <Link to="/legal/ticket-protection-terms">{t("protection.terms")}</Link>
    </p>
  );
  return (
    <CheckoutStep
      title={t("checkout.steps.ticket-protection")}
      frame={frame}
      errors={errorsForSummary(form.allErrors, ["protection"], t)}
    >
      {included ? (
        <>
          <p>{t("protection.included")}</p>
          {terms}
          <PostForm>
            <button type="submit" className="button">
              {t("steps.continue")}
            </button>
          </PostForm>
        </>
      ) : (
        <>
          <p>{t("protection.intro", { fee })}</p>
          {terms}
          <PostForm id={form.id} onSubmit={form.onSubmit}>
            <RadioGroup
              field={fields.protection}
              legend={t("protection.legend")}
              options={[
                { value: "yes", label: t("protection.yes") },
                { value: "no", label: t("protection.no") },
              ]}
            />
            <div className="form-actions">
              <button type="submit" className="button">
                {t("steps.continue")}
              </button>
            </div>
          </PostForm>
        </>
      )}
    </CheckoutStep>
  );
}
