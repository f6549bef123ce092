import { describe, expect, it } from "vitest";
import { renderPage } from "~/entry.server";

// React 18 pads a streamed chunk with NUL bytes when a short multi-byte text falls on its 2 KB
// boundary (facebook/react#31134): a buyer's page once carried one before a price ("\0£5.00"),
// which the Nu checker refused. Prices in pounds at every offset around the boundary.
describe("a page as the server writes it", () => {
  it("carries no NUL byte wherever a price in pounds falls, and every price whole", async () => {
    for (let offset = 2000; offset < 2100; offset += 1) {
      const html = await renderPage(
        <div>
          <p>{"a".repeat(offset)}</p>
          {Array.from({ length: 400 }, (_, index) => (
            <span key={index}>£5.00</span>
          ))}
        </div>,
        (error) => {
          throw error;
        },
      );
      expect(html).not.toContain("\u0000");
      expect(html.match(/<span>£5\.00<\/span>/g)).toHaveLength(400);
    }
  });
});
