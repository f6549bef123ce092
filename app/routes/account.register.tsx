import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { parseWithZod, registerSchema, requestedReturn } from "~/forms/schemas.server";
import { throttledMessage } from "~/forms/account-messages";
import { authToken, currentCustomer, signInCookie } from "~/web/session.server";
import { errorsForSummary } from "~/forms/checkout/messages";
import { ErrorSummary } from "~/components/error-summary";
import { NewPasswordField, TextField } from "~/components/form-fields";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";

// Create an account: name, email and a password. Signed in at once.

export const handle = { titleKey: "account.register.title", query: ["redirectTo"] };

const FIELDS = ["firstName", "lastName", "email", "password"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await currentCustomer(request, context)) throw redirect("/account", 303);
  return { redirectTo: requestedReturn(request) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: registerSchema });
  const hideFields = ["password"];
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  const { redirectTo, ...details } = submission.value;
  const result = await context.auth.register({ ...details, address: context.clientAddress });
  if (!result.ok) {
    if (result.reason === "emailTaken")
      return data(submission.reply({ fieldErrors: { email: ["account.emailTaken"] }, hideFields }), { status: 400 });
    const formErrors = [
      result.reason === "throttled" ? throttledMessage(result.retryAt, context.clock) : "account.invalid",
    ];
    return data(submission.reply({ formErrors, hideFields }), { status: 429 });
  }
  const previous = await authToken(request, context);
  if (previous) await context.auth.signOut(previous);
  context.logger.info({ customerId: result.customer.id }, "customer registered");
  return redirect(redirectTo || "/account", {
    status: 303,
    headers: { "Set-Cookie": await signInCookie(context, result.token) },
  });
}

export default function Register() {
  const { t } = useTranslation();
  const { redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useSchemaForm((checks) => checks.registerSchema, lastResult);
  return (
    <>
      <ErrorSummary errors={errorsForSummary(form.allErrors, FIELDS, t)} />
      <h1>{t("account.register.title")}</h1>
      <PostForm id={form.id} onSubmit={form.onSubmit}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField field={fields.firstName} label={t("contacts.firstName")} autoComplete="given-name" />
        <TextField field={fields.lastName} label={t("contacts.lastName")} autoComplete="family-name" />
        <TextField field={fields.email} label={t("account.email")} type="email" autoComplete="email" />
        <NewPasswordField field={fields.password} label={t("account.password")} />
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
