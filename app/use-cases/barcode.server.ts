import { randomBytes } from "node:crypto";
import QRCode from "qrcode";
import { BARCODE_ALPHABET, BARCODE_LENGTH } from "~/ticketing/ticket-code";

// The alphabet and length are the domain's (ticketing/ticket-code.ts), where the door reads codes.
export { BARCODE_ALPHABET, BARCODE_LENGTH };

/** A fresh e-ticket barcode: 100 random bits, unguessable, unlike the order number or seat. */
export function newBarcode(): string {
  const bytes = randomBytes(BARCODE_LENGTH);
  let value = "";
  // 256 is a multiple of 32, so taking the low five bits keeps every symbol equally likely.
  for (const byte of bytes) value += BARCODE_ALPHABET.charAt(byte & 31);
  return value;
}

/**
 * The barcode as a QR code in SVG. Only a viewBox, no width or height, so the page's CSS sizes it;
 * the quiet zone (4 modules) is part of the image, so a scanner finds it on any background.
 */
export async function barcodeSvg(value: string): Promise<string> {
  const svg = await QRCode.toString(value, {
    type: "svg",
    errorCorrectionLevel: "M",
    margin: 4,
    color: { dark: "#000000", light: "#ffffff" },
  });
  return svg.trim();
}
