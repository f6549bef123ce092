// The load of `npm run bench -- queue` (scripts/bench-queue.ts), in a process of its own: buyers at
// the front of a 100,000-long line waiting and then buying, visitors deep in it refreshing, and new
// visitors joining at the back, all at once. Reports each kind of request's times.
import { setTimeout as sleep } from "node:timers/promises";
import { performance as perf } from "node:perf_hooks";
import {
  checkoutTo,
  noScriptBrowser,
  pay,
  stepRecorder,
  STEPS,
  type BuyersBrief,
  type NoScriptBrowser,
  type StepName,
} from "./bench-buyers";

export interface QueueLoadBrief extends BuyersBrief {
  performanceId: string;
  runMs: number;
  /** Session cookies (`name=value`) of the visitors at the front of the line, in order of place. */
  front: string[];
  /** Of visitors deep in the line. */
  deep: string[];
  /** Of new visitors, who join at the back. */
  joiners: string[];
}

export interface QueueLoadDone {
  kind: "done";
  seconds: number;
  orders: number;
  times: Record<"join" | "refresh" | "admission", number[]> & Record<StepName, number[]>;
  stopped: Record<string, number>;
}

const REFRESH = /<meta http-equiv="refresh" content="(\d+)/;

/** Deep visitors' first ask falls at random within this. */
const FIRST_ASK_MS = 10_000;

async function run(brief: QueueLoadBrief): Promise<QueueLoadDone> {
  const times = Object.fromEntries(
    ["join", "refresh", "admission", ...STEPS].map((name) => [name, [] as number[]]),
  ) as QueueLoadDone["times"];
  const stopped: Record<string, number> = {};
  const step = stepRecorder(times, stopped);
  const started = perf.now();
  const deadline = started + brief.runMs;
  const waitingPage = `/waiting-room?${new URLSearchParams({ performance: brief.performanceId, to: brief.tickets })}`;
  let orders = 0;

  const browserWith = (cookie: string) => {
    const browser = noScriptBrowser(brief.origin, brief.secret);
    browser.keep(cookie);
    return browser;
  };
  const timed = async <T>(name: "join" | "refresh" | "admission", work: () => Promise<T>) => {
    const at = perf.now();
    const result = await work();
    times[name].push(perf.now() - at);
    return result;
  };

  async function frontBuyer(cookie: string) {
    const browser = browserWith(cookie);
    for (;;) {
      const at = perf.now();
      const page = await browser.get(waitingPage);
      if (page.response.status >= 300 && page.response.status < 400) {
        times.admission.push(perf.now() - at);
        break;
      }
      const seconds = Number(REFRESH.exec(page.text)?.[1] ?? 10);
      if (perf.now() + seconds * 1000 > deadline) return;
      await sleep(seconds * 1000);
    }
    await shop(browser);
  }

  async function shop(browser: NoScriptBrowser) {
    // The tickets page, as the redirect sends the buyer; its own redirect hands over their basket.
    for (let hops = 0, location: string | null = brief.tickets; location && hops < 3; hops += 1) {
      const page = await browser.get(new URL(location, brief.origin).pathname);
      location = page.response.headers.get("Location");
    }
    const quantity = 1 + Math.floor(Math.random() * 4);
    const best = await step(
      "best available",
      () => browser.post(brief.tickets, { intent: "best", quantity: String(quantity) }),
      "/checkout/reservations",
    );
    if (!best) return;
    const ordered =
      (await checkoutTo(browser, brief, step)) &&
      (await step("pay", () => pay(browser), "/checkout/confirmation")) &&
      (await step("confirmation", () => browser.get("/checkout/confirmation"), ""));
    if (ordered) orders += 1;
  }

  async function deepVisitor(cookie: string) {
    const browser = browserWith(cookie);
    // Arriving at random over the first refresh interval, then asking again when the page says,
    // as a browser without script does.
    await sleep(Math.random() * FIRST_ASK_MS);
    while (perf.now() < deadline) {
      const { text } = await timed("refresh", () => browser.get(waitingPage));
      const seconds = Number(REFRESH.exec(text)?.[1] ?? 10);
      if (perf.now() + seconds * 1000 > deadline) return;
      await sleep(seconds * 1000);
    }
  }

  async function joiner(cookie: string) {
    const browser = browserWith(cookie);
    await sleep(Math.random() * (brief.runMs / 2));
    // The tickets page: the gate finds no place, so this request joins and sends the visitor to wait.
    await timed("join", () => browser.get(brief.tickets));
  }

  await Promise.all([
    ...brief.front.map((cookie) => frontBuyer(cookie)),
    ...brief.deep.map((cookie) => deepVisitor(cookie)),
    ...brief.joiners.map((cookie) => joiner(cookie)),
  ]);
  return { kind: "done", seconds: (perf.now() - started) / 1000, orders, times, stopped };
}

if (process.send) {
  process.once("message", (brief: QueueLoadBrief) => {
    run(brief).then(
      (done) => process.send!(done, undefined, undefined, () => process.exit(0)),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
