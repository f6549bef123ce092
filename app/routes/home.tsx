import { useTranslation } from "react-i18next";

// The shows list. The catalogue arrives with the ticketing engine; until then the honest answer
// is that nothing is on sale.
export const handle = { titleKey: "home.title" };

export default function Home() {
  const { t } = useTranslation();
  return (
    <>
      <h1>{t("home.title")}</h1>
      <p className="empty-state">{t("home.empty")}</p>
    </>
  );
}
