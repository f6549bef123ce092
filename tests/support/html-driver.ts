import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { configure, getByLabelText, getByRole, queryAllByLabelText, queryAllByRole } from "@testing-library/dom";
import type { AxeResults, ElementContext, RunOptions } from "axe-core";
import { JSDOM, VirtualConsole } from "jsdom";

// A browser without script at the level of HTML: every request goes over HTTP to the real build,
// every form is submitted from the page's own controls (never a body the test wrote), and every
// page it receives is checked the way a text browser or screen reader would need it to be.
//
// Use: `const buyer = htmlDriver(server.url(""))` (server from startServer in ./app, over
// `npm run build`), then `open`, `follow`, `fill`/`check`/`choose`/`select`, `press`, `refresh`,
// reading `status`, `url`, `document` and `text()`. axe, labels and NUL are checked as each page
// arrives and throw at that step; the Nu HTML Checker runs when the test calls `validateAll()`
// (once per test file keeps Java to one start), over each distinct page (status, language and
// path) once.
// Findings the app is known to have are in KNOWN_FINDINGS; a test adds its own through `known`.

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const VNU_JAR = require.resolve("vnu-jar/build/dist/vnu.jar");

// testing-library's default error prints the whole DOM, which for a seat map buries the one line
// that matters: what was asked for and not found.
configure({
  getElementError: (message) => {
    const error = new Error(message ?? "element not found");
    error.name = "TestingLibraryElementError";
    return error;
  },
});

/** An accessible name, exactly (whitespace collapsed) or by pattern. */
export type Name = string | RegExp;

export type Check = "axe" | "labels" | "nul" | "vnu";

export interface Finding {
  check: Check;
  /** axe: the rule id; labels: what is wrong; nul: fixed text; vnu: the checker's message. */
  message: string;
  /** The page (path and query) the finding is on. */
  page: string;
  /** Where on the page: the nodes axe names, the control, or the line. */
  where: string;
}

/** A finding a test expects and lets pass, until the issue that owns it fixes the page. */
export interface KnownFinding {
  check: Check;
  message: string;
  /** Only on pages whose path matches (all pages when absent). */
  page?: RegExp;
}

/**
 * What the current pages are known to fail, found by running the journeys (issue 15). Issue 16
 * ("Every browser") owns fixing each; it empties this list as it does. Nothing else is tolerated:
 * a new finding of the same check still fails.
 */
export const KNOWN_FINDINGS: readonly KnownFinding[] = [
  // The waiting page refreshes itself without script every 3 seconds, which axe reads as a timed
  // refresh (WCAG 2.2.1). It offers a link that turns the refreshing off, which axe cannot see:
  // decision 0019.
  { check: "axe", message: "meta-refresh", page: /^\/checkout\/verify/ },
  // The waiting room's page reloads itself the same way, with the same link to stop it (decision 0029).
  { check: "axe", message: "meta-refresh", page: /^\/waiting-room/ },
  // The door (issue 54) answers an arrival with that page at the tickets page's own address.
  { check: "axe", message: "meta-refresh", page: /\/tickets\/[0-9A-Fa-f-]{36}(?:\?|$)/ },
];

/** Rules that need a laid-out page, which jsdom has not: one Chromium pass per theme covers them. */
const LAYOUT_RULES = [
  "color-contrast",
  "color-contrast-enhanced",
  "link-in-text-block",
  "target-size",
  "scrollable-region-focusable",
  "css-orientation-lock",
];

/**
 * Rules the driver's own labels check does in one pass: axe's looks up every label for every
 * field, which on a seat map of labelled seats takes seconds a page.
 */
const DONE_BY_LABELS_CHECK = ["form-field-multiple-labels"];

export interface DriverOptions {
  /** The language a browser asks for (Accept-Language). */
  language?: string;
  /** Checks to switch off for this driver (all on by default). */
  skip?: Check[];
  /** Findings to let pass (defaults to KNOWN_FINDINGS). */
  known?: readonly KnownFinding[];
  /** The browser's clock, for cookie expiry. */
  now?: () => number;
  /** false: a browser set to refuse cookies, which keeps none the site sets. */
  cookies?: boolean;
  /**
   * Other sites the buyer is sent to and may visit (a payment provider's stand-in: its 3-D Secure
   * or PayPal page). They get none of our cookies, and their pages are not ours to check.
   */
  otherSites?: readonly string[];
}

interface StoredCookie {
  name: string;
  value: string;
  path: string;
  expires: number | null;
}

interface Request {
  method: "GET" | "POST";
  url: string;
  body?: URLSearchParams | FormData;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

// Shared by every driver of a test file (vitest gives each file its own module instance), so one
// Java start checks every distinct page the file's tests visited, and no page twice.
const pendingPages = new Map<string, { page: string; html: string; driver: HtmlDriver }>();
const validatedPages = new Set<string>();

/** Starts a driver against a server's origin ("http://127.0.0.1:1234"). */
export function htmlDriver(origin: string, options: DriverOptions = {}) {
  return new HtmlDriver(origin, options);
}

export class HtmlDriver {
  status = 0;
  url = "";
  headers = new Headers();
  /** Every finding on every page, tolerated or not, for a test that wants to read them. */
  readonly findings: Finding[] = [];
  private dom: JSDOM | null = null;
  private readonly jar = new Map<string, StoredCookie>();
  private readonly origin: string;
  private readonly options: Required<DriverOptions>;

  constructor(origin: string, options: DriverOptions) {
    this.origin = new URL(origin).origin;
    this.options = {
      language: "en-GB",
      skip: [],
      known: KNOWN_FINDINGS,
      now: Date.now,
      cookies: true,
      otherSites: [],
      ...options,
    };
  }

  get document(): Document {
    if (!this.dom) throw new Error("no page yet: open one first");
    return this.dom.window.document;
  }

  /** What a text browser shows of the page, as one string. */
  text(): string {
    const body = this.document.body?.cloneNode(true) as HTMLElement | undefined;
    if (!body) return "";
    // Script and style are markup no browser shows as words.
    for (const hidden of body.querySelectorAll("script, style, template")) hidden.remove();
    return normalise(body.textContent);
  }

  /** The page's `<meta http-equiv="refresh">`, if it has one. */
  get metaRefresh(): { seconds: number; url: string } | null {
    const meta = [...this.document.querySelectorAll("meta[http-equiv]")].find(
      (element) => element.getAttribute("http-equiv")!.toLowerCase() === "refresh",
    );
    if (!meta) return null;
    const parsed = parseRefresh(meta.getAttribute("content") ?? "");
    if (!parsed) return null;
    return { seconds: parsed.seconds, url: new URL(parsed.url ?? this.url, this.url).href };
  }

  /** The cookies a browser would send to `path` now, by name. */
  cookies(path = "/"): Map<string, string> {
    const now = this.options.now();
    const sent = new Map<string, string>();
    for (const [key, cookie] of this.jar) {
      if (cookie.expires !== null && cookie.expires <= now) this.jar.delete(key);
      else if (pathMatches(path, cookie.path)) sent.set(cookie.name, cookie.value);
    }
    return sent;
  }

  /**
   * Keeps a cookie as if the site had set it (a Set-Cookie header's value): for a test that seeds
   * through services what it is not about, such as a basket holding seats.
   */
  setCookie(header: string) {
    this.keepCookies(new Response(null, { headers: { "Set-Cookie": header } }), new URL("/", this.origin));
    return this;
  }

  /** Types an address into the address bar. */
  async open(path: string) {
    await this.navigate({ method: "GET", url: new URL(path, this.origin).href });
    return this;
  }

  /** Does what the page's meta refresh would do when its time is up, without waiting for it. */
  async refresh() {
    const refresh = this.metaRefresh;
    if (!refresh) throw new Error(`${this.path()} has no meta refresh`);
    await this.navigate({ method: "GET", url: refresh.url });
    return this;
  }

  /** Clicks the link with this accessible name. */
  async follow(name: Name) {
    const link = this.byRole("link", name) as HTMLAnchorElement;
    const href = link.getAttribute("href");
    if (href === null) throw new Error(`link "${String(name)}" has no href: without script it goes nowhere`);
    await this.navigate({ method: "GET", url: new URL(href, this.url).href });
    return this;
  }

  /** Types into the field with this label (a text input or textarea; lists and boxes have their own). */
  fill(label: string | RegExp, value: string, within?: string) {
    const field = this.byLabel(label, within);
    if (!(field instanceof this.window.HTMLInputElement || field instanceof this.window.HTMLTextAreaElement)) {
      throw new Error(`"${String(label)}" labels a <${field.tagName.toLowerCase()}>, not a field to type in`);
    }
    if (field instanceof this.window.HTMLInputElement && ["checkbox", "radio", "hidden"].includes(field.type)) {
      throw new Error(`"${String(label)}" labels a ${field.type} input: use check or choose`);
    }
    this.editable(field, label);
    field.value = value;
    return this;
  }

  /** Picks the radio button with this accessible name (which unpicks the rest of its group). */
  choose(name: Name, within?: string) {
    return this.setChecked("radio", name, true, within);
  }

  check(name: Name, within?: string) {
    return this.setChecked("checkbox", name, true, within);
  }

  uncheck(name: Name, within?: string) {
    return this.setChecked("checkbox", name, false, within);
  }

  private setChecked(role: "radio" | "checkbox", name: Name, checked: boolean, within?: string) {
    const input = this.byRole(role, name, within) as HTMLInputElement;
    this.editable(input, name);
    input.checked = checked;
    return this;
  }

  /** Picks the option whose shown text is `option` in the list labelled `label`. */
  select(label: string | RegExp, option: string, within?: string) {
    const list = this.byLabel(label, within);
    if (!(list instanceof this.window.HTMLSelectElement)) throw new Error(`"${String(label)}" is not a list`);
    this.editable(list, label);
    const wanted = [...list.options].find((candidate) => normalise(candidate.textContent) === option);
    if (!wanted) {
      const shown = [...list.options].map((candidate) => normalise(candidate.textContent)).join(" | ");
      throw new Error(`"${String(label)}" has no option "${option}" (it has: ${shown})`);
    }
    if (wanted.disabled) throw new Error(`option "${option}" of "${String(label)}" is disabled`);
    wanted.selected = true;
    return this;
  }

  /** Presses the submit button with this accessible name, submitting its form as a browser would. */
  async press(name: Name, within?: string) {
    await this.navigate(this.submissionOf(name, within));
    return this;
  }

  /** What pressing this submit button would send, checked as a browser would before sending. */
  private submissionOf(name: Name, within?: string): Request {
    const button = this.byRole("button", name, within) as HTMLButtonElement | HTMLInputElement;
    const isSubmit =
      button instanceof this.window.HTMLButtonElement
        ? button.type === "submit"
        : ["submit", "image"].includes((button as HTMLInputElement).type);
    if (!isSubmit) throw new Error(`"${String(name)}" is not a submit button: without script it does nothing`);
    if (button.disabled) throw new Error(`"${String(name)}" is disabled`);
    const form = button.form;
    if (!form) throw new Error(`"${String(name)}" belongs to no form: without script it does nothing`);
    return this.submission(form, button);
  }

  /**
   * Presses a submit button twice at once, as a double tap on a slow network or a reload of the
   * POST does: the same submission, cookies and token, sent twice before either answers. The page
   * becomes the second answer (the one a browser shows); returns both statuses.
   */
  async pressTwice(name: Name) {
    const request = this.submissionOf(name);
    const [first, second] = await Promise.all([this.send(request), this.send(request)]);
    await first.response.arrayBuffer();
    await this.land(second.response, request);
    return { first: first.response.status, second: second.response.status };
  }

  /**
   * Runs the Nu HTML Checker once over every distinct page any driver of this test file has
   * received and not yet had checked; throws on errors not known.
   */
  async validateAll() {
    await validateAllPages();
  }

  /** Whether the page offers a box of this role and name: for a step only some pages ask for. */
  offers(role: "checkbox" | "radio", name: Name, within?: string): boolean {
    return this.onPage(() => this.boxes(this.container(within), role, name).length > 0);
  }

  private byRole(role: "button" | "checkbox" | "link" | "radio", name: Name, within?: string): HTMLElement {
    return this.onPage(() => {
      const container = this.container(within);
      const whole = () => getByRole(container, role, { name });
      return role === "checkbox" || role === "radio" ? theOne(this.boxes(container, role, name), whole) : whole();
    });
  }

  /** The boxes of this role and name, however they are named, leaving out hidden ones. */
  private boxes(container: HTMLElement, role: "checkbox" | "radio", name: Name): HTMLElement[] {
    const byAttribute = ["aria-label", "aria-labelledby", "title"].map(
      (attribute) => `input[type="${role}"][${attribute}]`,
    );
    return namedControls(container, name, [...byAttribute, `[role="${role}"]`].join(", "), (scope) =>
      queryAllByRole(scope, role, { name }),
    );
  }

  /**
   * Where to look: the page, or the part of it a selector names, for a page that offers the same
   * control in two forms (the access declaration beside best available and beside the seat map).
   */
  private container(within?: string): HTMLElement {
    if (!within) return this.document.body;
    const found = this.document.querySelector<HTMLElement>(within);
    if (!found) throw new Error(`on ${this.path()} (${this.status}): nothing matches ${within}`);
    return found;
  }

  // Only form controls: a section named by its heading (aria-labelledby) may share a field's label
  // ("Promo code"), and it is the field that is meant.
  private byLabel(label: Name, within?: string): HTMLElement {
    return this.onPage(() => {
      const container = this.container(within);
      const found = namedControls(container, label, LABELLED_FIELDS, (scope) =>
        queryAllByLabelText(scope, label, { selector: FIELDS }),
      );
      return theOne(found, () => getByLabelText(container, label, { selector: FIELDS }));
    });
  }

  /** testing-library's errors say what was missing but not where: a journey needs both. */
  private onPage<T>(find: () => T): T {
    try {
      return find();
    } catch (error) {
      if (error instanceof Error) error.message = `on ${this.path()} (${this.status}): ${error.message}`;
      throw error;
    }
  }

  private get window() {
    return this.dom!.window;
  }

  private path(url = this.url) {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  }

  private editable(control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, name: unknown) {
    if (control.matches(":disabled")) throw new Error(`"${String(name)}" is disabled`);
    if ("readOnly" in control && control.readOnly && !["checkbox", "radio"].includes(control.type)) {
      throw new Error(`"${String(name)}" is read-only`);
    }
  }

  /** The form data set of HTML's "constructing the entry list", and where and how to send it. */
  private submission(form: HTMLFormElement, submitter: HTMLButtonElement | HTMLInputElement): Request {
    const entries: [string, string][] = [];
    for (const control of [...form.elements] as (HTMLInputElement | HTMLButtonElement | HTMLSelectElement)[]) {
      if (control.matches(":disabled") || control.closest("datalist")) continue;
      if (!control.name && !(control === submitter && control.type === "image")) continue;
      if (control instanceof this.window.HTMLButtonElement) {
        if (control === submitter) entries.push([control.name, control.value]);
        continue;
      }
      if (control instanceof this.window.HTMLSelectElement) {
        for (const option of control.options) {
          if (option.selected && !option.disabled) entries.push([control.name, option.value]);
        }
        continue;
      }
      if (control instanceof this.window.HTMLTextAreaElement) {
        entries.push([control.name, control.value.replace(/\r?\n/g, "\r\n")]);
        continue;
      }
      if (!(control instanceof this.window.HTMLInputElement)) continue;
      const type = control.type;
      if (type === "image") {
        // Without a pointer, a pressed image button reports being pressed at its corner.
        if (control === submitter)
          entries.push(
            [`${control.name ? `${control.name}.` : ""}x`, "0"],
            [`${control.name ? `${control.name}.` : ""}y`, "0"],
          );
        continue;
      }
      if (type === "submit") {
        if (control === submitter) entries.push([control.name, control.value]);
        continue;
      }
      if (["button", "reset"].includes(type)) continue;
      if (["checkbox", "radio"].includes(type)) {
        if (control.checked) entries.push([control.name, control.getAttribute("value") ?? "on"]);
        continue;
      }
      if (type === "file") throw new Error(`the form has a file field "${control.name}": the driver cannot send files`);
      entries.push([control.name, control.value]);
    }
    const method = (submitter.getAttribute("formmethod") ?? form.getAttribute("method") ?? "get").toLowerCase();
    const actionAttribute = submitter.getAttribute("formaction") ?? form.getAttribute("action");
    const action = new URL(actionAttribute || this.url, this.url);
    if (method === "dialog") throw new Error("a dialog form submits nowhere");
    if (method !== "post") {
      action.search = new URLSearchParams(entries).toString();
      action.hash = "";
      return { method: "GET", url: action.href };
    }
    const enctype = (submitter.getAttribute("formenctype") ?? form.getAttribute("enctype") ?? "").toLowerCase();
    if (enctype === "multipart/form-data") {
      const body = new FormData();
      for (const [name, value] of entries) body.append(name, value);
      return { method: "POST", url: action.href, body };
    }
    if (enctype === "text/plain") throw new Error("text/plain forms are not supported");
    return { method: "POST", url: action.href, body: new URLSearchParams(entries) };
  }

  private async navigate(first: Request) {
    const { response } = await this.send(first);
    await this.land(response, first);
  }

  /** One request, with the cookies, language and headers a browser sends; keeps what it sets. */
  private async send(request: Request) {
    const target = new URL(request.url);
    const ours = target.origin === this.origin;
    if (!ours && !this.options.otherSites.some((site) => new URL(site).origin === target.origin))
      throw new Error(`the driver only visits ${this.origin}, not ${request.url}`);
    const headers: Record<string, string> = {
      Accept: "text/html,application/xhtml+xml,*/*;q=0.8",
      "Accept-Language": this.options.language,
    };
    const cookies = [...this.cookies(target.pathname)].map(([name, value]) => `${name}=${value}`).join("; ");
    if (cookies && ours) headers.Cookie = cookies;
    if (this.url) headers.Referer = this.url;
    // A form is sent from the page it is on: the provider's own pages post to the provider.
    if (request.method === "POST") headers.Origin = this.url ? new URL(this.url).origin : this.origin;
    const response = await fetch(request.url, {
      method: request.method,
      headers,
      body: request.body,
      redirect: "manual",
    });
    if (ours) this.keepCookies(response, target);
    return { response, target };
  }

  /** Follows redirects from a response, as a browser does, to the page it lands on. */
  private async land(first: Response, firstRequest: Request) {
    let response = first;
    let request = firstRequest;
    for (let hops = 0; ; hops += 1) {
      if (hops > 20) throw new Error(`more than 20 redirects from ${firstRequest.url}`);
      const location = response.headers.get("Location");
      if (!(REDIRECTS.has(response.status) && location)) break;
      await response.arrayBuffer();
      const next = new URL(location, request.url).href;
      // 307 and 308 repeat the request; the others turn a POST into a GET, as browsers do.
      request =
        response.status === 307 || response.status === 308 ? { ...request, url: next } : { method: "GET", url: next };
      ({ response } = await this.send(request));
    }
    await this.receive(response, request.url);
  }

  private keepCookies(response: Response, url: URL) {
    if (this.options.cookies === false) return;
    const now = this.options.now();
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";");
      const equals = pair!.indexOf("=");
      if (equals < 0) continue;
      const name = pair!.slice(0, equals).trim();
      const value = pair!.slice(equals + 1).trim();
      let expires: number | null = null;
      let maxAgeSeen = false;
      let path = url.pathname.slice(0, url.pathname.lastIndexOf("/")) || "/";
      for (const attribute of attributes) {
        const [key = "", ...rest] = attribute.split("=");
        const attributeValue = rest.join("=").trim();
        switch (key.trim().toLowerCase()) {
          case "max-age":
            // Max-Age wins over Expires whatever their order.
            maxAgeSeen = true;
            expires = now + Number(attributeValue) * 1000;
            break;
          case "expires":
            if (!maxAgeSeen) expires = Date.parse(attributeValue);
            break;
          case "path":
            if (attributeValue.startsWith("/")) path = attributeValue;
            break;
        }
      }
      const key = `${name};${path}`;
      if (expires !== null && expires <= now) this.jar.delete(key);
      else this.jar.set(key, { name, value, path, expires });
    }
  }

  private async receive(response: Response, url: string) {
    this.status = response.status;
    this.url = url;
    this.headers = response.headers;
    const html = await response.text();
    if (!(response.headers.get("Content-Type") ?? "").includes("text/html")) {
      throw new Error(
        `${this.path()} answered ${response.status} with ${response.headers.get("Content-Type")}, not HTML`,
      );
    }
    // "outside-only" runs no script of the page's (this is a browser without script) but lets
    // axe run inside the window.
    this.dom = new JSDOM(html, { url, runScripts: "outside-only", virtualConsole: new VirtualConsole() });
    if (new URL(url).origin === this.origin) await this.checkPage(html);
  }

  private async checkPage(html: string) {
    const page = this.path();
    const skip = new Set(this.options.skip);
    // Queued first, so a page another check fails is still validated when the file's tests end.
    if (!skip.has("vnu")) {
      const key = `${this.status} ${this.document.documentElement.lang} ${new URL(this.url).pathname}`;
      if (!validatedPages.has(key) && !pendingPages.has(key)) pendingPages.set(key, { page, html, driver: this });
    }
    const found: Finding[] = [];
    if (!skip.has("nul") && html.includes("\u0000")) {
      const line = html.slice(0, html.indexOf("\u0000")).split("\n").length;
      found.push({ check: "nul", message: "NUL byte (U+0000) in the response", page, where: `line ${line}` });
    }
    if (!skip.has("labels")) found.push(...unlabelledControls(this.document, page));
    if (!skip.has("axe")) found.push(...(await this.axe(page, skip)));
    this.report(found);
  }

  private async axe(page: string, skip: ReadonlySet<Check>): Promise<Finding[]> {
    const window = this.window as unknown as {
      eval(source: string): unknown;
      axe?: { run(context: ElementContext, options: RunOptions): Promise<AxeResults> };
    };
    window.eval(AXE_SOURCE);
    const options: RunOptions = {
      rules: Object.fromEntries(
        [...LAYOUT_RULES, ...(skip.has("labels") ? [] : DONE_BY_LABELS_CHECK)].map((rule) => [
          rule,
          { enabled: false },
        ]),
      ),
      resultTypes: ["violations"],
    };
    // The first seat map a test file meets is checked in full; on every other page axe checks all
    // but the seats, which the same component draws the same way every time, and which cost
    // about three seconds a visit on a 900-seat map. The seats' labels are still checked on every
    // page (the labels check), and Chromium's axe checks the 2,341-seat map (tests/e2e).
    const seatMap = this.document.querySelector(".seat-map__plan") !== null;
    const context: ElementContext = seatMap && seatMapAxed.done ? { exclude: [[".seat-map__plan"]] } : this.document;
    if (seatMap) seatMapAxed.done = true;
    const results: AxeResults = await window.axe!.run(context, options);
    return results.violations.map((violation) => ({
      check: "axe" as const,
      message: violation.id,
      page,
      where: `${violation.help}: ${violation.nodes
        .slice(0, 5)
        .map((node) => node.target.join(" "))
        .join(", ")}${violation.nodes.length > 5 ? ` and ${violation.nodes.length - 5} more` : ""}`,
    }));
  }

  private report(found: Finding[]) {
    failOn(this.record(found));
  }

  /** Keeps the findings; returns those not known to be pending. */
  record(found: Finding[]): Finding[] {
    this.findings.push(...found);
    return found.filter(
      (finding) =>
        !this.options.known.some(
          (known) =>
            known.check === finding.check &&
            known.message === finding.message &&
            (!known.page || known.page.test(finding.page)),
        ),
    );
  }
}

function failOn(unknown: Finding[]) {
  if (unknown.length === 0) return;
  // A seat map can repeat one finding hundreds of times: the first few say what it is.
  const shown = unknown
    .slice(0, 10)
    .map((finding) => `  [${finding.check}] ${finding.page}: ${finding.message} (${finding.where})`);
  if (unknown.length > 10) shown.push(`  … and ${unknown.length - 10} more`);
  throw new Error(`${unknown.length} page check finding(s) not known to be pending:\n${shown.join("\n")}`);
}

/** The Nu HTML Checker over every page waiting for it (see HtmlDriver.validateAll). */
export async function validateAllPages() {
  if (pendingPages.size === 0) return;
  const dir = mkdtempSync(join(tmpdir(), "html-driver-vnu-"));
  try {
    const files = new Map<string, { page: string; driver: HtmlDriver }>();
    let index = 0;
    for (const [key, { page, html, driver }] of pendingPages) {
      const file = join(dir, `page-${(index += 1)}.html`);
      writeFileSync(file, html);
      files.set(file, { page, driver });
      validatedPages.add(key);
    }
    pendingPages.clear();
    const unknown: Finding[] = [];
    for (const message of await runVnu([...files.keys()])) {
      if (message.type === "non-document-error") throw new Error(`vnu could not check the pages: ${message.message}`);
      if (message.type !== "error") continue;
      // vnu names files as file: URLs of its own spelling ("file:/tmp/…").
      const file = message.url?.startsWith("file:") ? fileURLToPath(message.url) : (message.url ?? "?");
      const source = files.get(file);
      if (!source) throw new Error(`vnu reported on a file it was not given: ${file}: ${message.message}`);
      const finding: Finding = {
        check: "vnu",
        message: message.message,
        page: source.page,
        where: `line ${message.lastLine ?? "?"}, column ${message.firstColumn ?? message.lastColumn ?? "?"}: ${normalise(message.extract ?? "")}`,
      };
      unknown.push(...source.driver.record([finding]));
    }
    failOn(unknown);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether axe has checked a seat map in full in this test file (see the axe method). */
const seatMapAxed = { done: false };

const describe = (control: Element) =>
  `${control.tagName.toLowerCase()}${control.id ? `#${control.id}` : `[name="${control.getAttribute("name") ?? ""}"]`}`;

const FIELDS = "input, select, textarea";
const LABELLED_FIELDS = ["aria-label", "aria-labelledby"]
  .flatMap((attribute) => FIELDS.split(", ").map((field) => `${field}[${attribute}]`))
  .join(", ");

/**
 * The controls in `container` that `query` finds by this name, without asking every element: a
 * testing-library query over the whole page works out a name for each of its elements, which on a
 * big seat map is over a second a query. So only the controls that could carry the name are asked:
 * those a label with those words points at, and those `namedBy` (named by an attribute). Each is
 * asked by the query itself within its own label or parent, so what the query would refuse (a
 * hidden box, a wrong role) is still refused.
 */
function namedControls(
  container: HTMLElement,
  name: Name,
  namedBy: string,
  query: (scope: HTMLElement) => HTMLElement[],
): HTMLElement[] {
  const labelled = [...container.querySelectorAll("label")]
    .filter((label) => nameMatches(name, normalise(labelWords(label))))
    .map((label) => label.control);
  const candidates = new Set([...labelled, ...container.querySelectorAll<HTMLElement>(namedBy)]);
  return [...candidates].filter(
    (control): control is HTMLElement =>
      control !== null && query(control.closest("label") ?? control.parentElement ?? container).includes(control),
  );
}

/** The one control found, or the whole page asked: testing-library's own error (none, or several). */
const theOne = (found: HTMLElement[], whole: () => HTMLElement) => (found.length === 1 ? found[0]! : whole());

/** A label's own words, as testing-library reads them: without the text of controls inside it. */
function labelWords(node: Node): string {
  if (node.nodeType === node.TEXT_NODE) return node.textContent ?? "";
  if (node.nodeType === node.ELEMENT_NODE && LABELLABLE.has((node as Element).localName)) return "";
  return [...node.childNodes].map(labelWords).join("");
}
const LABELLABLE = new Set(["button", "meter", "output", "progress", "select", "textarea", "input"]);

const nameMatches = (name: Name, text: string) => (typeof name === "string" ? text === name : name.test(text));

const ARIA_LABEL_ONLY = "form control named only by aria-label, which a text browser does not show";

/**
 * Controls a text browser shows without a name: each needs a `<label>` with words, because
 * `aria-label` is read by screen readers but shown by nothing else.
 */
export function unlabelledControls(document: Document, page: string): Finding[] {
  const controls = document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(
    "input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]), select, textarea",
  );
  // From the labels to their controls, once: asking each control for its `labels` walks the whole
  // document each time, which on a 2,000-seat map takes seconds.
  const labels = new Map<Element, number>();
  const labelled = new Set<Element>();
  for (const label of document.querySelectorAll("label")) {
    if (!label.control) continue;
    labels.set(label.control, (labels.get(label.control) ?? 0) + 1);
    if (normalise(label.textContent) !== "") labelled.add(label.control);
  }
  const found: Finding[] = [];
  for (const control of controls) {
    // Screen readers disagree on which of two labels to read (axe's form-field-multiple-labels).
    if ((labels.get(control) ?? 0) > 1) {
      found.push({
        check: "labels",
        message: "form control with more than one <label>",
        page,
        where: describe(control),
      });
    }
    if (labelled.has(control)) continue;
    const ariaLabel = control.getAttribute("aria-label");
    const message = ariaLabel ? ARIA_LABEL_ONLY : "form control without a <label> with words";
    found.push({ check: "labels", message, page, where: `${describe(control)}${ariaLabel ? ` "${ariaLabel}"` : ""}` });
  }
  return found;
}

/** The seconds and address of a refresh's content ("5; url=/next"), as HTML's algorithm reads it. */
export function parseRefresh(content: string): { seconds: number; url: string | null } | null {
  const match = /^\s*(\d+)(?:\.[\d.]*)?\s*(?:[;,]\s*(?:url\s*=\s*)?(.*))?$/is.exec(content);
  if (!match) return null;
  let url = match[2]?.trim() ?? "";
  if ((url.startsWith("'") || url.startsWith('"')) && url.length > 0) {
    const quote = url[0]!;
    const end = url.indexOf(quote, 1);
    url = end < 0 ? url.slice(1) : url.slice(1, end);
  }
  return { seconds: Number(match[1]), url: url === "" ? null : url };
}

interface VnuMessage {
  type: string;
  url?: string;
  lastLine?: number;
  firstColumn?: number;
  lastColumn?: number;
  message: string;
  extract?: string;
}

async function runVnu(files: string[]): Promise<VnuMessage[]> {
  const output = await new Promise<string>((resolve, reject) => {
    // vnu exits non-zero when it finds errors; its JSON report (on stderr) says what they are.
    execFile(
      "java",
      ["-jar", VNU_JAR, "--errors-only", "--format", "json", ...files],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (stderr.trim().startsWith("{")) resolve(stderr);
        else reject(error ?? new Error(`vnu gave no report: ${stderr}`));
      },
    );
  });
  return (JSON.parse(output) as { messages: VnuMessage[] }).messages;
}

function pathMatches(requestPath: string, cookiePath: string) {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

function normalise(text: string | null | undefined) {
  return (text ?? "").replace(/\s+/g, " ").trim();
}
