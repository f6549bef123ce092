import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** The way back to the staff's start page, at the foot of each of their pages. */
export function StaffHomeLink() {
  const { t } = useTranslation();
  return (
    <p>
      <Link to="/staff">{t("staff.home.back")}</Link>
    </p>
  );
}
