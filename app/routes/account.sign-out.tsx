import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { authToken, signOutCookie } from "~/web/session.server";
import { readBuyer } from "~/web/buyer.server";
import { forgetPaidOrder } from "~/web/order-pages.server";
import { PostForm } from "~/components/post-form";

// Signing out is a POST. Its GET is the confirmation page, which warns a buyer holding seats that
// availability or prices may change (member prices and benefits go with the account). Signing
// out also ends the showing of an order just paid for: whoever uses the browser next is not shown it.

export const handle = { titleKey: "account.signOut.title" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!(await authToken(request, context))) throw redirect("/", 303);
  const buyer = await readBuyer(request, context);
  const holding = buyer.basketId ? (await context.reservations.current(buyer.basketId)) !== null : false;
  return { holding };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const token = await authToken(request, context);
  if (token) await context.auth.signOut(token);
  const headers = new Headers({ "Set-Cookie": await signOutCookie(context) });
  for (const cookie of await forgetPaidOrder(request, context)) headers.append("Set-Cookie", cookie);
  return redirect("/", { status: 303, headers });
}

export default function SignOut() {
  const { t } = useTranslation();
  const { holding } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("account.signOut.title")}</h1>
      {holding ? <p className="message message--warning">{t("account.signOut.warning")}</p> : null}
      <PostForm>
        <div className="form-actions">
          <button type="submit" className="button">
            {t("account.signOut.submit")}
          </button>
          <Link to="/account" className="button button--secondary">
            {t("account.signOut.stay")}
          </Link>
        </div>
      </PostForm>
    </>
  );
}
