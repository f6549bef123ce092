import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { BARCODE_ALPHABET, BARCODE_LENGTH, barcodeSvg, newBarcode } from "~/use-cases/barcode.server";

// A barcode is the whole of a ticket's admission: it must be unguessable, unique in practice, free
// of characters a steward could misread, and small enough to scan from a phone held at the door.

/**
 * Enough of an XML check for this markup: every tag is either self-closing or closed in order,
 * every attribute value is quoted, and there is no text between tags (a QR code has none).
 */
function isWellFormed(markup: string): boolean {
  const open: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<>]*")*)\s*(\/?)>/y;
  let at = 0;
  while (at < markup.length) {
    tag.lastIndex = at;
    const match = tag.exec(markup);
    if (!match) return false;
    const [whole, closing, name, , selfClosing] = match;
    if (closing) {
      if (open.pop() !== name) return false;
    } else if (!selfClosing) open.push(name!);
    at += whole.length;
  }
  return open.length === 0;
}

describe("e-ticket barcodes", () => {
  it("are 20 characters of the unambiguous alphabet, and unique over many draws", () => {
    const draws = Array.from({ length: 10_000 }, () => newBarcode());
    expect(new Set(draws).size).toBe(draws.length);
    for (const value of draws) expect(value).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{20}$/);
    expect(BARCODE_LENGTH).toBe(20);
    expect(BARCODE_ALPHABET).toHaveLength(32);
    expect(BARCODE_ALPHABET).not.toMatch(/[01IO]/);
  });

  it("uses every symbol of the alphabet about equally (a biased draw is easier to guess)", () => {
    const counts = new Map<string, number>();
    for (let index = 0; index < 2_000; index += 1) {
      for (const char of newBarcode()) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(counts.size).toBe(32);
    // 40,000 symbols over 32: 1,250 each on average; a fair draw stays well within ±20%.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(1_000);
      expect(count).toBeLessThan(1_500);
    }
  });

  it("fits the smallest QR code at level M, so phones scan it from a distance", () => {
    const value = newBarcode();
    const code = QRCode.create(value, { errorCorrectionLevel: "M" });
    expect(code.version).toBe(1);
    expect(code.modules.size).toBe(21);
  });

  it("draws a well-formed SVG that CSS can size: a viewBox with the quiet zone, no width or height", async () => {
    const value = newBarcode();
    const svg = await barcodeSvg(value);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.endsWith("</svg>")).toBe(true);
    // 21 modules plus a 4-module margin each side.
    expect(svg).toMatch(/viewBox="0 0 29 29"/);
    const openTag = svg.slice(0, svg.indexOf(">") + 1);
    expect(openTag).not.toMatch(/\swidth=|\sheight=/);
    expect(svg).toContain('stroke="#000000"');
    expect(svg).toContain('fill="#ffffff"');

    expect(isWellFormed(svg)).toBe(true);
  });

  it("draws a different picture for a different value (nothing is cached)", async () => {
    const [first, second] = [newBarcode(), newBarcode()];
    expect(await barcodeSvg(first)).not.toBe(await barcodeSvg(second));
    expect(await barcodeSvg(first)).toBe(await barcodeSvg(first));
  });
});
