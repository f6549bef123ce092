import { describe, expect, it } from "vitest";
import { randomToken } from "~/web/random-tokens.server";

describe("randomToken", () => {
  it("encodes the number of bytes asked for", () => {
    expect(Buffer.from(randomToken(16, "base64"), "base64")).toHaveLength(16);
    expect(randomToken(32, "base64url")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(randomToken(10_000, "base64url"), "base64url")).toHaveLength(10_000);
  });

  it("never hands out the same bytes twice, across many pools", () => {
    // 8,192-byte pools: 3,000 tokens of 16 bytes go through six of them.
    const tokens = Array.from({ length: 3000 }, () => randomToken(16, "base64"));
    expect(new Set(tokens).size).toBe(tokens.length);
    // Bytes look random, not zero-filled: each of the 256 values appears.
    const bytes = Buffer.concat(tokens.map((token) => Buffer.from(token, "base64")));
    expect(new Set(bytes).size).toBe(256);
  });
});
