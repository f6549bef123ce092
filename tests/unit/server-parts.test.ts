import { Writable } from "node:stream";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLogger, maskEmail } from "~/logging/logger.server";
import { createPolyfillBundler } from "~/web/polyfills.server";
import { ROOT } from "../support/app";

describe("polyfill bundles", () => {
  const bundler = createPolyfillBundler(join(ROOT, "public/polyfills"));

  it("holds only what was asked for, from our own files", () => {
    const fetchOnly = bundler.bundle("fetch");
    expect(fetchOnly).toContain("fetch");
    expect(fetchOnly.length).toBeGreaterThan(1000);
    const both = bundler.bundle("fetch,String.prototype.padStart");
    expect(both.length).toBeGreaterThan(fetchOnly.length);
  });

  it("ignores unknown and unfillable features rather than failing", () => {
    expect(bundler.bundle("Intl,../../etc/passwd,")).toBe(";\n");
  });
});

describe("logging", () => {
  it("never writes cookies, card data or a full email", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger("info", sink);
    logger.info(
      { req: { headers: { cookie: "session=abc" } }, payment: { cardNumber: "4111111111111111", cvv: "123" } },
      "x",
    );
    const line = lines.join("");
    expect(line).not.toContain("session=abc");
    expect(line).not.toContain("4111111111111111");
    expect(line).not.toContain('"123"');
    expect(maskEmail("jane.doe@example.com")).toBe("j***@example.com");
    expect(maskEmail("nonsense")).toBe("[redacted]");
  });
});
