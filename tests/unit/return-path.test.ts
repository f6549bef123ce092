import { validateHeaderValue } from "node:http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeReturnPath } from "~/urls/return-path";

// The page a buyer is on when the redirect arrives: a browser resolves Location against it.
const PAGE = "https://box-office.example/account/sign-in?redirectTo=x";
const ORIGIN = "https://box-office.example";

// What open redirects are made of, so the generator tries them far more often than chance would.
const PIECES = [
  "/",
  "//",
  "\\",
  "/\\",
  "\t",
  "\n",
  "\r",
  "\0",
  " ",
  "\u3000",
  "\u00a0",
  "\u2028",
  "\ufeff",
  "\ud800",
  "\udfff",
  "\u{1f3ad}",
  ".",
  "..",
  "./",
  "%2e",
  "%2f",
  "%5c",
  "%09",
  "@",
  ":",
  "?",
  "#",
  "evil.example",
  "https:",
  "javascript:",
  "[",
  "]",
];

const piece = fc.oneof(
  fc.constantFrom(...PIECES),
  fc.string({ unit: "binary" }),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
);
const anyText = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));
// Most values a form sends start with "/", and those are the ones that need the parser.
const returnValue = fc.oneof(
  anyText,
  anyText.map((text) => `/${text}`),
);

describe("safeReturnPath", () => {
  it.each([
    ["/checkout/payment", "/checkout/payment"],
    ["/account?saved=details#top", "/account?saved=details#top"],
    ["/%E3%80%80/x", "/%E3%80%80/x"],
    ["/\u3000/x", "/%E3%80%80/x"],
    ["/\t/evil.example/", "/"],
    ["/\\evil.example", "/"],
    ["//evil.example/", "/"],
    ["/.//evil.example/", "/"],
    ["/%2e//evil.example/", "/"],
    ["https://evil.example/", "/"],
    ["javascript:alert(1)", "/"],
    [" /account", "/"],
    ["", "/"],
  ])("%j → %j", (given, expected) => {
    expect(safeReturnPath(given)).toBe(expected);
  });

  it("gives the caller's fallback for anything it will not keep, and for what is not text", () => {
    expect(safeReturnPath("//evil.example/", "")).toBe("");
    expect(safeReturnPath(null, "/checkout/verify")).toBe("/checkout/verify");
    expect(safeReturnPath(undefined)).toBe("/");
  });

  it("whatever it is given: never throws, never leaves the site, always a valid Location header", () => {
    fc.assert(
      fc.property(returnValue, (value) => {
        const path = safeReturnPath(value);
        expect(new URL(path, PAGE).origin).toBe(ORIGIN);
        expect(path).toMatch(/^[\x21-\x7e]*$/);
        expect(() => validateHeaderValue("Location", path)).not.toThrow();
        expect(() => new Headers({ Location: path })).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });

  it("what it keeps, it keeps as it is: a second pass changes nothing", () => {
    fc.assert(
      fc.property(returnValue, (value) => {
        const path = safeReturnPath(value);
        expect(safeReturnPath(path)).toBe(path);
      }),
      { numRuns: 2000 },
    );
  });
});
