import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { parseWithZod, requestedReturn, signInSchema } from "~/forms/schemas.server";
import { authToken, currentCustomer, signInCookie } from "~/web/session.server";
import { throttledMessage } from "~/forms/account-messages";
import { errorsForSummary } from "~/forms/checkout/messages";
import { ErrorSummary } from "~/components/error-summary";
import { TextField } from "~/components/form-fields";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";

// Sign in with email and password. A wrong email and a wrong password get the same answer, and
// so does a throttled account whether it exists or not.

export const handle = { titleKey: "account.signIn.title", query: ["redirectTo"] };

const FIELDS = ["email", "password"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const redirectTo = requestedReturn(request);
  if (await currentCustomer(request, context)) throw redirect(redirectTo || "/account", 303);
  return { redirectTo };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: signInSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const { email, password, redirectTo } = submission.value;
  const result = await context.auth.signIn({
    email,
    password,
    address: context.clientAddress,
    previousToken: (await authToken(request, context)) ?? undefined,
  });
  if (!result.ok) {
    const formErrors = [
      result.reason === "throttled" ? throttledMessage(result.retryAt, context.clock) : "account.invalid",
    ];
    return data(submission.reply({ formErrors, hideFields: ["password"] }), {
      status: result.reason === "throttled" ? 429 : 400,
    });
  }
  context.logger.info({ customerId: result.customer.id }, "customer signed in");
  return redirect(redirectTo || "/account", {
    status: 303,
    headers: { "Set-Cookie": await signInCookie(context, result.token) },
  });
}

export default function SignIn() {
  const { t } = useTranslation();
  const { redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useSchemaForm((checks) => checks.signInSchema, lastResult);
  return (
    <>
      <ErrorSummary errors={errorsForSummary(form.allErrors, FIELDS, t)} />
      <h1>{t("account.signIn.title")}</h1>
      <PostForm id={form.id} onSubmit={form.onSubmit}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField field={fields.email} label={t("account.email")} type="email" autoComplete="email" />
        <TextField
          field={fields.password}
          label={t("account.password")}
          type="password"
          autoComplete="current-password"
        />
        <div className="form-actions">
          <button type="submit" className="button">
            {t("account.signIn.submit")}
          </button>
        </div>
      </PostForm>
      <p>
        <Link to="/account/forgotten-password">{t("account.signIn.forgotten")}</Link>
      </p>
      <p>
        <Link to={redirectTo ? `/account/register?redirectTo=${encodeURIComponent(redirectTo)}` : "/account/register"}>
          {t("account.signIn.register")}
        </Link>
      </p>
    </>
  );
}
