import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { htmlDriver, parseRefresh, type KnownFinding } from "../support/html-driver";

// The driver's promises, on small hand-written pages: it sends what a browser without script
// would send, and each check it runs on a page fails a page that breaks it.

const page = (body: string, head = "") =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Test page</title>${head}</head>` +
  `<body><main><h1>Test page</h1>${body}</main></body></html>`;

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const PAGES: Record<string, string> = {
  "/form": page(`
    <form method="post" action="/echo">
      <input type="hidden" name="csrf" value="token-1">
      <label for="name">Your name</label> <input id="name" name="name" value="Jo">
      <label><input type="checkbox" name="news" value="yes"> Send me news</label>
      <label><input type="checkbox" name="terms" checked> I accept the terms</label>
      <label for="off">Switched off</label> <input id="off" name="off" value="x" disabled>
      <fieldset disabled><legend>Old</legend><label for="old">Old field</label> <input id="old" name="old" value="y"></fieldset>
      <label for="size">Size</label>
      <select id="size" name="size"><option value="s">Small</option><option value="m" selected>Medium</option><option value="l">Large</option></select>
      <fieldset><legend>Colour</legend>
        <label><input type="radio" name="colour" value="red"> Red</label>
        <label><input type="radio" name="colour" value="blue"> Blue</label>
      </fieldset>
      <label for="note">Note</label> <textarea id="note" name="note">line one</textarea>
      <button type="button" name="intent" value="nothing">Does nothing</button>
      <button name="intent" value="save">Save</button>
      <button name="intent" value="send">Send</button>
    </form>`),
  "/search": page(`
    <form action="/echo?stale=1">
      <label for="q">Search for</label> <input id="q" name="q" value="Hamlet">
      <button>Search</button>
    </form>`),
  "/owned": page(`
    <form id="f" method="post" action="/echo"><input type="hidden" name="inside" value="1"></form>
    <label for="outside">Outside</label> <input id="outside" name="outside" value="2" form="f">
    <label for="stray">Stray</label> <input id="stray" name="stray" value="3">
    <button form="f" name="go" value="yes">Go</button>`),
  "/links": page(`<p><a href="/echo?from=link">Read more</a></p>`),
  "/refresh": page(`<p>Still working</p>`, `<meta http-equiv="refresh" content="0; url=/echo?refreshed=1">`),
  "/redirect-form": page(`
    <form method="post" action="/redirect/303"><input type="hidden" name="a" value="1"><button>See other</button></form>
    <form method="post" action="/redirect/307"><input type="hidden" name="b" value="2"><button>Temporary</button></form>`),
  "/aria-only": page(
    `<form method="post" action="/echo"><input name="q" aria-label="Search"><button>Go</button></form>`,
  ),
  "/two-labels": page(
    `<form method="post" action="/echo"><label for="q">Search</label><label for="q">Find</label><input id="q" name="q"><button>Go</button></form>`,
  ),
  "/boxes": page(`
    <form method="post" action="/echo">
      <label><input type="checkbox" name="shown"> Shown box</label>
      <label><input type="radio" name="r" value="1"> Shown box</label>
      <label hidden><input type="checkbox" name="hidden"> Hidden box</label>
      <input type="checkbox" name="aria" aria-label="Named by ARIA">
      <label for="far">Labelled from afar</label> <p><input type="checkbox" id="far" name="far"></p>
      <span id="words">Named by words</span> <input type="checkbox" name="by" aria-labelledby="words">
      <div role="checkbox" aria-checked="false" tabindex="0">Custom box</div>
      <label><input type="checkbox" name="t1"> Twice</label> <label><input type="checkbox" name="t2"> Twice</label>
      <label>How many <select name="n"><option>1</option><option>2</option></select></label>
      <label for="d1">Same words</label> <input id="d1" name="d1"> <label for="d2">Same words</label> <input id="d2" name="d2">
      <button>Go</button>
    </form>`),
  "/nul": page(`<p>Bad\u0000byte</p>`),
  "/no-alt": page(`<p><img src="/x.png"></p>`),
  "/stray-end-tag": page(`<p>Text</p></p>`),
};

async function body(request: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

describe("html driver", () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      void (async () => {
        const url = new URL(request.url!, "http://localhost");
        const html = (markup: string, status = 200) => {
          response.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
          response.end(markup);
        };
        if (url.pathname === "/echo") {
          const received = {
            method: request.method,
            query: [...url.searchParams],
            body: request.method === "POST" ? [...new URLSearchParams(await body(request))] : [],
            contentType: request.headers["content-type"] ?? null,
            cookie: request.headers.cookie ?? null,
          };
          return html(page(`<pre id="echo">${escape(JSON.stringify(received))}</pre>`));
        }
        const redirect = /^\/redirect\/(\d+)$/.exec(url.pathname);
        if (redirect) {
          await body(request);
          response.writeHead(Number(redirect[1]), { Location: "/echo?redirected=1" });
          return response.end();
        }
        if (url.pathname === "/cookies/set") {
          response.setHeader("Set-Cookie", [
            "session=abc; Path=/; HttpOnly",
            "short=lived; Max-Age=60; Path=/",
            "scoped=1; Path=/echo-not",
          ]);
          return html(page("<p>Set</p>"));
        }
        if (url.pathname === "/cookies/clear") {
          response.setHeader("Set-Cookie", ["session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT"]);
          return html(page("<p>Cleared</p>"));
        }
        const markup = PAGES[url.pathname];
        return markup ? html(markup) : html(page("<p>Not found</p>"), 404);
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const driver = (options: Parameters<typeof htmlDriver>[1] = {}) => htmlDriver(origin, { skip: ["vnu"], ...options });
  const echoed = (d: ReturnType<typeof driver>) =>
    JSON.parse(d.document.getElementById("echo")!.textContent!) as {
      method: string;
      query: [string, string][];
      body: [string, string][];
      contentType: string | null;
      cookie: string | null;
    };

  it("sends the form's successful controls in tree order, defaults included, and the pressed button", async () => {
    const d = driver();
    await d.open("/form");
    await d.press("Send");
    const sent = echoed(d);
    expect(sent.method).toBe("POST");
    expect(sent.contentType).toBe("application/x-www-form-urlencoded;charset=UTF-8");
    // Unchecked box, unchosen radios, disabled fields (own or by fieldset) and unpressed buttons are left out.
    expect(sent.body).toEqual([
      ["csrf", "token-1"],
      ["name", "Jo"],
      ["terms", "on"],
      ["size", "m"],
      ["note", "line one"],
      ["intent", "send"],
    ]);
  });

  it("sends what the buyer changed", async () => {
    const d = driver();
    await d.open("/form");
    d.fill("Your name", "Sam").check("Send me news").uncheck("I accept the terms").choose("Blue");
    d.select("Size", "Large").fill("Note", "two\nlines");
    await d.press("Save");
    expect(echoed(d).body).toEqual([
      ["csrf", "token-1"],
      ["name", "Sam"],
      ["news", "yes"],
      ["size", "l"],
      ["colour", "blue"],
      ["note", "two\r\nlines"],
      ["intent", "save"],
    ]);
  });

  it("refuses what a buyer could not do: type in a disabled field, press a non-submit button, pick a missing option", async () => {
    const d = driver();
    await d.open("/form");
    expect(() => d.fill("Switched off", "z")).toThrow(/disabled/);
    expect(() => d.select("Size", "Huge")).toThrow(/no option "Huge".*Small \| Medium \| Large/);
    await expect(d.press("Does nothing")).rejects.toThrow(/not a submit button/);
    await expect(d.press("Publish")).rejects.toThrow(
      /^on \/form \(200\): Unable to find .*"button" and name "Publish"/,
    );
  });

  it("finds boxes and fields by their names however they are named, not hidden boxes, and not one of two with the same name", async () => {
    // Named without a <label> on purpose: the labels check would (rightly) refuse the page.
    const d = driver({ skip: ["vnu", "labels"] });
    await d.open("/boxes");
    for (const name of ["Shown box", "Named by ARIA", "Labelled from afar", "Named by words", "Custom box", "Twice"]) {
      expect(d.offers("checkbox", name), name).toBe(true);
    }
    expect(d.offers("checkbox", /^Shown/)).toBe(true);
    expect(d.offers("radio", "Shown box")).toBe(true);
    expect(d.offers("radio", "Named by ARIA")).toBe(false);
    expect(d.offers("checkbox", "Hidden box")).toBe(false);
    expect(d.offers("checkbox", "Absent box")).toBe(false);
    expect(d.offers("checkbox", "Shown")).toBe(false);
    expect(() => d.check("Twice")).toThrow(/multiple/i);
    expect(() => d.fill("Same words", "x")).toThrow(/multiple/i);
    d.check("Shown box").check("Labelled from afar").check("Named by words").choose("Shown box");
    d.select("How many", "2");
    await d.press("Go");
    expect(echoed(d).body).toEqual([
      ["shown", "on"],
      ["r", "1"],
      ["far", "on"],
      ["by", "on"],
      ["n", "2"],
      ["d1", ""],
      ["d2", ""],
    ]);
  });

  it("a GET form replaces the action's query with its fields", async () => {
    const d = driver();
    await d.open("/search");
    d.fill("Search for", "Macbeth");
    await d.press("Search");
    expect(echoed(d)).toMatchObject({ method: "GET", query: [["q", "Macbeth"]], body: [] });
    expect(new URL(d.url).search).toBe("?q=Macbeth");
  });

  it("honours form= on fields and buttons outside the form", async () => {
    const d = driver();
    await d.open("/owned");
    await d.press("Go");
    expect(echoed(d).body).toEqual([
      ["inside", "1"],
      ["outside", "2"],
      ["go", "yes"],
    ]);
  });

  it("follows links by name and redirects as browsers do (303 to GET, 307 repeating the POST)", async () => {
    const d = driver();
    await d.open("/links");
    await d.follow("Read more");
    expect(echoed(d).query).toEqual([["from", "link"]]);
    await d.open("/redirect-form");
    await d.press("See other");
    expect(echoed(d)).toMatchObject({ method: "GET", query: [["redirected", "1"]], body: [] });
    await d.open("/redirect-form");
    await d.press("Temporary");
    expect(echoed(d)).toMatchObject({ method: "POST", query: [["redirected", "1"]], body: [["b", "2"]] });
  });

  it("keeps cookies like a browser: path, Max-Age expiry and deletion", async () => {
    let now = Date.parse("2026-11-23T12:00:00Z");
    const d = driver({ now: () => now });
    await d.open("/cookies/set");
    await d.open("/echo");
    expect(echoed(d).cookie).toBe("session=abc; short=lived");
    now += 61_000;
    await d.open("/echo");
    expect(echoed(d).cookie).toBe("session=abc");
    await d.open("/cookies/clear");
    await d.open("/echo");
    expect(echoed(d).cookie).toBeNull();
  });

  // axe fails any delayed refresh (meta-refresh), so the page refreshes at once; the driver still waits to be asked.
  it("reads a meta refresh and follows it only when asked", async () => {
    const d = driver();
    await d.open("/refresh");
    expect(d.metaRefresh).toEqual({ seconds: 0, url: `${origin}/echo?refreshed=1` });
    expect(d.text()).toContain("Still working");
    await d.refresh();
    expect(echoed(d).query).toEqual([["refreshed", "1"]]);
    await expect(d.refresh()).rejects.toThrow(/has no meta refresh/);
  });

  it("parses refresh content as HTML does", () => {
    expect(parseRefresh("5")).toEqual({ seconds: 5, url: null });
    expect(parseRefresh("0;url=/next")).toEqual({ seconds: 0, url: "/next" });
    expect(parseRefresh(" 3 , URL = '/a b' ")).toEqual({ seconds: 3, url: "/a b" });
    expect(parseRefresh("10; /plain")).toEqual({ seconds: 10, url: "/plain" });
    expect(parseRefresh("soon")).toBeNull();
  });

  describe("checks on every page", () => {
    it("fails a control named only by aria-label, unless the test says it is known", async () => {
      await expect(driver().open("/aria-only")).rejects.toThrow(
        /\[labels\] \/aria-only: form control named only by aria-label.*input\[name="q"\] "Search"/,
      );
      const known: KnownFinding[] = [
        { check: "labels", message: "form control named only by aria-label, which a text browser does not show" },
      ];
      // axe accepts aria-label as a name, so only the labels check has anything to say here.
      const tolerant = driver({ known });
      await tolerant.open("/aria-only");
      expect(tolerant.findings.map((finding) => finding.check)).toEqual(["labels"]);
      // Known on other pages is not known here.
      const elsewhere = driver({ known: [{ ...known[0]!, page: /^\/tickets\// }] });
      await expect(elsewhere.open("/aria-only")).rejects.toThrow(/\[labels\]/);
    });

    it("fails a control with two labels (in place of axe's slow rule for it)", async () => {
      await expect(driver({ skip: ["vnu"] }).open("/two-labels")).rejects.toThrow(
        /\[labels\] \/two-labels: form control with more than one <label>.*input#q/,
      );
    });

    it("fails a NUL byte in the response", async () => {
      await expect(driver({ skip: ["vnu", "axe"] }).open("/nul")).rejects.toThrow(/\[nul\] \/nul: NUL byte/);
    });

    it("fails an axe violation, naming the rule and the nodes", async () => {
      await expect(driver().open("/no-alt")).rejects.toThrow(/\[axe\] \/no-alt: image-alt \(.*: img\)/);
    });

    it("fails HTML the Nu checker rejects, once per distinct page, naming page and line", async () => {
      const d = htmlDriver(origin);
      await d.open("/search");
      await d.open("/stray-end-tag");
      await d.open("/stray-end-tag");
      const failure = d.validateAll();
      await expect(failure).rejects.toThrow(
        /^1 page check finding\(s\).*\n.*\[vnu\] \/stray-end-tag: No “p” element in scope but a “p” end tag seen\. \(line 1,/,
      );
      // Each distinct page is checked once per test file, whichever driver received it.
      const other = htmlDriver(origin);
      await other.open("/stray-end-tag");
      await other.validateAll();
      expect(d.findings.filter((finding) => finding.check === "vnu")).toHaveLength(1);
    });
  });
});
