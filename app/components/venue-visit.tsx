import { useTranslation } from "react-i18next";

/** A venue's address as one line, for a map search. */
export function addressQuery(name: string, lines: string[]): string {
  return [name, ...lines].join(", ");
}

/** A plain link to OpenStreetMap's search for the address: no map is embedded, nothing is loaded. */
export function mapHref(name: string, lines: string[]): string {
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(addressQuery(name, lines))}`;
}

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
