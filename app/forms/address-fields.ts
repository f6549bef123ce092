// A postal address's fields, in the order forms show them and error summaries list them: the
// checkout's contact details and the account's details share them. Free of zod, for the pages.

export const ADDRESS_FIELDS = ["addressLine1", "addressLine2", "city", "state", "postcode", "zip"] as const;
