import { useMatches } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** A route's say in which number a buyer should phone, from its loader's data. */
export interface SupportPhoneHandle {
  /** The venue's number; null: the page is with no venue (the deployment's number); undefined: no say. */
  supportPhone?: (data: unknown) => string | null | undefined;
}

/**
 * The number the page tells the buyer to phone: the deepest route's that has a say (a checkout
 * with a venue gives the venue's), else the wording set's, which is the deployment's unless the
 * page is a venue's. The header and the page's own text use the same one, so they never differ.
 */
export function useSupportPhone(): string {
  const { t } = useTranslation();
  const matches = useMatches();
  for (const match of [...matches].reverse()) {
    const phone = (match.handle as SupportPhoneHandle | undefined)?.supportPhone?.(match.data);
    if (phone !== undefined) return phone ?? t("venue.supportPhone");
  }
  return t("venue.supportPhone");
}

/** A tel: link's address for a number as it is written ("020 7946 0101", "(212) 555-0103"). */
export const telHref = (phone: string) => `tel:${phone.replace(/\s+/g, "")}`;
