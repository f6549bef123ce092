import { describe, expect, it } from "vitest";
import { htmlSplicer } from "~/web/spliced-html.server";

const encode = (text: string) => new TextEncoder().encode(text);

/**
 * A page as its stream passes it on: `page` with each {n} standing for the marker of splice n,
 * its bytes cut at `cuts` (byte offsets) into the chunks the stream is given.
 */
function through(page: string, splices: string[][], cuts: number[] = []) {
  const splicer = htmlSplicer();
  const markers = splices.map((parts) => splicer.sink.add(parts.map(encode)));
  const bytes = Buffer.from(page.replace(/\{(\d+)\}/g, (_, n: string) => markers[Number(n)]!));
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...splicer.take(bytes.subarray(from, cut)));
    from = cut;
  }
  out.push(splicer.end());
  return { html: Buffer.concat(out).toString("utf8"), length: bytes.length };
}

describe("splicing held HTML into a page's stream", () => {
  const page = '<main><div class="plan">{0}</div><p>£5 and <!-- a comment --></p><div>{1}</div></main>';
  const splices = [["<label>Seat 1 £5</label>", "<label>Seat 2</label>"], ["<span>row B</span>"]];
  const expected =
    '<main><div class="plan"><label>Seat 1 £5</label><label>Seat 2</label></div><p>£5 and <!-- a comment --></p><div><span>row B</span></div></main>';

  it("puts each splice's bytes where its marker was", () => {
    expect(through(page, splices).html).toBe(expected);
  });

  it("finds a marker split between chunks, wherever the split falls", () => {
    const { length } = through(page, splices);
    for (let at = 1; at < length; at += 1) {
      expect(through(page, splices, [at]).html, `split at byte ${at}`).toBe(expected);
      if (at + 5 < length) expect(through(page, splices, [at, at + 5]).html, `three chunks at ${at}`).toBe(expected);
    }
  });

  it("leaves a marker that names no splice, and text that only looks like a marker's start, as they are", () => {
    expect(through("<p><!--spliced:7--> and <!--spliced:x--></p>", []).html).toBe(
      "<p><!--spliced:7--> and <!--spliced:x--></p>",
    );
    expect(through("<p>ends <!--spli", []).html).toBe("<p>ends <!--spli");
    expect(through("<p>ends <!--spliced but not</p>", [], [12]).html).toBe("<p>ends <!--spliced but not</p>");
    expect(through("<p>{0} then <!--spliced:0</p>", [["x"]], [20]).html).toBe("<p>x then <!--spliced:0</p>");
  });
});
