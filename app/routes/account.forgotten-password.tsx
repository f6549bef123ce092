import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { parseWithZod, forgottenPasswordSchema } from "~/forms/schemas.server";
import { throttledMessage } from "~/forms/account-messages";
import { errorsForSummary } from "~/forms/checkout/messages";
import { ErrorSummary } from "~/components/error-summary";
import { TextField } from "~/components/form-fields";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";
import { renderPasswordReset } from "~/use-cases/email/password-reset-email";
import { DEFAULT_AUTH_POLICY } from "~/use-cases/auth.server";
import { emailWording, sendNow } from "~/web/account-emails.server";

// Asks for a reset link. The answer is the same whether the email has an account or not; only
// an account's owner receives anything.

export const handle = { titleKey: "account.forgotten.title", query: ["sent"] };

export function loader({ request }: LoaderFunctionArgs) {
  // How long a link lasts comes with the data: the browser's build has no `.server` module in it,
  // so the page cannot read the policy itself (it did, and its script failed after a request).
  return { sent: new URL(request.url).searchParams.has("sent"), resetMinutes: DEFAULT_AUTH_POLICY.resetMinutes };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: forgottenPasswordSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await context.auth.requestPasswordReset({
    email: submission.value.email,
    address: context.clientAddress,
  });
  if (result && "ok" in result) {
    const formErrors = [
      result.reason === "throttled" ? throttledMessage(result.retryAt, context.clock) : "account.invalid",
    ];
    return data(submission.reply({ formErrors }), { status: 429 });
  }
  if (result) {
    const email = renderPasswordReset(
      {
        firstName: result.customer.firstName,
        link: `${context.config.publicUrl}/account/reset-password/${result.token}`,
        minutes: DEFAULT_AUTH_POLICY.resetMinutes,
      },
      await emailWording(request, context),
    );
    await sendNow(context, { kind: "passwordReset", to: result.customer.email, ...email });
  }
  return redirect("/account/forgotten-password?sent", 303);
}

export default function ForgottenPassword() {
  const { t } = useTranslation();
  const { sent, resetMinutes } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useSchemaForm((checks) => checks.forgottenPasswordSchema, lastResult);
  return (
    <>
      <ErrorSummary errors={errorsForSummary(form.allErrors, ["email"], t)} />
      <h1>{t("account.forgotten.title")}</h1>
      {sent ? (
        <p className="message" role="status">
          {t("account.forgotten.sent", { minutes: resetMinutes })}
        </p>
      ) : (
        <p>{t("account.forgotten.intro")}</p>
      )}
      <PostForm id={form.id} onSubmit={form.onSubmit}>
        <TextField field={fields.email} label={t("account.email")} type="email" autoComplete="email" />
        <div className="form-actions">
          <button type="submit" className="button">
            {t("account.forgotten.submit")}
          </button>
        </div>
      </PostForm>
      <p>
        <Link to="/account/sign-in">{t("account.register.signIn")}</Link>
      </p>
    </>
  );
}
