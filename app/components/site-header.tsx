import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { THEME_LOGO_TEXT, type ThemeName } from "~/themes/themes";
import { COMMON_NS } from "~/i18n/languages";
import { telHref, useSupportPhone } from "./support-phone";

/** What the frame shows of the configured brand (root loader). */
export interface FrameBrand {
  logoUrl: string | null;
  /** A brand name is configured: the default theme's "Box Office" wordmark gives way to it. */
  named: boolean;
  /** The seller's own number, in the footer of every page beside its name (the header's may be a venue's). */
  phone: string | null;
  email: string | null;
  legalEntity: string | null;
}

export function SiteHeader({
  theme,
  brand,
  customer,
}: {
  theme: ThemeName;
  brand: FrameBrand | null;
  customer: { firstName: string } | null;
}) {
  const { t } = useTranslation();
  const phone = useSupportPhone();
  // The deployment's name, not a venue's: the header is the seller's on every page.
  const name = t("brand.name", { ns: COMMON_NS });
  return (
    <header className="site-header">
      <Link to="/" className="site-header__brand">
        {brand?.logoUrl ? (
          <img src={brand.logoUrl} alt={name} height={48} className="site-header__logo" />
        ) : brand?.named && theme === "default" ? (
          // The default theme's logo is a generic "Box Office" wordmark: a named brand without a
          // logo of its own is written out instead. The venues' themes keep their venues' logos.
          <span className="site-header__wordmark">{name}</span>
        ) : (
          <img
            src={`/logos/${theme}.svg`}
            alt={THEME_LOGO_TEXT[theme]}
            width={180}
            height={48}
            className="site-header__logo"
          />
        )}
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
