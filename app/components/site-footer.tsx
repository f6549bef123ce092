import { Link, useLocation, useMatches } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LEGAL_DOCUMENTS } from "~/legal";
import { LANGUAGES } from "~/i18n/languages";
import { pathWithDeclaredQuery } from "~/urls/page-query";

export function SiteFooter() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const matches = useMatches();
  const withLanguage = (language: string) =>
    pathWithDeclaredQuery(location.pathname, location.search, matches, { lng: language });
  return (
    <footer className="site-footer">
      <nav aria-label={t("frame.legalNav")}>
        <ul className="site-footer__links">
          {LEGAL_DOCUMENTS.map((document) => (
            <li key={document}>
              <Link to={`/legal/${document}`}>{t(`legal.${document}.title`)}</Link>
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
    </footer>
  );
}
