import { useTranslation } from "react-i18next";
import type { AccessServiceView } from "~/views/access-services";

/**
 * "Access: CC Captioned, AD Audio described": each service's words, worded on the server, after
 * its mark. The mark is for the eye only (aria-hidden): a screen reader hears the words once. Text
 * rather than a picture, so a text browser and a high-contrast theme show it as they show words.
 */
export function AccessServices({ services, className }: { services: AccessServiceView[]; className?: string }) {
  const { t } = useTranslation();
  return (
    <span className={className}>
      {t("access.servicesLabel")}{" "}
      {services.map((service, index) => (
        <span key={service.service} className="access-service">
          {index > 0 ? ", " : null}
          <span className="access-mark" aria-hidden="true">
            {service.mark}
          </span>{" "}
          {service.words}
        </span>
      ))}
    </span>
  );
}
