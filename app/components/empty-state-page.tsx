import { useTranslation } from "react-i18next";

/** A page with nothing to offer yet: its title and an honest sentence saying so. */
export function EmptyStatePage({ titleKey, messageKey }: { titleKey: string; messageKey: string }) {
  const { t } = useTranslation();
  return (
    <>
      <h1>{t(titleKey)}</h1>
      <p className="empty-state">{t(messageKey)}</p>
    </>
  );
}
