// A venue's address as the catalogue keeps it (lines, then city, region and postcode), laid out
// the one way the venue pages, the order's pages, its email and its calendar entry all show it.

export interface VenueAddressParts {
  address_lines: string;
  city: string;
  region: string | null;
  postcode: string;
}

/** The address's lines, the last one "city region postcode" as a letter would have it. */
export function venueAddressLines(venue: VenueAddressParts): string[] {
  return [
    ...venue.address_lines.split("\n").filter(Boolean),
    [venue.city, venue.region, venue.postcode].filter(Boolean).join(" "),
  ];
}

/** A venue's address as one line, for a map search. */
export function addressQuery(name: string, lines: string[]): string {
  return [name, ...lines].join(", ");
}

/** A plain link to OpenStreetMap's search for the address: no map is embedded, nothing is loaded. */
export function mapHref(name: string, lines: string[]): string {
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(addressQuery(name, lines))}`;
}
