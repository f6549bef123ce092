import { describe, expect, it } from "vitest";
import { documentEndMover, withoutNul } from "~/entry.server";

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

describe("documentEndMover", () => {
  const through = (chunks: string[]) => {
    const mover = documentEndMover();
    const out = chunks.map((chunk) => mover.take(Buffer.from(chunk)).toString());
    return out.join("") + mover.end().toString();
  };

  it("moves what streams after the document's end inside its body", () => {
    expect(through(["<html><body><main>…</main></body></html>", "<script>late()</script>"])).toBe(
      "<html><body><main>…</main><script>late()</script></body></html>",
    );
  });

  it("finds the closing tags when a chunk boundary splits them", () => {
    expect(through(["<html><body><p>x</p></bo", "dy></ht", "ml><script>a()</script>", "<script>b()</script>"])).toBe(
      "<html><body><p>x</p><script>a()</script><script>b()</script></body></html>",
    );
  });

  it("leaves a response without them as it was", () => {
    expect(through(["plain ", "text </body"])).toBe("plain text </body");
  });
});
