// `npm run bench`'s purchase figures: N buyers without script (plain HTTP with cookies, as a
// browser with script off sends it) buy from one performance of the largest house until it sells
// out, each through every step: best available → accept → extras → protection → delivery →
// contacts → Pay (sandbox card) → confirmation. Prints completed orders per minute, p95 per step,
// and oversold seats (must be 0). Figures, not a test: nothing here passes or fails on time.
import { randomBytes } from "node:crypto";
import { performance as perf } from "node:perf_hooks";
import { createCookie } from "@remix-run/node";
import { ticketsPath } from "~/routing/paths";
import { largestHouse, loadBuild, startSite } from "./bench-pages";

const BUYERS = Number(process.env.BENCH_BUYERS ?? 50);
const STEPS = [
  "best available",
  "accept",
  "extras",
  "protection",
  "delivery",
  "contacts",
  "pay",
  "confirmation",
] as const;
type StepName = (typeof STEPS)[number];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** A browser without script: keeps cookies, sends the CSRF token with each form, follows no redirects. */
function buyer(origin: string, secret: string) {
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
    async get(path: string) {
      const response = keep(await fetch(origin + path, { headers: { Cookie: header() }, redirect: "manual" }));
      await response.arrayBuffer();
      return response;
    },
    /** A page's HTML, for a form's own fields. */
    async page(path: string) {
      const response = keep(await fetch(origin + path, { headers: { Cookie: header() }, redirect: "manual" }));
      return response.text();
    },
    async post(path: string, fields: Record<string, string>) {
      if (!jar.has("__Host-csrf")) await this.get("/legal/privacy-policy");
      const token = (await csrfCookie.parse(`__Host-csrf=${jar.get("__Host-csrf")}`)) as string;
      const body = new URLSearchParams({ ...fields, csrf: token });
      const response = keep(
        await fetch(origin + path, { method: "POST", headers: { Cookie: header() }, body, redirect: "manual" }),
      );
      await response.arrayBuffer();
      return response;
    },
  };
}

const CONTACTS = {
  firstName: "Bench",
  lastName: "Buyer",
  email: "bench@example.com",
  confirmEmail: "bench@example.com",
  phone: "020 7946 0000",
  termsAccepted: "on",
};
const CARD = {
  method: "card",
  cardNumber: "4242 4242 4242 4242",
  cardOwner: "Bench Buyer",
  expiry: "12/30",
  cvv: "123",
};

export async function benchPurchase(root: string) {
  const build = await loadBuild(root);
  const secret = randomBytes(32).toString("hex");
  // Secure cookies are sent over plain http by fetch, so production settings work locally.
  const site = await startSite(root, build, { SESSION_SECRET: secret });
  try {
    const { store, clock, config } = site.services;
    const house = await largestHouse(store, clock.now());
    const { titleSlug, venueSlug, id: performanceId } = house.performance;
    const tickets = ticketsPath(config.routingType, titleSlug, venueSlug, performanceId);
    const times = new Map<StepName, number[]>(STEPS.map((step) => [step, []]));
    let orders = 0;
    /** Journeys that did not reach the confirmation, by the step that stopped them and its answer. */
    const stopped = new Map<string, number>();
    const contacts = { ...CONTACTS, ...(await answers(performanceId)) };

    /** One step: the form's POST and the page its redirect leads to. */
    async function step(name: StepName, run: () => Promise<Response>, expect: string, sellOutEnds = false) {
      const started = perf.now();
      const response = await run();
      const location = response.headers.get("Location") ?? "";
      times.get(name)!.push(perf.now() - started);
      if (location.startsWith(expect)) return true;
      if (sellOutEnds) return false;
      const why = `${name} (${response.status}${location ? ` → ${location}` : ""})`;
      stopped.set(why, (stopped.get(why) ?? 0) + 1);
      return false;
    }

    const started = perf.now();
    await Promise.all(
      Array.from({ length: BUYERS }, async (_, index) => {
        for (let round = 0; ; round += 1) {
          const browser = buyer(site.origin, secret);
          const quantity = 1 + ((index + round) % 4);
          const found = await step(
            "best available",
            () => browser.post(tickets, { intent: "best", quantity: String(quantity) }),
            "/checkout/reservations",
            true,
          );
          if (!found) {
            // Nothing left for this many: try one seat before giving up, as a buyer would.
            if (quantity === 1) return;
            const single = await browser.post(tickets, { intent: "best", quantity: "1" });
            if (!(single.headers.get("Location") ?? "").startsWith("/checkout/reservations")) return;
          }
          const ok =
            (await step(
              "accept",
              () => browser.post("/checkout/reservations", { intent: "accept", ackNotice: "yes", ackAdmission: "yes" }),
              "/checkout/",
            )) &&
            (await step("extras", () => browser.post("/checkout/extras", {}), "/checkout/")) &&
            (await step(
              "protection",
              () => browser.post("/checkout/ticket-protection", { protection: "no" }),
              "/checkout/",
            )) &&
            (await step("delivery", () => deliver(browser), "/checkout/contacts")) &&
            (await step("contacts", () => browser.post("/checkout/contacts", contacts), "/checkout/payment")) &&
            (await step(
              "pay",
              async () => {
                // Pay as the page offers it: at the amount its button shows.
                const page = await browser.page("/checkout/payment");
                const acceptedToPay = /name="acceptedToPay" value="(\d+)"/.exec(page)?.[1] ?? "";
                return browser.post("/checkout/payment", { intent: "pay", acceptedToPay, ...CARD });
              },
              "/checkout/confirmation",
            )) &&
            (await step("confirmation", () => browser.get("/checkout/confirmation"), ""));
          if (ok) orders += 1;
        }
      }),
    );
    const seconds = (perf.now() - started) / 1000;

    /** The venue's own questions, answered as a buyer would: the first choice, or a few words. */
    async function answers(performance: string) {
      const questions = await store.db
        .selectFrom("venue_questions")
        .innerJoin("runs", "runs.venue_id", "venue_questions.venue_id")
        .innerJoin("performances", "performances.run_id", "runs.id")
        .select(["venue_questions.id", "venue_questions.kind", "venue_questions.options"])
        .where("performances.id", "=", performance)
        .execute();
      return Object.fromEntries(
        questions.map((q) => [`question.${q.id}`, q.kind === "choice" ? q.options.split("|")[0]! : "A few words"]),
      );
    }

    async function deliver(browser: ReturnType<typeof buyer>) {
      const method = await store.db
        .selectFrom("delivery_methods")
        .innerJoin("runs", "runs.venue_id", "delivery_methods.venue_id")
        .innerJoin("performances", "performances.run_id", "runs.id")
        .select("delivery_methods.id")
        .where("performances.id", "=", performanceId)
        .where("delivery_methods.kind", "=", "eTicket")
        .executeTakeFirstOrThrow();
      return browser.post("/checkout/collection", { deliveryMethod: method.id });
    }

    // A seat sold twice would be two tickets for one seat; the claims table's key forbids it, and
    // this counts it from the orders' side.
    const issued = await store.db
      .selectFrom("order_tickets")
      .innerJoin("orders", "orders.id", "order_tickets.order_id")
      .select("order_tickets.ref")
      .where("orders.performance_id", "=", performanceId)
      .execute();
    const oversold = issued.length - new Set(issued.map((ticket) => ticket.ref)).size;
    const perStep = STEPS.map((name) => `${name} ${percentile(times.get(name)!, 95).toFixed(0)} ms`).join(", ");
    console.log(
      `purchase: ${orders} orders by ${BUYERS} buyers without script in ${seconds.toFixed(1)} s: ` +
        `${((orders / seconds) * 60).toFixed(0)} orders/min (aim 1,500); ${issued.length} tickets; ` +
        `oversold seats: ${oversold}`,
    );
    const stops = [...stopped].map(([why, count]) => `${count} at ${why}`).join(", ");
    if (stops) console.log(`purchase: journeys stopped short: ${stops}`);
    console.log(`purchase: p95 per step: ${perStep}`);
  } finally {
    await site.close();
  }
}
