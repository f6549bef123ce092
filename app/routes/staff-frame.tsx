import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { loader as rootLoader, PageHandle } from "~/root";
import { notFound } from "~/urls/params";
import { currentStaff } from "~/web/staff.server";
import { PostForm } from "~/components/post-form";

// The staff's frame (issue 55): every page at /staff and under it sits in this layout route
// (app/urls/route-table.js mounts them here by their path). Its header is the staff's own: the
// venue's brand, who is signed in and as what, and signing out; none of the buyer's sign-in,
// basket or footer. The root leaves the header and `main` to it (`handle.frame`), and an error
// page, a staff page's 404 included, keeps the buyer's frame: the staff side does not say it is there.

export const handle: PageHandle = { frame: "staff" };

/** The one staff page open to anyone. */
const SIGN_IN_PATH = "/staff/sign-in";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await currentStaff(request, context);
  if (session) return { member: { name: session.staff.name, role: session.staff.role } };
  // Each page's own guard answers 404 too (Remix runs loaders side by side): this one only keeps
  // the frame's data, even an empty one, out of the 404 page's.
  if (new URL(request.url).pathname !== SIGN_IN_PATH) throw notFound();
  return { member: null };
}

function StaffHeader() {
  const { t } = useTranslation();
  const { member } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  // The root's data is there whenever this frame is (an error page is the buyer's).
  const logo = root?.brand.logo;
  const brand = (
    <>
      {!logo ? null : "wordmark" in logo ? (
        <span className="site-header__wordmark">{logo.wordmark}</span>
      ) : (
        <img src={logo.src} alt={logo.alt} width={180} height={48} className="site-header__logo" />
      )}{" "}
      <span className="staff-header__side">{t("staff.frame.side")}</span>
    </>
  );
  return (
    <header className="site-header staff-header">
      {/* Signed in, the brand is the way back to the staff's start page, as the buyer's is to the
          home page. In a paragraph, so a text browser does not run it into the skip link. */}
      <p className="staff-header__brand">
        {member ? (
          <Link to="/staff" className="site-header__brand">
            {brand}
          </Link>
        ) : (
          <span className="site-header__brand">{brand}</span>
        )}
      </p>
      {member ? (
        <div className="staff-header__member">
          <p className="staff-header__who">
            {t("staff.frame.signedInAs", { name: member.name, role: t(`staff.role.${member.role}`) })}
          </p>
          <PostForm action="/staff/sign-out">
            <button type="submit" className="button button--secondary">
              {t("staff.signOut.submit")}
            </button>
          </PostForm>
        </div>
      ) : null}
    </header>
  );
}

export default function StaffFrame() {
  return (
    <>
      <StaffHeader />
      <main id="main-content" className="page" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
