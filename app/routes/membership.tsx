import { useTranslation } from "react-i18next";

export const handle = { titleKey: "membership.title" };

export default function Membership() {
  const { t } = useTranslation();
  return (
    <>
      <h1>{t("membership.title")}</h1>
      <p className="empty-state">{t("membership.empty")}</p>
    </>
  );
}
