import { randomBytes } from "node:crypto";
import QRCode from "qrcode";

// 32 symbols without 0/O or 1/I, so a code read aloud or typed in at the door cannot be misread;
// all are in the QR alphanumeric set, so 20 of them still fit the smallest (21×21) code at level M.
export const BARCODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
export const BARCODE_LENGTH = 20;

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
