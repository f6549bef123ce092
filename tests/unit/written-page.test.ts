import { describe, expect, it } from "vitest";
import { writtenPage } from "~/entry.server";
import { htmlSplicer } from "~/web/spliced-html.server";

// The page as entry.server sends it, from React's HTML (decision 0036).
const page = (html: string, splices: string[] = []) => {
  const splicer = htmlSplicer();
  const markers = splices.map((text) => splicer.sink.add([Buffer.from(text)]));
  const filled = markers.reduce((at, marker, index) => at.replace(`{${index}}`, marker), html);
  return Buffer.concat(writtenPage(filled, splicer)).toString("utf8");
};

describe("writtenPage", () => {
  it("puts the doctype first and moves what Remix writes after the document's end inside its body", () => {
    expect(page("<html><body><main>…</main></body></html><script>data()</script><script>close()</script>")).toBe(
      "<!DOCTYPE html><html><body><main>…</main><script>data()</script><script>close()</script></body></html>",
    );
  });

  it("moves only the last closing tags: a page quoting them in its text keeps the quote", () => {
    expect(page("<html><body><pre>&lt;/body&gt;</pre><p></body></html></p></body></html><script>a()</script>")).toBe(
      "<!DOCTYPE html><html><body><pre>&lt;/body&gt;</pre><p></body></html></p><script>a()</script></body></html>",
    );
  });

  it("splices the bytes the render left behind markers, in UTF-8", () => {
    expect(page("<html><body><div>{0}</div><div>{1}</div></body></html>", ["Stalls, £65.00", "<b>row F</b>"])).toBe(
      "<!DOCTYPE html><html><body><div>Stalls, £65.00</div><div><b>row F</b></div></body></html>",
    );
  });

  it("leaves a page without the closing tags as it was, after the doctype", () => {
    expect(page("plain text </body")).toBe("<!DOCTYPE html>plain text </body");
  });
});
