import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ACCOUNT_CREATED_PATH, choosePasswordSchema, parseWithZod } from "~/forms/schemas.server";
import { authToken, signInCookie } from "~/web/session.server";
import { errorsForSummary } from "~/forms/checkout/messages";
import { ErrorSummary } from "~/components/error-summary";
import { NewPasswordField } from "~/components/form-fields";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";

// The emailed sign-up link: choose a password, and the account exists, holding the guest orders
// whose confirmations asked for a link to this email, and this browser is signed in to it. Works
// once, for a limited time. Whoever follows it has read the email, so the account is theirs; before
// that nothing exists for the email. A link that cannot work says so from the first look.

const LINK_INVALID = "account.create.invalidTitle";

export const handle = {
  titleKey: (data: unknown) =>
    (data as { email?: string | null } | undefined)?.email ? "account.create.title" : LINK_INVALID,
};

export async function loader({ params, context }: LoaderFunctionArgs) {
  const link = await context.auth.signUpLink(params.token ?? "");
  return { email: link?.email ?? null };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: choosePasswordSchema });
  const hideFields = ["password"];
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  const made = await context.auth.completeSignUp({ token: params.token ?? "", password: submission.value.password });
  if (!made.ok) return data(submission.reply({ formErrors: [LINK_INVALID], hideFields }), { status: 400 });
  for (const orderId of made.orderIds) {
    if (!(await context.customers.claimOrder(orderId, made.customer.id)))
      context.logger.warn({ orderId }, "order already had a customer when its buyer's account was created");
  }
  // Whoever was signed in on this browser before is not any more: it is the new account's now.
  const previous = await authToken(request, context);
  if (previous) await context.auth.signOut(previous);
  context.logger.info({ customerId: made.customer.id, orders: made.orderIds.length }, "customer registered");
  return redirect(made.returnTo || ACCOUNT_CREATED_PATH, {
    status: 303,
    headers: { "Set-Cookie": await signInCookie(context, made.token) },
  });
}

export default function CreateAccount() {
  const { t } = useTranslation();
  const { email } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useSchemaForm((checks) => checks.choosePasswordSchema, lastResult);
  // A link that stopped working between the page and the post: refused by the action, whether or
  // not the loader has run again since (with script, a refused post does not rerun it).
  if (!email || form.errors?.includes(LINK_INVALID)) {
    return (
      <>
        <h1>{t("account.create.invalidTitle")}</h1>
        <p>{t("account.create.invalid")}</p>
        <ul>
          <li>
            <Link to="/account/sign-in">{t("account.signUp.signIn")}</Link>
          </li>
          <li>
            <Link to="/account/register">{t("account.create.again")}</Link>
          </li>
        </ul>
      </>
    );
  }
  return (
    <>
      <ErrorSummary errors={errorsForSummary(form.allErrors, ["password"], t)} />
      <h1>{t("account.create.title")}</h1>
      <p>{t("account.create.intro", { email })}</p>
      <PostForm id={form.id} onSubmit={form.onSubmit}>
        <NewPasswordField field={fields.password} label={t("account.password")} />
        <div className="form-actions">
          <button type="submit" className="button">
            {t("account.create.submit")}
          </button>
        </div>
      </PostForm>
    </>
  );
}
