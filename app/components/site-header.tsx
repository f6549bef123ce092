import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { THEME_LOGO_TEXT } from "~/themes/themes";
import { telHref, useSupportPhone } from "./support-phone";

/** What the frame shows of the brand (the root loader works it out from the configuration and theme). */
export interface FrameBrand {
  /** The configured logo, or the theme's; or the configured name in words (the default theme's logo says "Box Office"). */
  logo: { src: string; alt: string } | { wordmark: string };
  /**
   * Who sells the tickets and how to reach them, for the footer of every page: the legal entity,
   * the seller's own phone (the header's may be a venue's) and email, as [wording key, value,
   * link]; those configured only.
   */
  seller: [key: string, value: string, href: string | null][];
  /** The footer's links, [path, wording key]: access performances, then the legal documents. */
  links: [href: string, key: string][];
}

/** A link of the frame: Remix's own on the site's pages, a plain one where no router runs (the waiting room). */
export type FrameLink = React.ComponentType<{ to: string; className?: string; children: React.ReactNode }>;

/** The site's pages' frame link: Remix's, which navigates with script. */
export const RemixFrameLink: FrameLink = (props) => <Link {...props} />;

export function SiteHeader({ brand, customer }: { brand: FrameBrand | null; customer: { firstName: string } | null }) {
  return <SiteHeaderView brand={brand} customer={customer} phone={useSupportPhone()} link={RemixFrameLink} />;
}

/** The header's markup, from what it shows: the site's pages and the waiting room's write the same. */
export function SiteHeaderView({
  brand,
  customer,
  phone,
  link: FrameLink,
}: {
  brand: FrameBrand | null;
  customer: { firstName: string } | null;
  phone: string;
  link: FrameLink;
}) {
  const { t } = useTranslation();
  // No root data (its loader failed): the default theme's logo.
  const logo = brand?.logo ?? { src: "/logos/default.svg", alt: THEME_LOGO_TEXT.default };
  return (
    <header className="site-header">
      <FrameLink to="/" className="site-header__brand">
        {"wordmark" in logo ? (
          <span className="site-header__wordmark">{logo.wordmark}</span>
        ) : (
          <img src={logo.src} alt={logo.alt} width={180} height={48} className="site-header__logo" />
        )}
      </FrameLink>
      <p className="site-header__support">
        {t("frame.supportPrompt")} <a href={telHref(phone)}>{phone}</a>
      </p>
      <p className="site-header__account">
        {customer ? (
          <FrameLink to="/account">{t("header.myAccount")}</FrameLink>
        ) : (
          <FrameLink to="/account/sign-in">{t("header.signIn")}</FrameLink>
        )}
      </p>
    </header>
  );
}
