// What the contact details step keeps in the basket and copies to the order. Never card data.

export interface PostalAddress {
  line1: string;
  line2: string;
  city: string;
  /** A UK postcode (upper case, one space) or a US ZIP code. */
  postcode: string;
  /** The US state's two-letter code; null in the UK. */
  state: string | null;
  country: "GB" | "US";
}

export interface ContactDetails {
  firstName: string;
  lastName: string;
  email: string;
  /** E.164. */
  phone: string;
  address: PostalAddress | null;
  /** The venue's questions, by question id. */
  answers: Record<string, string>;
  contactConsent: boolean;
}

export function parseContactDetails(json: string | null): ContactDetails | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as ContactDetails;
  } catch {
    return null;
  }
}

export function fullName(contacts: Pick<ContactDetails, "firstName" | "lastName">): string {
  return `${contacts.firstName} ${contacts.lastName}`.trim();
}
