import { useTranslation } from "react-i18next";
import { mapHref } from "~/views/venue-address";

/** A venue's address with the link to a map of it. */
export function VenueAddress({ name, lines, link }: { name: string; lines: string[]; link?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <address className="venue-address">
        {link ?? name}
        {lines.map((line) => (
          <span key={line}>
            <br />
            {line}
          </span>
        ))}
      </address>
      <p className="venue-map">
        <a href={mapHref(name, lines)} rel="external noopener">
          {t("venuePage.map", { venue: name })}
        </a>
      </p>
    </>
  );
}

/** What the catalogue says, in paragraphs as the operator wrote them (blank lines between). */
export function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .map((paragraph) => paragraph.trim())
        .filter(Boolean)
        .map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
    </>
  );
}
