import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { parseWithZod, staffSignInSchema } from "~/forms/schemas.server";
import { throttledMessage } from "~/forms/account-messages";
import { errorsForSummary } from "~/forms/checkout/messages";
import { currentStaff, staffSignInCookie } from "~/web/staff.server";
import { ErrorSummary } from "~/components/error-summary";
import { TextField } from "~/components/form-fields";
import { PostForm } from "~/components/post-form";
import { useSchemaForm } from "~/components/use-schema-form";

// Staff sign-in (issue 55, decision 0059): email, password and, for box office and manager, the
// one-time code from their authenticator app. The one staff page open to anyone: a wrong email,
// password or code get the same answer, and a throttled account is told when to try again.

export const handle = { titleKey: "staff.signIn.title" };

const FIELDS = ["email", "password", "code"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await currentStaff(request, context)) throw redirect("/staff", 303);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: staffSignInSchema });
  const hideFields = ["password", "code"];
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  const { email, password, code } = submission.value;
  const result = await context.staff.signIn({ email, password, code, address: context.clientAddress });
  if (!result.ok) {
    const formError =
      result.reason === "throttled"
        ? throttledMessage(result.retryAt, context.clock)
        : result.reason === "codeNeeded"
          ? "staff.signIn.codeNeeded"
          : "staff.signIn.invalid";
    // The code's own field says it is wanted, so the summary's line leads to it.
    const reply =
      result.reason === "codeNeeded"
        ? submission.reply({ fieldErrors: { code: [formError] }, hideFields })
        : submission.reply({ formErrors: [formError], hideFields });
    return data(reply, { status: result.reason === "throttled" ? 429 : 400 });
  }
  context.logger.info({ staffId: result.staff.id, role: result.staff.role }, "staff signed in");
  return redirect("/staff", { status: 303, headers: { "Set-Cookie": await staffSignInCookie(context, result.token) } });
}

export default function StaffSignIn() {
  const { t } = useTranslation();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useSchemaForm((checks) => checks.staffSignInSchema, lastResult);
  return (
    <>
      <ErrorSummary errors={errorsForSummary(form.allErrors, FIELDS, t)} />
      <h1>{t("staff.signIn.title")}</h1>
      <PostForm id={form.id} onSubmit={form.onSubmit}>
        <TextField field={fields.email} label={t("staff.signIn.email")} type="email" autoComplete="username" />
        <TextField
          field={fields.password}
          label={t("staff.signIn.password")}
          type="password"
          autoComplete="current-password"
        />
        <TextField
          field={fields.code}
          label={t("staff.signIn.code")}
          hint={t("staff.signIn.codeHint")}
          autoComplete="one-time-code"
          inputMode="numeric"
          keepValue={false}
          spellCheck={false}
        />
        <div className="form-actions">
          <button type="submit" className="button">
            {t("staff.signIn.submit")}
          </button>
        </div>
      </PostForm>
    </>
  );
}
