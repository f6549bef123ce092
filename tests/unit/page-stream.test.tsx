// @vitest-environment node
import { once } from "node:events";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { coalescedStream } from "~/entry.server";
import { htmlSplicer } from "~/web/spliced-html.server";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("the page's stream", () => {
  it("ends a finished page without closing it, and closes when the response is given up", async () => {
    const body = coalescedStream(htmlSplicer());
    let closed = false;
    body.on("close", () => {
      closed = true;
    });
    const chunks: Buffer[] = [];
    body.on("data", (chunk: Buffer) => chunks.push(chunk));
    const ended = once(body, "end");
    const { pipe } = renderToPipeableStream(<p>A whole page</p>, {
      onAllReady() {
        pipe(body);
      },
    });
    await ended;
    await nextTurn();
    expect(Buffer.concat(chunks).toString("utf8")).toBe("<p>A whole page</p>");
    // React's pipe takes "close" for a buyer who went away, and would abort a finished render.
    expect(closed).toBe(false);
    // A response given up (the buyer left mid-page) destroys it, and React hears that.
    body.destroy();
    await nextTurn();
    expect(closed).toBe(true);
  });
});
