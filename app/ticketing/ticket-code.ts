// An e-ticket's code: what its QR code carries and what is printed under it. The domain's, so the
// door reads a typed code by the same alphabet the codes are made from (use-cases/barcode.server.ts).

// 32 symbols without 0/O or 1/I, so a code read aloud or typed in at the door cannot be misread;
// all are in the QR alphanumeric set, so 20 of them still fit the smallest (21×21) code at level M.
export const BARCODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
export const BARCODE_LENGTH = 20;

/** Longer than anyone types a code with spaces between its groups: not worth reading further. */
const TYPED_MAX_LENGTH = 100;

// Whatever a person puts between groups of characters: spaces of every kind, hyphens and the dashes
// a phone's keyboard or a copied e-ticket may turn them into.
const SEPARATORS = /[\s\u002d\u2010-\u2015\u2212\u00ad\u200b]+/gu;

/**
 * The code a person typed or a scanner read, as it is stored (decision 0060): compatibility forms
 * folded (full-width letters from some keyboards), separators removed, upper case. Null when what
 * is left cannot be a code (wrong length, or a character the alphabet does not have), so nothing
 * is looked up for it. No look-alike is mapped: the alphabet has none of 0, O, 1 or I, so there is
 * nothing to map them to.
 */
export function ticketCodeOf(typed: string): string | null {
  if (typed.length > TYPED_MAX_LENGTH) return null;
  const code = typed.normalize("NFKC").replace(SEPARATORS, "").toUpperCase();
  if (code.length !== BARCODE_LENGTH) return null;
  for (const symbol of code) if (!BARCODE_ALPHABET.includes(symbol)) return null;
  return code;
}
