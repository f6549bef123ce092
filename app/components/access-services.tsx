import { useTranslation } from "react-i18next";
import type { AccessServiceView } from "~/views/access-services";

/**
 * "Access: CC Captioned, AD Audio described": each service's words, worded on the server, after
 * its mark. The mark is for the eye only (aria-hidden): a screen reader hears the words once. Text
 * rather than a picture, so a high-contrast theme shows it as it shows words; a text browser, which
 * shows no styles, puts it in brackets ("[AD] Audio described") so it reads as a sign, not a word.
 */
export function AccessServices({ services, className }: { services: AccessServiceView[]; className?: string }) {
  const { t } = useTranslation();
  return (
    <span className={className}>
      {t("access.servicesLabel")}{" "}
      {services.map((service, index) => (
        // The comma ends the service before it, so no reading puts a space before it.
        <span key={service.service}>
          {index > 0 ? " " : null}
          <span className="access-service">
            <span className="access-mark" aria-hidden="true">
              <span className="visually-hidden">[</span>
              {service.mark}
              <span className="visually-hidden">]</span>
            </span>{" "}
            {service.words}
            {index < services.length - 1 ? "," : null}
          </span>
        </span>
      ))}
    </span>
  );
}
