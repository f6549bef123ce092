import jsQR from "jsqr";
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { ticketCodeOf } from "~/ticketing/ticket-code";
import { barcodeSvg, newBarcode } from "~/use-cases/barcode.server";
import { cameraProblemOf } from "~/components/camera-scan";

// The door's camera (components/camera-scan.tsx) reads an e-ticket's QR code and sends what it
// read as the typed code: what the e-ticket's picture carries must come back, through the decoder
// a browser without its own (Safari) uses, as the very code the typed form accepts.

const PIXELS_PER_MODULE = 6;

/** An RGBA picture of a QR code, white with black modules, as a camera frame would give jsQR. */
function picture(size: number, dark: (row: number, column: number) => boolean) {
  const width = size * PIXELS_PER_MODULE;
  const data = new Uint8ClampedArray(width * width * 4).fill(255);
  for (let y = 0; y < width; y++)
    for (let x = 0; x < width; x++)
      if (dark(Math.floor(y / PIXELS_PER_MODULE), Math.floor(x / PIXELS_PER_MODULE)))
        data.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
  return { data, width };
}

/**
 * The modules the e-ticket's SVG draws (use-cases/barcode.server.ts): one path of horizontal
 * strokes through the middle of each row ("M4 4.5h7m3 0h1…"), over a white square of the viewBox.
 */
function modulesOfSvg(svg: string) {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const strokes = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1] ?? "";
  const dark = new Set<string>();
  let x = 0;
  let y = 0;
  for (const [, command, args] of strokes.matchAll(/([MmHh])([^MmHh]*)/g)) {
    const numbers = args!
      .trim()
      .split(/[\s,]+/)
      .map(Number);
    if (command === "M") [x, y] = numbers as [number, number];
    else if (command === "m") [x, y] = [x + numbers[0]!, y + numbers[1]!];
    else if (command === "h") {
      for (let column = x; column < x + numbers[0]!; column++) dark.add(`${Math.floor(y)},${column}`);
      x += numbers[0]!;
    } else throw new Error(`an SVG command this reader does not know: ${command}`);
  }
  return { size, dark: (row: number, column: number) => dark.has(`${row},${column}`) };
}

const decode = ({ data, width }: ReturnType<typeof picture>) =>
  jsQR(data, width, width, { inversionAttempts: "dontInvert" })?.data;

describe("scanning an e-ticket at the door", () => {
  it("reads from the e-ticket's own QR code the code the typed form takes", async () => {
    for (let draw = 0; draw < 5; draw++) {
      const code = newBarcode();
      const { size, dark } = modulesOfSvg(await barcodeSvg(code));
      expect(size).toBeGreaterThan(20);
      const text = decode(picture(size, dark));
      expect(text).toBe(code);
      expect(ticketCodeOf(text!)).toBe(code);
    }
  });

  it("reads another QR code's text, which is no ticket's code: the camera looks on", () => {
    for (const text of ["https://example.com/e-tickets/abc", "23456789ABCDEFGHJKL", "hello"]) {
      const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
      const modules = qr.modules.size;
      const inside = (at: number) => at >= 0 && at < modules;
      // The same quiet zone of four modules as the e-ticket's.
      const read = decode(
        picture(modules + 8, (row, column) =>
          Boolean(inside(row - 4) && inside(column - 4) && qr.modules.get(row - 4, column - 4)),
        ),
      );
      expect(read).toBe(text);
      expect(ticketCodeOf(read!)).toBeNull();
    }
  });

  it("tells a refused camera from a missing one, and from one that would not start", () => {
    const refusal = (name: string) => new DOMException("camera", name);
    expect(cameraProblemOf(refusal("NotAllowedError"))).toBe("denied");
    expect(cameraProblemOf(refusal("SecurityError"))).toBe("denied");
    expect(cameraProblemOf(refusal("NotFoundError"))).toBe("absent");
    expect(cameraProblemOf(refusal("OverconstrainedError"))).toBe("absent");
    expect(cameraProblemOf(refusal("NotReadableError"))).toBe("failed");
    expect(cameraProblemOf(refusal("AbortError"))).toBe("failed");
    expect(cameraProblemOf(new TypeError("getUserMedia"))).toBe("unsupported");
    expect(cameraProblemOf(refusal("NotSupportedError"))).toBe("unsupported");
    // Anything else: the camera could not be used.
    expect(cameraProblemOf(new Error("odd"))).toBe("failed");
    expect(cameraProblemOf("odd")).toBe("failed");
    expect(cameraProblemOf(null)).toBe("failed");
  });
});
