import type { SupportPhoneHandle } from "./support-phone";

// Its own module, not support-phone.ts's: only the venue's pages use it, and support-phone.ts is
// in the script of every page (the header), the payment page's 120 KB budget included.

/**
 * The handle of a page that belongs to one venue (show, calendar, tickets, venue): its loader's
 * `venuePhone`, the catalogue's number for that venue. From the page's data, so a navigation with
 * script shows it at once, as a page loaded whole does.
 */
export const venuePhoneHandle: Required<SupportPhoneHandle> = {
  supportPhone: (data) => (data as { venuePhone?: string } | undefined)?.venuePhone,
};
