import { Link, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { loader as checkoutLoader } from "./checkout";

// The checkout steps after the seats (extras, protection, delivery, contacts, payment) are the
// next piece of work; until then a buyer who holds seats is told how to finish by phone, and one
// with nothing reserved is sent to find a show.
export const handle = { titleKey: "checkout.title" };

export default function CheckoutStep() {
  const { t } = useTranslation();
  const layout = useRouteLoaderData<typeof checkoutLoader>("checkout");
  const step = useLocation().pathname.split("/").filter(Boolean).pop() ?? "";
  const holding = layout?.hold && !layout.hold.expired;
  return (
    <>
      <h1>{t(`checkout.steps.${step}`, { defaultValue: t("checkout.title") })}</h1>
      {holding ? (
        <p>{t("checkout.notOnlineYet", { phone: t("venue.supportPhone") })}</p>
      ) : (
        <>
          <p className="empty-state">{t("checkout.emptyBasket")}</p>
          <p>
            <Link to="/">{t("checkout.browseLink")}</Link>
          </p>
        </>
      )}
    </>
  );
}
