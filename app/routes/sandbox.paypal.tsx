import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "~/i18n/format";
import { PostForm } from "~/components/post-form";
import { loadSandboxStep, requireSandbox, returnFromSandbox } from "./sandbox.server";

// Sandbox PayPal: the buyer approves or cancels. Approving returns them to the checkout's return
// URL; cancelling to its cancel URL, as PayPal does.

export const handle = { titleKey: "sandbox.paypal.title" };

export function loader({ params, context }: LoaderFunctionArgs) {
  return loadSandboxStep(context.sandboxGateway, params.reference, "approval");
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const gateway = requireSandbox(context.sandboxGateway);
  const reference = params.reference ?? "";
  const intent = (await request.formData()).get("intent");
  if (intent !== "approve" && intent !== "cancel")
    return redirect(`/sandbox/paypal/${encodeURIComponent(reference)}`, 303);
  return returnFromSandbox(await gateway.decidePayPal(reference, intent === "approve"));
}

export default function SandboxPayPal() {
  const { t, i18n } = useTranslation();
  const step = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("sandbox.paypal.title")}</h1>
      <p className="message">{t("sandbox.notice")}</p>
      <p>{t("sandbox.paypal.intro")}</p>
      <dl>
        <dt>{t("sandbox.paymentFor")}</dt>
        <dd>{step.description}</dd>
        <dt>{t("sandbox.amount")}</dt>
        <dd>{formatMoney(step.amount, step.currency, i18n.language)}</dd>
      </dl>
      {/* A form per answer, its intent hidden: a button's value would be shown before its words
          by a text browser ("(approve) Approve payment"). */}
      <div className="form-actions">
        <PostForm>
          <input type="hidden" name="intent" value="approve" />
          <button type="submit" className="button">
            {t("sandbox.paypal.approve")}
          </button>
        </PostForm>
        <PostForm>
          <input type="hidden" name="intent" value="cancel" />
          <button type="submit" className="button button--secondary">
            {t("sandbox.paypal.cancel")}
          </button>
        </PostForm>
      </div>
    </>
  );
}
