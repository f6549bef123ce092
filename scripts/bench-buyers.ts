// The buyers of `npm run bench`'s purchase figures, in a process of their own (forked by
// scripts/bench-purchase.ts), so that the server under test has its process to itself and its
// CPU figures are its own. N buyers without script (plain HTTP with cookies, as a browser with
// script off sends it) buy from one performance until no seats are left for them, each through
// every step: best available → accept → extras → protection → delivery → contacts → Pay (sandbox
// card) → confirmation. Reports each step's times, the orders completed and where journeys
// stopped; tells the parent at once of every "no seats" answer, so it can check whether seats
// were in fact free.
import { performance as perf } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { createCookie } from "~/web/cookies.server";
import { maskCsrfToken } from "~/web/csrf.server";

export const STEPS = [
  "best available",
  "accept",
  "extras",
  "protection",
  "delivery",
  "contacts",
  "pay",
  "confirmation",
] as const;
export type StepName = (typeof STEPS)[number];

export interface BuyersBrief {
  origin: string;
  secret: string;
  buyers: number;
  tickets: string;
  contacts: Record<string, string>;
  deliveryMethodId: string;
  /** The words of the "no seats" answer, to tell it from other refusals. */
  noOptions: string;
}

export type BuyersMessage =
  | { kind: "refused"; quantity: number }
  | {
      kind: "done";
      orders: number;
      seconds: number;
      times: Record<StepName, number[]>;
      /** Journeys that did not reach the confirmation, by the step that stopped them and its answer. */
      stopped: Record<string, number>;
    };

/** A browser without script: keeps cookies, sends the CSRF token with each form, follows no redirects. */
export function noScriptBrowser(origin: string, secret: string) {
  const jar = new Map<string, string>();
  const csrfCookie = createCookie("__Host-csrf", { secrets: [secret] });
  const header = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const keep = (response: Response) => {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(";");
      const [name, value] = pair!.split(/=(.*)/s) as [string, string];
      if (value === "" || attributes.some((attribute) => /max-age=0/i.test(attribute))) jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
    return response;
  };
  return {
    /** The Cookie header this browser sends now. */
    cookies: header,
    /** Keeps a cookie as if the site had set it (a Cookie header's `name=value`). */
    keep(pair: string) {
      const [name, value] = pair.split(/=(.*)/s) as [string, string];
      jar.set(name.trim(), value);
    },
    /** A page's status and HTML. */
    async get(path: string) {
      const response = keep(await fetch(origin + path, { headers: { Cookie: header() }, redirect: "manual" }));
      return { response, text: await response.text() };
    },
    /** The CSRF cookie, from a light page, as the page the form is on would have set it. */
    async ready() {
      if (!jar.has("__Host-csrf")) await this.get("/legal/privacy-policy");
    },
    async post(path: string, fields: Record<string, string>) {
      await this.ready();
      const token = (await csrfCookie.parse(`__Host-csrf=${jar.get("__Host-csrf")}`)) as string;
      const body = new URLSearchParams({ ...fields, csrf: maskCsrfToken(Buffer.from(token, "base64url")) });
      const response = keep(
        await fetch(origin + path, { method: "POST", headers: { Cookie: header() }, body, redirect: "manual" }),
      );
      return { response, text: await response.text() };
    },
  };
}

export type NoScriptBrowser = ReturnType<typeof noScriptBrowser>;

const CARD = {
  method: "card",
  cardNumber: "4242 4242 4242 4242",
  cardOwner: "Bench Buyer",
  expiry: "12/30",
  cvv: "123",
};

/** The steps after best available, up to the payment page, as the no-script forms post them. */
export async function checkoutTo(
  browser: NoScriptBrowser,
  brief: Pick<BuyersBrief, "contacts" | "deliveryMethodId">,
  step: (name: StepName, run: () => Promise<{ response: Response }>, expect: string) => Promise<boolean>,
) {
  return (
    (await step(
      "accept",
      () => browser.post("/checkout/reservations", { intent: "accept", ackNotice: "yes", ackAdmission: "yes" }),
      "/checkout/",
    )) &&
    (await step("extras", () => browser.post("/checkout/extras", {}), "/checkout/")) &&
    (await step("protection", () => browser.post("/checkout/ticket-protection", { protection: "no" }), "/checkout/")) &&
    (await step(
      "delivery",
      () => browser.post("/checkout/collection", { deliveryMethod: brief.deliveryMethodId }),
      "/checkout/contacts",
    )) &&
    (await step("contacts", () => browser.post("/checkout/contacts", brief.contacts), "/checkout/payment"))
  );
}

/** Pay as the page offers it: at the amount its button shows, with the sandbox's test card. */
export async function pay(browser: NoScriptBrowser) {
  const { text } = await browser.get("/checkout/payment");
  const acceptedToPay = /name="acceptedToPay" value="(\d+)"/.exec(text)?.[1] ?? "";
  return browser.post("/checkout/payment", { intent: "pay", acceptedToPay, ...CARD });
}

/**
 * A timed step: its time kept under its name, and true when it answered with a redirect to
 * `expect`; otherwise where it stopped is counted (by the step and its answer) and false.
 */
/** One more journey stopped short for this reason. */
export function countStop(stopped: Record<string, number>, why: string) {
  stopped[why] = (stopped[why] ?? 0) + 1;
}

export function stepRecorder(times: Record<string, number[]>, stopped: Record<string, number>) {
  return async (name: StepName, work: () => Promise<{ response: Response }>, expect: string) => {
    const started = perf.now();
    const { response } = await work();
    times[name]!.push(perf.now() - started);
    const location = response.headers.get("Location") ?? "";
    if (location.startsWith(expect)) return true;
    const why = `${name} (${response.status}${location ? ` → ${location}` : ""})`;
    countStop(stopped, why);
    return false;
  };
}

async function run(brief: BuyersBrief): Promise<Extract<BuyersMessage, { kind: "done" }>> {
  const times = Object.fromEntries(STEPS.map((name) => [name, [] as number[]])) as Record<StepName, number[]>;
  const stopped: Record<string, number> = {};
  let orders = 0;

  const step = stepRecorder(times, stopped);

  /** Best available for this many: true when held; false (and the parent told) when there were none. */
  async function best(browser: NoScriptBrowser, quantity: number) {
    await browser.ready();
    const started = perf.now();
    const { response, text } = await browser.post(brief.tickets, { intent: "best", quantity: String(quantity) });
    times["best available"].push(perf.now() - started);
    if ((response.headers.get("Location") ?? "").startsWith("/checkout/reservations")) return true;
    if (response.status === 409 && text.includes(brief.noOptions)) {
      process.send!({ kind: "refused", quantity } satisfies BuyersMessage);
    } else {
      const why = `best available (${response.status})`;
      countStop(stopped, why);
    }
    return false;
  }

  const started = perf.now();
  await Promise.all(
    Array.from({ length: brief.buyers }, async (_, index) => {
      for (let round = 0; ; round += 1) {
        const browser = noScriptBrowser(brief.origin, brief.secret);
        const quantity = 1 + ((index + round) % 4);
        // Nothing left for this many: one seat, as a buyer would, before giving up.
        if (!(await best(browser, quantity)) && (quantity === 1 || !(await best(browser, 1)))) return;
        const ok =
          (await checkoutTo(browser, brief, step)) &&
          (await step("pay", () => pay(browser), "/checkout/confirmation")) &&
          (await step("confirmation", () => browser.get("/checkout/confirmation"), ""));
        if (ok) orders += 1;
      }
    }),
  );
  return { kind: "done", orders, seconds: (perf.now() - started) / 1000, times, stopped };
}

// Forked by the bench: the brief comes as the first message, the figures go back as the last.
// Only when this file is the process's own script: the spike's buyers import from it.
if (process.send && process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.once("message", (brief: BuyersBrief) => {
    run(brief).then(
      (done) => process.send!(done, undefined, undefined, () => process.exit(0)),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
