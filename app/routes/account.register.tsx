import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { parseWithZod, registerSchema, requestedReturn } from "~/forms/schemas.server";
import { throttledMessage } from "~/forms/account-messages";
import { currentCustomer } from "~/web/session.server";
import { requestAccount } from "~/web/account-emails.server";
import { DEFAULT_AUTH_POLICY } from "~/use-cases/auth.server";
import { errorsForSummary } from "~/forms/checkout/messages";
import { ErrorSummary } from "~/components/error-summary";
import { TextField } from "~/components/form-fields";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";

// Create an account: name and email. Nothing is created here: the email's owner gets a link
// (app/routes/account.create.tsx) and chooses a password there. The answer is the same whether
// the email has an account or not, so this page tells no one which emails do; the owner of one
// that has is told by email that someone tried (ASVS V6, NCSC on account enumeration).

export const handle = { titleKey: "account.register.title", query: ["redirectTo", "sent"] };

const FIELDS = ["firstName", "lastName", "email"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await currentCustomer(request, context)) throw redirect("/account", 303);
  // How long a link lasts comes with the data: the browser's build has no `.server` module.
  return {
    redirectTo: requestedReturn(request),
    sent: new URL(request.url).searchParams.has("sent"),
    hours: DEFAULT_AUTH_POLICY.signUpHours,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: registerSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { redirectTo, ...details } = submission.value;
  const refused = await requestAccount(request, context, { ...details, returnTo: redirectTo });
  if (refused) {
    return data(submission.reply({ formErrors: [throttledMessage(refused.retryAt, context.clock)] }), { status: 429 });
  }
  return redirect("/account/register?sent", 303);
}

export default function Register() {
  const { t } = useTranslation();
  const { redirectTo, sent, hours } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useSchemaForm((checks) => checks.registerSchema, lastResult);
  return (
    <>
      <ErrorSummary errors={errorsForSummary(form.allErrors, FIELDS, t)} />
      <h1>{t("account.register.title")}</h1>
      {sent ? (
        <p className="message" role="status">
          {t("account.register.sent", { count: hours })}
        </p>
      ) : (
        <p>{t("account.register.intro")}</p>
      )}
      <PostForm id={form.id} onSubmit={form.onSubmit}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField field={fields.firstName} label={t("contacts.firstName")} autoComplete="given-name" />
        <TextField field={fields.lastName} label={t("contacts.lastName")} autoComplete="family-name" />
        <TextField field={fields.email} label={t("account.email")} type="email" autoComplete="email" />
        <div className="form-actions">
          <button type="submit" className="button">
            {t("account.register.submit")}
          </button>
        </div>
      </PostForm>
      <p>
        <Link to="/account/sign-in">{t("account.register.signIn")}</Link>
      </p>
    </>
  );
}
