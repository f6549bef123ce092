// The six legal documents every page links to (spec section 2). Their text lives in the locale
// files so a venue's wording set can replace it.
export const LEGAL_DOCUMENTS = [
  "privacy-policy",
  "cookie-policy",
  "terms-of-use",
  "terms-of-sale",
  "safety-and-security",
  "ticket-protection-terms",
] as const;

export type LegalDocument = (typeof LEGAL_DOCUMENTS)[number];
