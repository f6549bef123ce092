import { Link, useLocation, useMatches } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LANGUAGES } from "~/i18n/languages";
import { pathWithDeclaredQuery } from "~/urls/page-query";
import type { FrameBrand } from "./site-header";

export function SiteFooter({ brand }: { brand: FrameBrand | null }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const matches = useMatches();
  const withLanguage = (language: string) =>
    pathWithDeclaredQuery(location.pathname, location.search, matches, { lng: language });
  return (
    <footer className="site-footer">
      <nav aria-label={t("frame.legalNav")}>
        <ul className="site-footer__links">
          {/* The root loader's list (decision 0050): none on the page its failure leaves. */}
          {brand?.links.map(([href, key]) => (
            <li key={href}>
              <Link to={href}>{t(key)}</Link>
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
