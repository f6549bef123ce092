import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { parseWithZod, choosePasswordSchema } from "~/forms/schemas.server";
import { signInCookie } from "~/web/session.server";
import { errorsForSummary } from "~/forms/checkout/messages";
import { ErrorSummary } from "~/components/error-summary";
import { NewPasswordField } from "~/components/form-fields";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";

// The emailed link: choose a new password. Works once, for a limited time; using it signs out
// every other session of the account and signs this browser in. A link that cannot work (made up,
// cut short, expired or used) says so from the first look, with the way to a new one, rather than
// offering a form whose every answer would be refused.

const LINK_INVALID = "account.reset.invalidTitle";

export const handle = {
  titleKey: (data: unknown) =>
    (data as { valid?: boolean } | undefined)?.valid ? "account.reset.title" : LINK_INVALID,
};

export async function loader({ params, context }: LoaderFunctionArgs) {
  return { valid: await context.auth.resetLinkValid(params.token ?? "") };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: choosePasswordSchema });
  const hideFields = ["password"];
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  const result = await context.auth.resetPassword({ token: params.token ?? "", password: submission.value.password });
  if (!result.ok) {
    return data(submission.reply({ formErrors: [LINK_INVALID], hideFields }), { status: 400 });
  }
  context.logger.info({ customerId: result.customer.id }, "password reset");
  return redirect("/account", { status: 303, headers: { "Set-Cookie": await signInCookie(context, result.token) } });
}

export default function ResetPassword() {
  const { t } = useTranslation();
  const { valid } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useSchemaForm((checks) => checks.choosePasswordSchema, lastResult);
  // A link that stopped working between the page and the post: refused by the action, whether or
  // not the loader has run again since (with script, a refused post does not rerun it).
  if (!valid || form.errors?.includes(LINK_INVALID)) {
    return (
      <>
        <h1>{t("account.reset.invalidTitle")}</h1>
        <p>{t("account.reset.invalid")}</p>
        <p>
          <Link to="/account/forgotten-password">{t("account.reset.again")}</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <ErrorSummary errors={errorsForSummary(form.allErrors, ["password"], t)} />
      <h1>{t("account.reset.title")}</h1>
      <PostForm id={form.id} onSubmit={form.onSubmit}>
        <NewPasswordField field={fields.password} label={t("account.newPassword")} />
        <div className="form-actions">
          <button type="submit" className="button">
            {t("account.reset.submit")}
          </button>
        </div>
      </PostForm>
    </>
  );
}
