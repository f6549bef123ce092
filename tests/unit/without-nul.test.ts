import { describe, expect, it } from "vitest";
import { withoutNul } from "~/entry.server";

describe("withoutNul", () => {
  it("drops the zero bytes React's stream leaves at a buffer's end, and keeps every character whole", () => {
    const pound = Buffer.from("£", "utf8");
    const chunk = Buffer.concat([Buffer.from("seat 12, "), Buffer.from([0, 0]), pound, Buffer.from("65.00")]);
    expect(withoutNul(chunk).toString("utf8")).toBe("seat 12, £65.00");
  });

  it("passes a chunk without NUL through as it is", () => {
    const chunk = Buffer.from("Stalls, row F, £65.00");
    expect(withoutNul(chunk)).toBe(chunk);
  });
});
