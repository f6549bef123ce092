import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "~/i18n/format";
import { PostForm } from "~/components/post-form";
import { loadSandboxStep, requireSandbox, returnFromSandbox } from "./sandbox.server";

// The sandbox bank's 3-D Secure challenge: the buyer decides the outcome, so every path through
// the checkout (authenticated, failed) can be walked by hand or by a test.

export const handle = { titleKey: "sandbox.challenge.title" };

export function loader({ params, context }: LoaderFunctionArgs) {
  return loadSandboxStep(context.sandboxGateway, params.reference, "challenge");
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const gateway = requireSandbox(context.sandboxGateway);
  const reference = params.reference ?? "";
  const intent = (await request.formData()).get("intent");
  if (intent !== "pass" && intent !== "fail") {
    // The step's own POST from the checkout, not an answer: show the question.
    return redirect(`/sandbox/challenge/${encodeURIComponent(reference)}`, 303);
  }
  return returnFromSandbox(await gateway.completeChallenge(reference, intent === "pass"));
}

export default function SandboxChallenge() {
  const { t, i18n } = useTranslation();
  const step = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("sandbox.challenge.title")}</h1>
      <p className="message">{t("sandbox.notice")}</p>
      <p>{t("sandbox.challenge.intro")}</p>
      <dl>
        <dt>{t("sandbox.paymentFor")}</dt>
        <dd>{step.description}</dd>
        <dt>{t("sandbox.amount")}</dt>
        <dd>{formatMoney(step.amount, step.currency, i18n.language)}</dd>
        {step.last4 ? (
          <>
            <dt>{t("sandbox.card")}</dt>
            <dd>
              {step.brand
                ? t("sandbox.cardEnding", { brand: t(`sandbox.brands.${step.brand}`), last4: step.last4 })
                : t("sandbox.endingOnly", { last4: step.last4 })}
            </dd>
          </>
        ) : null}
      </dl>
      {/* A form per answer, its intent hidden: a button's value would be shown before its words
          by a text browser ("(pass) Complete authentication"). */}
      <div className="form-actions">
        <PostForm>
          <input type="hidden" name="intent" value="pass" />
          <button type="submit" className="button">
            {t("sandbox.challenge.pass")}
          </button>
        </PostForm>
        <PostForm>
          <input type="hidden" name="intent" value="fail" />
          <button type="submit" className="button button--warning">
            {t("sandbox.challenge.fail")}
          </button>
        </PostForm>
      </div>
    </>
  );
}
