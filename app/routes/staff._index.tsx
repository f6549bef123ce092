import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { may, type StaffAction } from "~/ticketing/staff-roles";
import { refuseStaffPost, requireStaff } from "~/web/staff.server";

// The staff's start page: who is signed in and as what, and the pages their role may open (signing
// out is the staff's header's: routes/staff-frame.tsx). The pages join the list as they come (issue 55).

export const handle = { titleKey: "staff.home.title" };

/** The staff's pages, each with the action its role must be allowed. */
const STAFF_PAGES: { href: string; key: string; action: StaffAction }[] = [
  { href: "/staff/door", key: "staff.home.door", action: "checkIn" },
  { href: "/staff/orders", key: "staff.orders.link", action: "viewOrders" },
  { href: "/staff/house-seats", key: "staff.houseSeats.link", action: "holdSeats" },
  { href: "/staff/comps", key: "staff.comps.link", action: "issueComp" },
  { href: "/staff/performances", key: "staff.reports.homeLink", action: "viewReports" },
  { href: "/staff/audit", key: "staff.audit.link", action: "manageStaff" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { staff } = await requireStaff(request, context, null);
  return {
    name: staff.name,
    email: staff.email,
    role: staff.role,
    pages: STAFF_PAGES.filter((page) => may(staff.role, page.action)).map(({ href, key }) => ({ href, key })),
  };
}

export async function action(args: ActionFunctionArgs) {
  return refuseStaffPost(args, null);
}

export default function StaffHome() {
  const { t } = useTranslation();
  const { name, email, role, pages } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t("staff.home.title")}</h1>
      <p>{t("staff.home.signedInAs", { name, email, role: t(`staff.role.${role}`) })}</p>
      <h2>{t("staff.home.pagesHeading")}</h2>
      <ul>
        {pages.map((page) => (
          <li key={page.href}>
            <Link to={page.href}>{t(page.key)}</Link>
          </li>
        ))}
      </ul>
    </>
  );
}
