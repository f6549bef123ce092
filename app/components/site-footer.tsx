import { useLocation, useMatches } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LANGUAGES } from "~/i18n/languages";
import { pathWithDeclaredQuery } from "~/urls/page-query";
import { RemixFrameLink, type FrameBrand, type FrameLink } from "./site-header";

export function SiteFooter({ brand }: { brand: FrameBrand | null }) {
  const location = useLocation();
  const matches = useMatches();
  return (
    <SiteFooterView
      brand={brand}
      link={RemixFrameLink}
      withLanguage={(language) => pathWithDeclaredQuery(location.pathname, location.search, matches, { lng: language })}
    />
  );
}

/** The footer's markup, given this page's address in each language: shared with the waiting room's page. */
export function SiteFooterView({
  brand,
  link: FrameLink,
  withLanguage,
}: {
  brand: FrameBrand | null;
  link: FrameLink;
  withLanguage: (language: string) => string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <footer className="site-footer">
      <nav aria-label={t("frame.legalNav")}>
        <ul className="site-footer__links">
          {/* The root loader's list (decision 0050): none on the page its failure leaves. */}
          {brand?.links.map(([href, key]) => (
            <li key={href}>
              <FrameLink to={href}>{t(key)}</FrameLink>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label={t("frame.languageNav")}>
        <ul className="site-footer__languages">
          {LANGUAGES.map((language) => (
            <li key={language}>
              {language === i18n.language ? (
                <span aria-current="true">{t(`languages.${language}`)}</span>
              ) : (
                <a href={withLanguage(language)} lang={language} hrefLang={language}>
                  {t(`languages.${language}`)}
                </a>
              )}
            </li>
          ))}
        </ul>
      </nav>
      {brand?.seller.length ? (
        // Who sells the tickets and how to reach them, on every page: a venue's page gives the
        // venue's number in the header, and the seller's stays here (decision 0043).
        <p className="site-footer__seller">
          {brand.seller.map(([key, value, href]) => (
            <span key={key}>
              {t(key, { value })}
              {href ? (
                <>
                  {" "}
                  <a href={href}>{value}</a>
                </>
              ) : null}
            </span>
          ))}
        </p>
      ) : null}
    </footer>
  );
}
