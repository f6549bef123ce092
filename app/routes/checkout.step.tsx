import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";

// Every checkout step, until the basket exists: with nothing reserved there is nothing to check
// out, and each step says so. The steps get their own modules with the checkout itself.
export const handle = { titleKey: "checkout.title" };

export default function CheckoutStep() {
  const { t } = useTranslation();
  const step = useLocation().pathname.split("/").filter(Boolean).pop() ?? "";
  return (
    <>
      <h1>{t(`checkout.steps.${step}`, { defaultValue: t("checkout.title") })}</h1>
      <p className="empty-state">{t("checkout.emptyBasket")}</p>
      <p>
        <Link to="/">{t("checkout.browseLink")}</Link>
      </p>
    </>
  );
}
