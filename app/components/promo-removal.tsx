import { Link, useLocation, useMatches } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "remix-utils/use-hydrated";
import { Confirmation, ConfirmActions } from "./confirmation";
import { HOLD_ACTION } from "./hold-panel";
import { pathWithDeclaredQuery } from "~/urls/page-query";

/**
 * "Remove code", which warns first that prices and the seats on offer may change: a link to a
 * confirmation page without script, a `<dialog>` with it; the same action removes the code.
 */
export function RemovePromoLink() {
  const { t } = useTranslation();
  const location = useLocation();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const returnTo = pathWithDeclaredQuery(location.pathname, location.search, useMatches());
  return (
    <>
      <Link
        to={`${HOLD_ACTION}?confirm=remove-promo&returnTo=${encodeURIComponent(returnTo)}`}
        onClick={(event) => {
          if (!hydrated) return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        {t("promo.remove")}
      </Link>
      <RemovePromoDialog open={open} onClose={() => setOpen(false)} returnTo={returnTo} />
    </>
  );
}

export function RemovePromoDialog({
  open,
  onClose,
  returnTo,
}: {
  open: boolean;
  onClose?: () => void;
  returnTo: string;
}) {
  const { t } = useTranslation();
  return (
    <Confirmation open={open} title={t("promo.removeTitle")} onClose={onClose}>
      <p>{t("promo.removeBody")}</p>
      <ConfirmActions
        action={HOLD_ACTION}
        intent="remove-promo"
        fields={{ returnTo }}
        confirmLabel={t("promo.removeConfirm")}
        keepLabel={t("promo.keep")}
        onKeep={onClose}
        keepHref={returnTo}
      />
    </Confirmation>
  );
}
