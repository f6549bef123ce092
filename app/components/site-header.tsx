import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { THEME_LOGO_TEXT, type ThemeName } from "~/themes/themes";
import { telHref, useSupportPhone } from "./support-phone";

export function SiteHeader({ theme, customer }: { theme: ThemeName; customer: { firstName: string } | null }) {
  const { t } = useTranslation();
  const phone = useSupportPhone();
  return (
    <header className="site-header">
      <Link to="/" className="site-header__brand">
        <img
          src={`/logos/${theme}.svg`}
          alt={THEME_LOGO_TEXT[theme]}
          width={180}
          height={48}
          className="site-header__logo"
        />
      </Link>
      <p className="site-header__support">
        {t("frame.supportPrompt")} <a href={telHref(phone)}>{phone}</a>
      </p>
      <p className="site-header__account">
        {customer ? (
          <Link to="/account">{t("header.myAccount")}</Link>
        ) : (
          <Link to="/account/sign-in">{t("header.signIn")}</Link>
        )}
      </p>
    </header>
  );
}
