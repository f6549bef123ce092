import { JSDOM } from "jsdom";
import { createCookie } from "~/web/cookies.server";
import { maskCsrfToken } from "~/web/csrf.server";
import { TEST_SECRET } from "./app";

/**
 * A buyer's browser without script, for route tests against a started server: it keeps cookies,
 * sends the CSRF token with every form, masked afresh as a page of the site's would carry it, and
 * does not follow redirects (so a test sees each one).
 */
/** `headers` go with every request (an `X-Forwarded-For`, for a buyer behind a trusted proxy). */
export function buyerBrowser(
  url: (path: string) => string,
  { headers = {} }: { headers?: Record<string, string> } = {},
) {
  const jar = new Map<string, string>();
  const csrfCookie = createCookie("csrf", { secrets: [TEST_SECRET] });
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const keep = (response: Response) => {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";");
      const [name, value] = pair!.split(/=(.*)/s) as [string, string];
      const expired = attributes.some((attribute) => /max-age=0|expires=thu, 01 jan 1970/i.test(attribute.trim()));
      if (expired || value === "") jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
    return response;
  };
  return {
    cookies: jar,
    async get(path: string) {
      return keep(await fetch(url(path), { headers: { ...headers, Cookie: cookieHeader() }, redirect: "manual" }));
    },
    /** Posts a form; pairs so a field can repeat (seat=1&seat=2). */
    async post(path: string, fields: [string, string][] | Record<string, string>) {
      if (!jar.has("csrf")) await (await this.get("/legal/privacy-policy")).arrayBuffer();
      const token = (await csrfCookie.parse(`csrf=${jar.get("csrf")}`)) as string;
      const body = new URLSearchParams(Array.isArray(fields) ? fields : Object.entries(fields));
      body.append("csrf", maskCsrfToken(Buffer.from(token, "base64url")));
      return keep(
        await fetch(url(path), {
          method: "POST",
          headers: { ...headers, Cookie: cookieHeader() },
          body,
          redirect: "manual",
        }),
      );
    },
    /**
     * Presses Pay on the payment page as it stands now: the Pay form's own hidden fields (the
     * amount its button shows among them) with the buyer's entries.
     */
    async pay(entries: Record<string, string>) {
      const shown = payForm(await (await this.get("/checkout/payment")).text());
      return this.post("/checkout/payment", { ...shown.fields, ...entries });
    },
  };
}

export type BuyerBrowser = ReturnType<typeof buyerBrowser>;

/** The payment page's Pay form: its hidden fields (but the CSRF token, which `post` adds) and its button's words. */
export function payForm(html: string) {
  const form = new JSDOM(html).window.document.querySelector<HTMLFormElement>("form#pay");
  if (!form) throw new Error("no Pay form on the page");
  const hidden = [...form.querySelectorAll<HTMLInputElement>("input[type=hidden]")].filter(
    (input) => input.name !== "csrf",
  );
  return {
    fields: Object.fromEntries(hidden.map((input) => [input.name, input.value])),
    label: form.querySelector("button[type=submit]")?.textContent ?? "",
  };
}
